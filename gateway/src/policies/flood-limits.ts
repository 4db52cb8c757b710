/**
 * Flood limits of the routes that create something (docs/adr/0014-flood-limits.md): case
 * submissions (POST /cases), activity-log posts (POST /cases/{id}/logs), evidence and messages, per
 * client and for the whole gateway, and for messages also per case and side (a subject), counted with
 * @fastify/rate-limit's counters; uploads are counted BEFORE a byte of the body is read (a flood costs
 * neither spool space nor scrubbing). Over a limit: 429 `rate-limited` with `Retry-After`.
 *
 * - The client is the signed-in user (`user:{id}`), else the address (IPv6 by /64); both only as HMACs
 *   keyed with the session secret, never stored or logged in clear.
 * - Counters in Redis when configured (shared by the replicas, under `RATE_LIMIT_NAMESPACE`), else in
 *   process memory; Redis unreachable → memory, so the route stays up and still limited.
 * - A retry of an ADMITTED submission (same `Idempotency-Key` from the same client) is not counted
 *   again, up to `FREE_RETRIES` times per key within the window: the web's own retries after a dropped
 *   connection never eat into the reporter's allowance, while a key replayed without end is counted
 *   like anything else. A key is recorded only once its request was admitted, so a refused request
 *   cannot buy free passes for its key.
 */
import { createHmac } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { ApiProblem } from '../errors.ts';

export type FloodRule = {
  /** Names the counters (`{RATE_LIMIT_NAMESPACE}:flood:{name}:…`) and the log lines. */
  name: string;
  maxPerClient: number;
  maxGlobal: number;
  windowSeconds: number;
  /**
   * Per subject the route names (a case and the side writing to it): a flood from rotating addresses
   * still meets this one. Absent: no subject counter.
   */
  maxPerSubject?: number;
  /** Told of each refusal and which limit refused it (before the 429 is thrown). */
  onRefused?: (request: FastifyRequest, limit: 'perClient' | 'perSubject' | 'global') => void;
};

export type FloodLimiter = {
  /**
   * Counts one request of this client (and of everyone); throws 429 `rate-limited` over a limit.
   * `retryKey`: the request's idempotency key, when it has one; `subject`: what the rule's
   * `maxPerSubject` counts (kept only as an HMAC).
   */
  consume(
    request: FastifyRequest,
    reply: FastifyReply,
    retryKey?: string | null,
    subject?: string,
  ): Promise<void>;
};

/** Retries of one admitted key that are not counted again. */
export const FREE_RETRIES = 3;
/** Admitted keys remembered in memory (oldest forgotten first). */
const MEMORY_KEYS = 10_000;

type Check = ReturnType<FastifyInstance['createRateLimit']>;
type Counters = { perClient: Check; perSubject: Check | null; global: Check };

const clientKeys = new WeakMap<FastifyRequest, string>();
const subjectKeys = new WeakMap<FastifyRequest, string>();

/** Who the request counts against: the signed-in user, else its address. */
export function clientOf(request: FastifyRequest): string {
  const user = request.session?.user;
  return user ? `user:${user.id}` : `ip:${normalizeIP(request.ip)}`;
}

async function countersIn(app: FastifyInstance, rule: FloodRule, redis: Redis | null): Promise<Counters> {
  let counters: Counters | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      skipOnError: false,
      ...(redis ? { redis, nameSpace: `${app.config.rateLimitNamespace}:flood:${rule.name}:` } : {}),
    });
    const timeWindow = rule.windowSeconds * 1000;
    counters = {
      perClient: scope.createRateLimit({
        max: rule.maxPerClient,
        timeWindow,
        keyGenerator: (request) => clientKeys.get(request) ?? '',
      }),
      perSubject:
        rule.maxPerSubject === undefined
          ? null
          : scope.createRateLimit({
              max: rule.maxPerSubject,
              timeWindow,
              keyGenerator: (request) => subjectKeys.get(request) ?? '',
            }),
      global: scope.createRateLimit({ max: rule.maxGlobal, timeWindow, keyGenerator: () => 'global' }),
    };
  });
  if (!counters) throw new Error(`${rule.name} flood limits were not created`);
  return counters;
}

/** Admitted idempotency keys and how many free retries each has used. */
type RetryLedger = {
  /** true when `key` was admitted and still has a free retry (which this call uses up). */
  freeRetry(key: string): Promise<boolean>;
  admit(key: string): Promise<void>;
};

function memoryLedger(windowSeconds: number): RetryLedger {
  // An admitted key lives one window (a retry does not extend it); when full, the least recently used goes.
  const keys = new LRUCache<string, { used: number }>({ max: MEMORY_KEYS, ttl: windowSeconds * 1000 });
  return {
    async freeRetry(key) {
      const entry = keys.get(key);
      if (!entry) return false;
      entry.used += 1;
      return entry.used <= FREE_RETRIES;
    },
    async admit(key) {
      keys.set(key, { used: 0 });
    },
  };
}

/** Increments an existing key only (never creates one without expiry). */
const INCR_IF_EXISTS =
  "if redis.call('exists', KEYS[1]) == 1 then return redis.call('incr', KEYS[1]) end return -1";

function redisLedger(redis: Redis, prefix: string, windowSeconds: number): RetryLedger {
  return {
    async freeRetry(key) {
      const used = Number(await redis.eval(INCR_IF_EXISTS, 1, `${prefix}${key}`));
      return used >= 1 && used <= FREE_RETRIES;
    },
    async admit(key) {
      await redis.set(`${prefix}${key}`, 0, 'EX', windowSeconds, 'NX');
    },
  };
}

export async function floodLimiter(app: FastifyInstance, rule: FloodRule): Promise<FloodLimiter> {
  const secret = app.config.sessionSecret;
  const hmac = (kind: string, value: string) =>
    `${kind}:${createHmac('sha256', secret).update(`flood:${rule.name}:${kind}:${value}`).digest('base64url').slice(0, 32)}`;
  const memory = { counters: await countersIn(app, rule, null), ledger: memoryLedger(rule.windowSeconds) };
  const redis = app.redis;
  const shared = redis
    ? {
        counters: await countersIn(app, rule, redis),
        ledger: redisLedger(
          redis,
          `${app.config.rateLimitNamespace}:flood:${rule.name}:retry:`,
          rule.windowSeconds,
        ),
      }
    : null;

  /** The shared store when it answers, else this replica's memory (never failing the request). */
  const withStore = async <T>(
    request: FastifyRequest,
    use: (store: typeof memory) => Promise<T>,
  ): Promise<T> => {
    if (shared) {
      try {
        return await use(shared);
      } catch {
        request.log.warn(
          { limiter: rule.name, store: 'redis' },
          'flood-limit store unavailable, counting in memory',
        );
      }
    }
    return use(memory);
  };

  const withSubject = ['perClient', 'perSubject', 'global'] as const;
  const withoutSubject = ['perClient', 'global'] as const;

  const refuse = (reply: FastifyReply, seconds: number) => {
    const retryAfter = Math.max(1, seconds);
    reply.header('retry-after', String(retryAfter));
    return new ApiProblem('rate-limited', {
      detail: format(TEMPLATE_MESSAGES.floodRetryInMinutes, {
        minutes: Math.max(1, Math.ceil(retryAfter / 60)),
      }),
    });
  };

  return {
    async consume(request, reply, retryKey, subject) {
      const client = clientOf(request);
      const ledgerKey = retryKey ? hmac('retry', `${client}\n${subject ?? ''}\n${retryKey}`) : null;
      if (ledgerKey && (await withStore(request, (s) => s.ledger.freeRetry(ledgerKey)))) return;
      clientKeys.set(request, hmac('client', client));
      if (subject !== undefined) subjectKeys.set(request, hmac('subject', subject));
      const checks = subject !== undefined && rule.maxPerSubject !== undefined ? withSubject : withoutSubject;
      for (const check of checks) {
        const result = await withStore(request, (s) => (s.counters[check] as Check)(request));
        if (!result.isAllowed && result.isExceeded) {
          request.log.info({ limiter: rule.name, limit: check }, 'flood limit reached');
          rule.onRefused?.(request, check);
          throw refuse(reply, result.ttlInSeconds);
        }
      }
      if (ledgerKey) await withStore(request, (s) => s.ledger.admit(ledgerKey));
    },
  };
}
