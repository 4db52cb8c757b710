/**
 * Attempt limits of the routes that can be guessed at: tracking (complaint number + password),
 * sign-in (username + password) and forgot-password (e-mail). Each counts attempts per subject (the
 * number, username or e-mail named in the request) and per client, with @fastify/rate-limit's
 * counters: in Redis when `app.redis` is set (every replica shares them), else in process memory.
 *
 * - Every validated attempt counts, successful ones too, BEFORE the legacy is asked: counting is one
 *   atomic increment, so parallel guesses cannot slip past the limit.
 * - Keys are HMACs (keyed with the session secret, the same on every replica) of the subject and of
 *   the client address: neither is ever stored or logged in clear. The client address is used for
 *   nothing else.
 * - Redis unreachable: the in-memory counters take over (per replica), so the route stays up and is
 *   still limited.
 */
import { createHmac } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiProblem } from '../errors.ts';

export type AttemptRule = {
  /** Names the counters (`{RATE_LIMIT_NAMESPACE}:{name}:…`) and the log lines. */
  name: string;
  maxPerSubject: number;
  maxPerClient: number;
  windowSeconds: number;
};

export type AttemptLimiter = {
  /** Counts one attempt for this client and subject; throws 429 `rate-limited` when over a limit. */
  consume(request: FastifyRequest, reply: FastifyReply, subject: string): Promise<void>;
};

type Check = ReturnType<FastifyInstance['createRateLimit']>;
type Counters = { perClient: Check; perSubject: Check };

const subjects = new WeakMap<FastifyRequest, string>();

/** Counters in their own encapsulated context: one @fastify/rate-limit store each. */
async function countersIn(
  app: FastifyInstance,
  rule: AttemptRule,
  keyOf: (kind: string, value: string) => string,
  redis: Redis | null,
): Promise<Counters> {
  let counters: Counters | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      skipOnError: false,
      ...(redis ? { redis, nameSpace: `${app.config.rateLimitNamespace}:${rule.name}:` } : {}),
    });
    const timeWindow = rule.windowSeconds * 1000;
    counters = {
      perClient: scope.createRateLimit({
        max: rule.maxPerClient,
        timeWindow,
        keyGenerator: (request) => keyOf('client', normalizeIP(request.ip)),
      }),
      perSubject: scope.createRateLimit({
        max: rule.maxPerSubject,
        timeWindow,
        keyGenerator: (request) => keyOf('subject', subjects.get(request) ?? ''),
      }),
    };
  });
  if (!counters) throw new Error(`${rule.name} limits were not created`);
  return counters;
}

export async function attemptLimiter(app: FastifyInstance, rule: AttemptRule): Promise<AttemptLimiter> {
  const secret = app.config.sessionSecret;
  const keyOf = (kind: string, value: string) =>
    `${kind}:${createHmac('sha256', secret).update(`${rule.name}:${kind}:${value}`).digest('base64url').slice(0, 32)}`;
  const memory = await countersIn(app, rule, keyOf, null);
  const shared = app.redis ? await countersIn(app, rule, keyOf, app.redis) : null;

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
          { limiter: rule.name, store: 'redis' },
          'rate-limit store unavailable, counting in memory',
        );
      }
    }
    return memory[check](request);
  };

  return {
    async consume(request, reply, subject) {
      subjects.set(request, subject);
      for (const check of ['perClient', 'perSubject'] as const) {
        const result = await count(request, check);
        if (!result.isAllowed && result.isExceeded) {
          request.log.info({ limiter: rule.name, limit: check }, 'attempt limit reached');
          throw refuse(reply, result.ttlInSeconds);
        }
      }
    },
  };
}
