/**
 * The gateway's shared state between replicas. With `REDIS_URL` set, `app.redis` is an ioredis client
 * used by the state that must be the same on every replica (session registry, attempt limits,
 * idempotency keys of case submissions); without it `app.redis` is null and that state lives in
 * process memory, which is right for a single gateway (the default `pnpm start`).
 *
 * `app.keyStore` is the small key-value store the session registry and the attempt limits use. Every
 * write goes to process memory AND to Redis (when configured); reads answer from Redis. When Redis
 * is briefly unreachable the memory copy answers instead (logged), so reporter routes and sign-in
 * stay up and still limited; what this replica wrote during the outage is still known to it.
 *
 * Redis being unreachable must not take routes down with it, so commands fail fast (no offline
 * queue, bounded retries).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
    keyStore: KeyStore;
  }
}

/** Every key the gateway writes starts with this, so one Redis can serve other tenants too. */
export const REDIS_PREFIX = 'wbs:gw:';

/** A read that may have come from the memory copy because Redis did not answer. */
export type Lookup = { value: string | null; fallback: boolean };

/** The counters of one failure limit (attempt-limits.ts, `failureLimiter`). */
export type PlaceKeys = {
  /** Failures counted so far. */
  failures: string;
  /** Places held by attempts whose outcome is not known yet. */
  pending: string;
  /** Present while a back-off wait runs; omitted: no attempt at all past the limit. */
  slot?: string;
};

/** What `takePlace` found: whether the place was granted, and the counts it was decided on. */
export type PlaceAnswer = { granted: boolean; pending: number; failures: number };

export type KeyStore = {
  /** Adds 1 and returns the new count; the key lives `ttlMs` from its first increment. */
  incr(key: string, ttlMs: number): Promise<number>;
  /** Takes 1 back (never below 0, never reviving an expired key). */
  decr(key: string): Promise<void>;
  /** Sets the key only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  lookup(key: string): Promise<Lookup>;
  /** Milliseconds the key still lives (0 when absent). */
  ttl(key: string): Promise<number>;
  /** Deletes keys; returns how many existed (from Redis when it answered). */
  del(...keys: string[]): Promise<number>;
  /** Adds a member to a set living at least `ttlMs`. */
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  /** Members of a set: Redis's and this replica's memory copy together. */
  members(key: string): Promise<string[]>;
  /**
   * Takes a place for an attempt whose outcome is not known yet, in one atomic step: granted while
   * the failures plus the places already pending are fewer than `limit`; past the limit, granted only
   * when `keys.slot` is given and absent (the back-off wait has passed) and nothing else is pending.
   * A granted place adds 1 to `pending`, which then lives `pendingTtlMs` from this grant (so a place
   * whose holder died is forgotten, never one still held).
   */
  takePlace(keys: PlaceKeys, limit: number, pendingTtlMs: number): Promise<PlaceAnswer>;
};

type Entry = { value: number | string | Set<string>; expiresAt: number };

/** The in-process copy: expiry checked on access and swept once a minute. */
export function memoryStore(): KeyStore & { sweep(): void } {
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async incr(key, ttlMs) {
      const entry = live(key);
      const count = (typeof entry?.value === 'number' ? entry.value : 0) + 1;
      entries.set(key, { value: count, expiresAt: entry?.expiresAt ?? Date.now() + ttlMs });
      return count;
    },
    async decr(key) {
      const entry = live(key);
      if (entry && typeof entry.value === 'number') entry.value = Math.max(0, entry.value - 1);
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key)) return false;
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
      return true;
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    },
    async lookup(key) {
      const value = live(key)?.value;
      return { value: value === undefined || value instanceof Set ? null : String(value), fallback: false };
    },
    async ttl(key) {
      const entry = live(key);
      return entry ? Math.max(0, entry.expiresAt - Date.now()) : 0;
    },
    async del(...keys) {
      let removed = 0;
      for (const key of keys) if (live(key) && entries.delete(key)) removed++;
      return removed;
    },
    async addMember(key, member, ttlMs) {
      const entry = live(key);
      const set = entry?.value instanceof Set ? entry.value : new Set<string>();
      set.add(member);
      entries.set(key, { value: set, expiresAt: Math.max(entry?.expiresAt ?? 0, Date.now() + ttlMs) });
    },
    async members(key) {
      const value = live(key)?.value;
      return value instanceof Set ? [...value] : [];
    },
    async takePlace(keys, limit, pendingTtlMs) {
      // No await inside: one step of the event loop, as atomic as the Redis script.
      const count = (key: string) => {
        const value = live(key)?.value;
        return typeof value === 'number' ? value : 0;
      };
      const failures = count(keys.failures);
      const pending = count(keys.pending);
      const granted =
        failures + pending < limit ||
        (keys.slot !== undefined && failures >= limit && pending === 0 && !live(keys.slot));
      if (granted) entries.set(keys.pending, { value: pending + 1, expiresAt: Date.now() + pendingTtlMs });
      return { granted, pending, failures };
    },
    sweep() {
      for (const key of entries.keys()) live(key);
    },
  };
}

// Scripts keep each counter step atomic across replicas (KEYS are prefixed by ioredis).
const INCR_SCRIPT =
  "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n";
const DECR_SCRIPT =
  "if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then redis.call('DECR', KEYS[1]) end return 0";
// KEYS: failures, pending[, slot]; ARGV: limit, pending TTL (ms). Returns {granted, pending, failures}.
const TAKE_PLACE_SCRIPT = `
local limit = tonumber(ARGV[1])
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
local pending = tonumber(redis.call('GET', KEYS[2]) or '0')
local granted = failures + pending < limit
if not granted and #KEYS == 3 and failures >= limit and pending == 0 then
  granted = redis.call('EXISTS', KEYS[3]) == 0
end
if granted then
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return {1, pending, failures}
end
return {0, pending, failures}`;
const ADD_MEMBER_SCRIPT =
  "redis.call('SADD', KEYS[1], ARGV[1]) if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/** Memory always, Redis too when configured; Redis answers, memory stands in when Redis fails. */
function layeredStore(
  redis: Redis | null,
  log: FastifyBaseLogger,
  namespace: string,
  memory: ReturnType<typeof memoryStore>,
): KeyStore {
  const k = (key: string) => `${namespace}:${key}`;
  let warnedAt = 0;
  const both = async <T>(local: () => Promise<T>, shared: ((r: Redis) => Promise<T>) | null): Promise<T> => {
    const mine = await local();
    if (!redis || !shared) return mine;
    try {
      return await shared(redis);
    } catch (error) {
      // One line per 10 s at most: an outage under load must not flood the log.
      if (Date.now() - warnedAt > 10_000) {
        warnedAt = Date.now();
        log.warn(
          { redisError: (error as NodeJS.ErrnoException).code ?? (error as Error).name },
          'rate-limit store unavailable, counting in memory',
        );
      }
      return mine;
    }
  };
  return {
    incr: (key, ttlMs) =>
      both(
        () => memory.incr(k(key), ttlMs),
        async (r) => Number(await r.eval(INCR_SCRIPT, 1, k(key), String(Math.ceil(ttlMs)))),
      ),
    decr: (key) =>
      both(
        () => memory.decr(k(key)),
        async (r) => {
          await r.eval(DECR_SCRIPT, 1, k(key));
        },
      ),
    setIfAbsent: (key, value, ttlMs) =>
      both(
        () => memory.setIfAbsent(k(key), value, ttlMs),
        async (r) => (await r.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK',
      ),
    set: (key, value, ttlMs) =>
      both(
        () => memory.set(k(key), value, ttlMs),
        async (r) => {
          await r.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
        },
      ),
    lookup: (key) =>
      both(
        async () => ({ ...(await memory.lookup(k(key))), fallback: redis !== null }),
        async (r) => ({ value: await r.get(k(key)), fallback: false }),
      ),
    ttl: (key) =>
      both(
        () => memory.ttl(k(key)),
        async (r) => Math.max(0, await r.pttl(k(key))),
      ),
    del: (...keys) =>
      both(
        () => memory.del(...keys.map(k)),
        (r) => r.del(...keys.map(k)),
      ),
    addMember: (key, member, ttlMs) =>
      both(
        () => memory.addMember(k(key), member, ttlMs),
        async (r) => {
          await r.eval(ADD_MEMBER_SCRIPT, 1, k(key), member, String(Math.ceil(ttlMs)));
        },
      ),
    takePlace: async (keys, limit, pendingTtlMs) => {
      const local: PlaceKeys = {
        failures: k(keys.failures),
        pending: k(keys.pending),
        ...(keys.slot === undefined ? {} : { slot: k(keys.slot) }),
      };
      let mine: PlaceAnswer | undefined;
      return both(
        async () => {
          mine = await memory.takePlace(local, limit, pendingTtlMs);
          return mine;
        },
        async (r) => {
          const names = [local.failures, local.pending, ...(local.slot ? [local.slot] : [])];
          const [granted, pending, failures] = (await r.eval(
            TAKE_PLACE_SCRIPT,
            names.length,
            ...names,
            String(limit),
            String(Math.max(1, Math.ceil(pendingTtlMs))),
          )) as [number, number, number];
          const shared = { granted: granted === 1, pending: Number(pending), failures: Number(failures) };
          // The memory copy follows Redis's answer, so it stands in with the right count if Redis goes.
          if (mine?.granted && !shared.granted) await memory.decr(local.pending);
          if (!mine?.granted && shared.granted) await memory.incr(local.pending, pendingTtlMs);
          return shared;
        },
      );
    },
    members: async (key) => {
      const local = await memory.members(k(key));
      const shared = await both(
        async () => [] as string[],
        (r) => r.smembers(k(key)),
      );
      return [...new Set([...local, ...shared])];
    },
  };
}

export const redisPlugin = fp(
  async (app: FastifyInstance, opts: { config: Pick<Config, 'redisUrl' | 'rateLimitNamespace'> }) => {
    const memory = memoryStore();
    const sweeper = setInterval(() => memory.sweep(), 60_000);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    const namespace = opts.config.rateLimitNamespace;
    if (!opts.config.redisUrl) {
      app.decorate('redis', null);
      app.decorate('keyStore', layeredStore(null, app.log, namespace, memory));
      return;
    }
    const redis = new Redis(opts.config.redisUrl, {
      keyPrefix: REDIS_PREFIX,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: 2_000,
      // Commands of requests handled in the same tick (the session registry read of each) leave in
      // one write instead of one write each.
      enableAutoPipelining: true,
    });
    // The URL may hold a password: log only that the connection failed, never the error's text.
    redis.on('error', (error: NodeJS.ErrnoException) => {
      app.log.warn({ redisError: error.code ?? error.name }, 'redis unavailable');
    });
    await redis.connect().catch((error: NodeJS.ErrnoException) => {
      app.log.warn({ redisError: error.code ?? error.name }, 'redis not reachable at start-up');
    });
    app.decorate('redis', redis);
    app.decorate('keyStore', layeredStore(redis, app.log, namespace, memory));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'wbs-redis' },
);
