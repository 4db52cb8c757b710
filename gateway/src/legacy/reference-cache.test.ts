import { describe, expect, it } from 'vitest';
import { referenceCache } from './reference-cache.ts';

describe('referenceCache', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('reuses a list for its TTL, then loads it again', async () => {
    const time = clock();
    const cache = referenceCache(60, time.now);
    let loads = 0;
    const load = async () => [{ id: ++loads }];
    expect(await cache.get('k', load)).toEqual([{ id: 1 }]);
    time.advance(59_999);
    expect(await cache.get('k', load)).toEqual([{ id: 1 }]);
    time.advance(2);
    expect(await cache.get('k', load)).toEqual([{ id: 2 }]);
    expect(loads).toBe(2);
  });

  it('keeps keys apart (per company) and drops one on invalidate', async () => {
    const cache = referenceCache(60);
    let loads = 0;
    const load = (company: number) => async () => ({ company, load: ++loads });
    expect(await cache.get('cat:1', load(1))).toEqual({ company: 1, load: 1 });
    expect(await cache.get('cat:2', load(2))).toEqual({ company: 2, load: 2 });
    cache.invalidate('cat:1');
    expect(await cache.get('cat:1', load(1))).toEqual({ company: 1, load: 3 });
    expect(await cache.get('cat:2', load(2))).toEqual({ company: 2, load: 2 });
  });

  it('shares one load between concurrent misses and never keeps a failure', async () => {
    const cache = referenceCache(60);
    let loads = 0;
    const failing = async () => {
      loads++;
      throw new Error('legacy down');
    };
    const results = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('hands out frozen values (shared by requests) and caches nothing with a TTL of 0', async () => {
    const cache = referenceCache(60);
    const list = await cache.get('k', async () => [{ id: 1 }]);
    expect(Object.isFrozen(list) && Object.isFrozen(list[0])).toBe(true);
    const off = referenceCache(0);
    let loads = 0;
    await off.get('k', async () => ++loads);
    await off.get('k', async () => ++loads);
    expect(loads).toBe(2);
  });
});
