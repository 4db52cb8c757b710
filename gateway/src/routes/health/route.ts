/**
 * /healthz: the process is alive. /readyz: the legacy API really answers a known cheap call (the
 * channel list, open to anyone, checked as a legacy envelope) and the gateway's own store answers,
 * both within a short bound. Any HTTP answer is not enough: a base URL missing its `/api` reaches a
 * server that answers 404, and a gateway sent there must not take traffic.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { probeChannels } from '../../legacy/reference.ts';

const PROBE_TIMEOUT_MS = 1_500;

type Check = { ok: true } | { ok: false; reason: string };

const timeout = (ms: number) =>
  new Promise<Check>((resolve) => setTimeout(() => resolve({ ok: false, reason: 'timeout' }), ms).unref());

/** The reason, for the ops line: a problem type or an error code, never an address or a body. */
function reasonOf(error: unknown): string {
  if (error instanceof ApiProblem) return error.type;
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'error';
}

async function legacyAnswers(request: FastifyRequest): Promise<Check> {
  const call = probeChannels(request.legacy)
    .then((count): Check => (count > 0 ? { ok: true } : { ok: false, reason: 'empty channel list' }))
    .catch((error: unknown): Check => ({ ok: false, reason: reasonOf(error) }));
  return Promise.race([call, timeout(PROBE_TIMEOUT_MS)]);
}

async function storeAnswers(app: FastifyInstance): Promise<Check> {
  return (await app.store.ping(PROBE_TIMEOUT_MS)) ? { ok: true } : { ok: false, reason: 'no answer' };
}

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { config: { policy: 'public' }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { policy: 'public' }, logLevel: 'warn' }, async (request, reply) => {
    const [legacy, store] = await Promise.all([legacyAnswers(request), storeAnswers(app)]);
    if (legacy.ok && store.ok) return reply.send({ status: 'ready' });
    request.log.warn(
      {
        legacy: legacy.ok ? 'ok' : legacy.reason,
        store: store.ok ? 'ok' : store.reason,
      },
      'not ready',
    );
    const status = !legacy.ok ? 'legacy unreachable' : 'store unreachable';
    return reply.code(503).header('retry-after', '5').send({ status });
  });
}
