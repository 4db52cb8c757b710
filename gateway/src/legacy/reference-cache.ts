/**
 * A short cache of the legacy's reference lists (statuses, categories, lines, regions, channels,
 * units), so a form or a list page does not cost a legacy call per list every time
 * (docs/adr/0027-reference-list-cache.md).
 *
 * - Keys name the list and, where the list is per company or per parent, that id. Never per-user
 *   or case data: who may read a list is decided before (policy and scope checks run on every
 *   request); the cached value is the same for everyone allowed to read it.
 * - Entries live REFERENCE_CACHE_SECONDS (0: no cache); a failed load is never kept; concurrent
 *   misses share one legacy call. Bounded: the oldest entry leaves first.
 * - The gateway's own writes to a list (categories) invalidate its key in this process; other
 *   workers and replicas see the change when their entry ends (at most the TTL).
 * - Values are frozen: they are shared by requests.
 */
import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 2_000;

export type ReferenceCache = {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  invalidate(key: string): void;
};

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

type Load = () => Promise<unknown>;

export function referenceCache(ttlSeconds: number, now: () => number = Date.now): ReferenceCache {
  // lru-cache: entries live the TTL (a hit does not extend it), concurrent misses share one load (its
  // fetchMethod, given the caller's loader as context), a failed load is not kept, the oldest goes first.
  const entries =
    ttlSeconds === 0
      ? null
      : new LRUCache<string, object, Load>({
          max: MAX_ENTRIES,
          ttl: ttlSeconds * 1000,
          perf: { now },
          // Read the clock at every look-up (an entry's age is compared in whole milliseconds).
          ttlResolution: 0,
          fetchMethod: async (_key, _stale, { context }) => deepFreeze((await context()) as object),
        });
  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!entries) return load();
      return (await entries.fetch(key, { context: load })) as T;
    },
    invalidate(key: string) {
      entries?.delete(key);
    },
  };
}
