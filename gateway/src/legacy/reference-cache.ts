/**
 * A short cache of the legacy's reference lists (statuses, categories, lines, regions, channels,
 * units), so a form or a list page does not cost a legacy call per list every time (decision 115).
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

const MAX_ENTRIES = 2_000;

type Entry = { value: Promise<unknown>; until: number };

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

export function referenceCache(ttlSeconds: number, now: () => number = Date.now): ReferenceCache {
  const entries = new Map<string, Entry>();
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (ttlSeconds === 0) return load();
      const hit = entries.get(key);
      if (hit && hit.until > now()) return hit.value as Promise<T>;
      const value = load().then(deepFreeze);
      const entry = { value, until: now() + ttlSeconds * 1000 };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    invalidate(key: string) {
      entries.delete(key);
    },
  };
}
