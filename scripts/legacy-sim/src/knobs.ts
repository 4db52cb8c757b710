/** Test knobs: make the sim slow, failing, hanging, malformed or unreachable. */
import type { FastifyInstance } from 'fastify';

export type Knobs = {
  /** Delay every /api reply by this many ms. */
  latencyMs?: number;
  /** Answer every /api call with HTTP 500 and a non-envelope body. */
  failWith500?: boolean;
  /** Alias of failWith500 (the gateway's early stand-in used this name). */
  status500?: boolean;
  /** Never answer. */
  hang?: boolean;
  /** HTTP 200 with a body that is not a valid envelope (truncated JSON). */
  malformed?: boolean;
  /** Destroy the socket without answering. */
  down?: boolean;
};

export const MALFORMED_BODY = '{"code":1,"message":[';

/** Applies the knobs to every /api request (the /__sim routes are never affected). */
export function registerKnobs(app: FastifyInstance, current: () => Knobs): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.toLowerCase().startsWith('/api')) return;
    const knobs = current();
    if (knobs.down) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (knobs.hang) {
      reply.hijack();
      return;
    }
    if (knobs.latencyMs && knobs.latencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, knobs.latencyMs));
    if (knobs.failWith500 || knobs.status500) {
      return reply
        .code(500)
        .type('text/plain')
        .send('System.NullReferenceException: Object reference not set');
    }
    if (knobs.malformed) return reply.code(200).type('application/json').send(MALFORMED_BODY);
  });
}

export function parseKnobs(body: unknown): Knobs {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const knobs: Knobs = {};
  if (typeof b.latencyMs === 'number' && b.latencyMs > 0) knobs.latencyMs = Math.min(b.latencyMs, 120_000);
  for (const key of ['failWith500', 'status500', 'hang', 'malformed', 'down'] as const)
    if (b[key] === true) knobs[key] = true;
  return knobs;
}
