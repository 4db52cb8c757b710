/**
 * Attempt limits of POST /tracking, per complaint number and per client, with @fastify/rate-limit's
 * counters: in Redis when `app.redis` is set (every replica shares them), else in process memory.
 *
 * - Every validated attempt counts, successful ones too, and it is counted BEFORE the legacy is
 *   asked: counting is one atomic increment, so parallel guesses cannot slip past the limit.
 * - Keys are HMACs (keyed with the session secret, the same on every replica) of the normalised
 *   complaint number and of the client address: neither is ever stored or logged in clear. The client
 *   address is used for nothing else.
 * - Redis unreachable: the in-memory counters take over (per replica), so the reporter route stays up
 *   and is still limited.
 */
import { createHmac } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { TrackingSettings } from '../../config.ts';
import { ApiProblem } from '../../errors.ts';

type Check = ReturnType<FastifyInstance['createRateLimit']>;
type Counters = { perClient: Check; perNumber: Check };

export type TrackingLimiter = {
  /** Counts one attempt for this client and number; throws 429 `rate-limited` when over a limit. */
  consume(request: FastifyRequest, reply: FastifyReply, caseNumber: string): Promise<void>;
};

/** The complaint number as the legacy matches it (case-insensitive, no surrounding spaces). */
export const normaliseCaseNumber = (value: string) => value.trim().toUpperCase();

const numbers = new WeakMap<FastifyRequest, string>();

/** Counters in their own encapsulated context: one @fastify/rate-limit store each. */
async function countersIn(
  app: FastifyInstance,
  settings: TrackingSettings,
  keyOf: (kind: string, value: string) => string,
  redis: Redis | null,
): Promise<Counters> {
  let counters: Counters | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      skipOnError: false,
      ...(redis ? { redis, nameSpace: `${settings.namespace}:` } : {}),
    });
    const timeWindow = settings.windowSeconds * 1000;
    counters = {
      perClient: scope.createRateLimit({
        max: settings.maxPerClient,
        timeWindow,
        keyGenerator: (request) => keyOf('client', normalizeIP(request.ip)),
      }),
      perNumber: scope.createRateLimit({
        max: settings.maxPerNumber,
        timeWindow,
        keyGenerator: (request) => keyOf('number', numbers.get(request) ?? ''),
      }),
    };
  });
  if (!counters) throw new Error('tracking limits were not created');
  return counters;
}

export async function trackingLimiter(
  app: FastifyInstance,
  settings: TrackingSettings,
): Promise<TrackingLimiter> {
  const secret = app.config.sessionSecret;
  const keyOf = (kind: string, value: string) =>
    `${kind}:${createHmac('sha256', secret).update(`tracking:${kind}:${value}`).digest('base64url').slice(0, 32)}`;
  const memory = await countersIn(app, settings, keyOf, null);
  const shared = app.redis ? await countersIn(app, settings, keyOf, app.redis) : null;

  const refuse = (reply: FastifyReply, seconds: number) => {
    const retryAfter = Math.max(1, seconds);
    reply.header('retry-after', String(retryAfter));
    return new ApiProblem('rate-limited', {
      detail: format(TEMPLATE_MESSAGES.retryInMinutes, { minutes: Math.max(1, Math.ceil(retryAfter / 60)) }),
    });
  };

  const count = async (request: FastifyRequest, check: keyof Counters) => {
    if (shared) {
      try {
        return await shared[check](request);
      } catch {
        request.log.warn(
          { limiter: 'tracking', store: 'redis' },
          'rate-limit store unavailable, counting in memory',
        );
      }
    }
    return memory[check](request);
  };

  return {
    async consume(request, reply, caseNumber) {
      numbers.set(request, normaliseCaseNumber(caseNumber));
      for (const check of ['perClient', 'perNumber'] as const) {
        const result = await count(request, check);
        if (!result.isAllowed && result.isExceeded) {
          request.log.info({ limiter: 'tracking', limit: check }, 'tracking attempt limit reached');
          throw refuse(reply, result.ttlInSeconds);
        }
      }
    },
  };
}
