/**
 * `Idempotency-Key` for uploads that create something (POST /cases): a retried or double-clicked
 * submission runs once and every copy gets the same reply.
 *
 * The key is namespaced by the caller (`user:<id>` or `guest`) and bound to a fingerprint of the
 * submission (an HMAC over the text fields and the SHA-256 of every file): the same key with other
 * content is refused (409) instead of answering with another submission's complaint number, so a
 * guessed key of another guest discloses nothing. States: `pending` (claimed by the request doing
 * the work, short TTL so a crashed replica does not block retries for long) and `done` (the reply,
 * kept 24 h). A duplicate arriving while the first is pending waits for it (polling) and then
 * answers with the first reply; if the first is still running after `WAIT_MS`, 409. When the work
 * fails the claim is released, so the retry runs again.
 *
 * Redis (`app.redis`, shared by every replica) when configured, else process memory (bounded, TTL).
 * A Redis error falls back to memory for that request: a report must not be refused because Redis
 * is down. The store holds the complaint number (that is its job), never any reporter field.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { ApiProblem } from '../errors.ts';

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
const DONE_TTL_MS = 24 * 60 * 60 * 1000;
const PENDING_TTL_MS = 5 * 60 * 1000;
const WAIT_MS = 25_000;
const POLL_MS = 150;
const MEMORY_MAX_ENTRIES = 10_000;

type Entry<T> =
  | { state: 'pending'; fingerprint: string; token: string }
  | { state: 'done'; fingerprint: string; result: T };

type Claim<T> =
  | { owner: true; complete(result: T): Promise<void>; release(): Promise<void> }
  | { owner: false; entry: Entry<T> | null };

interface Store {
  claim<T>(key: string, fingerprint: string): Promise<Claim<T>>;
}

/**
 * Keys without Redis: each entry lives as long as its state's TTL (lru-cache drops it then; a read
 * does not extend it), and when full the least recently used goes first.
 */
type Memory = LRUCache<string, Entry<unknown>>;

/** One memory store per app instance (uploads/plugin.ts: several gateways in one process stay apart). */
export function idempotencyMemory(): Memory {
  return new LRUCache({ max: MEMORY_MAX_ENTRIES, ttl: DONE_TTL_MS });
}

/** Where claims are kept: Redis when configured, else the app's memory; the request's log. */
export type IdempotencyContext = { redis: Redis | null; memory: Memory; log: FastifyBaseLogger };

const memoryStore = (memory: Memory): Store => ({
  async claim<T>(key: string, fingerprint: string): Promise<Claim<T>> {
    const hit = memory.get(key);
    if (hit) return { owner: false, entry: hit as Entry<T> };
    const token = randomUUID();
    memory.set(key, { state: 'pending', fingerprint, token }, { ttl: PENDING_TTL_MS });
    const ours = () => {
      const current = memory.peek(key);
      return current?.state === 'pending' && current.token === token;
    };
    return {
      owner: true,
      async complete(result: T) {
        memory.set(key, { state: 'done', fingerprint, result }, { ttl: DONE_TTL_MS });
      },
      async release() {
        if (ours()) memory.delete(key);
      },
    };
  },
});

const RELEASE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

function redisStore(redis: Redis): Store {
  return {
    async claim<T>(key: string, fingerprint: string): Promise<Claim<T>> {
      const token = randomUUID();
      const pending = JSON.stringify({ state: 'pending', fingerprint, token } satisfies Entry<T>);
      const set = await redis.set(key, pending, 'PX', PENDING_TTL_MS, 'NX');
      if (set !== 'OK') {
        const raw = await redis.get(key);
        return { owner: false, entry: raw === null ? null : (JSON.parse(raw) as Entry<T>) };
      }
      return {
        owner: true,
        async complete(result: T) {
          const done: Entry<T> = { state: 'done', fingerprint, result };
          await redis.set(key, JSON.stringify(done), 'PX', DONE_TTL_MS);
        },
        async release() {
          await redis.eval(RELEASE_IF_OURS, 1, key, pending);
        },
      };
    },
  };
}

/** HMAC of the submission's canonical form, keyed with the gateway's secret (no content is stored). */
export function submissionFingerprint(secret: string, parts: unknown): string {
  return createHmac('sha256', secret).update('wbs-idempotency\n').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Runs `work` once per (namespace, key): the owner runs it and stores the reply; duplicates get the
 * stored reply. Without a key `work` simply runs.
 */
export async function runIdempotent<T>(
  ctx: IdempotencyContext,
  options: { scope: string; namespace: string; key: string | null; fingerprint: string },
  work: () => Promise<T>,
): Promise<T> {
  if (options.key === null) return work();
  const storeKey = `idem:${options.scope}:${options.namespace}:${options.key}`;
  const { redis, memory, log } = ctx;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    let claim: Claim<T>;
    try {
      claim = await (redis ? redisStore(redis) : memoryStore(memory)).claim<T>(storeKey, options.fingerprint);
    } catch (error) {
      log.warn({ redisError: (error as Error)?.name }, 'idempotency store unavailable, using memory');
      claim = await memoryStore(memory).claim<T>(storeKey, options.fingerprint);
    }
    if (claim.owner) {
      let result: T;
      try {
        result = await work();
      } catch (error) {
        await claim.release().catch(() => undefined);
        throw error;
      }
      // The work is done: failing to remember it must not turn the success into an error.
      await claim.complete(result).catch((error: Error) => {
        log.warn({ redisError: error?.name }, 'idempotency result not stored');
      });
      return result;
    }
    const { entry } = claim;
    if (entry && entry.fingerprint !== options.fingerprint) {
      throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.idempotencyMismatch });
    }
    if (entry?.state === 'done') return entry.result;
    if (Date.now() >= deadline) {
      throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.idempotencyConflict });
    }
    await sleep(POLL_MS);
  }
}
