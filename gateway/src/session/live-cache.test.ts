/**
 * The live-session memory (docs/adr/0045-live-session-memory.md): Redis's "live" answers are reused for a
 * few seconds, and
 * any ending, on any replica, takes them away at once. Real Redis, two replicas, one namespace each run.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { browser, buildTestApp, type TestApp } from '../test/helpers.ts';
import { as, resetAnalystPassword, who } from '../test/sessions.ts';
import { liveSessionCache, sessionsEndedChannel } from './live-cache.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

const usernameAt = async (t: TestApp, cookie: string) => (await who(t, cookie))?.username ?? null;
const sidOf = (cookie: string) =>
  JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()).sid as string;

/** Counts the registry reads a replica sends to its key store. */
function countLookups(t: TestApp) {
  const spy = vi.spyOn(t.app.keyStore, 'lookup');
  return () => spy.mock.calls.filter(([key]) => key.startsWith('sess:')).length;
}

/** Signs in on `on` and asks `at` until its answer comes from memory (the channel's first echo). */
async function cachedAt(at: TestApp, on: TestApp, name: string) {
  const cookie = await as(on, name);
  const lookups = countLookups(at);
  await vi.waitFor(
    async () => {
      const before = lookups();
      expect(await usernameAt(at, cookie)).toBe(name);
      expect(lookups()).toBe(before);
    },
    { timeout: 3_000, interval: 20 },
  );
  return { cookie, lookups };
}

describe('live-session memory shared by two replicas (Redis)', () => {
  const namespace = `test-live-${randomUUID()}`;
  let a: TestApp;
  let b: TestApp;
  let admin: Redis;
  beforeAll(async () => {
    a = await buildTestApp({ RATE_LIMIT_NAMESPACE: namespace, REDIS_URL });
    b = await buildTestApp({ RATE_LIMIT_NAMESPACE: namespace, REDIS_URL, LEGACY_API_URL: a.legacy.apiUrl });
    admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    const keys = await admin.keys(`wbs:gw:${namespace}:*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it('answers a live session from memory, then refuses it the moment it signs out here', async () => {
    const { cookie, lookups } = await cachedAt(a, a, 'holding');
    // What ops see: the gauge, and one line when the memory came on.
    expect(await a.app.telemetry.registry.metrics()).toMatch(/^wbs_session_memory_trusted 1$/m);
    await vi.waitFor(() =>
      expect(
        a.logs.some((line) => line.msg === 'session memory on: endings are heard from every replica'),
      ).toBe(true),
    );
    const before = lookups();
    expect(await usernameAt(a, cookie)).toBe('holding');
    expect(lookups()).toBe(before);
    await a.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(await usernameAt(a, cookie)).toBeNull();
  });

  it('refuses a session another replica ended as soon as the news arrives, long before the memory expires', async () => {
    const { cookie } = await cachedAt(a, b, 'holding');
    const started = Date.now();
    await b.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    await vi.waitFor(async () => expect(await usernameAt(a, cookie)).toBeNull(), {
      timeout: 1_000,
      interval: 5,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("refuses an analyst on every replica once the company admin resets the analyst's password", async () => {
    const { cookie } = await cachedAt(a, a, 'analis.spi');
    await resetAnalystPassword(b, await as(b, 'admin.kahuripan'));
    await vi.waitFor(async () => expect(await usernameAt(a, cookie)).toBeNull(), {
      timeout: 1_000,
      interval: 5,
    });
  });

  it('forgets what it kept when its subscription is lost: an ending it could not hear is still seen', async () => {
    const { cookie } = await cachedAt(a, a, 'holding');
    const subscribers = async () =>
      ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((line) => line.includes(`name=wbs-sessions-ended-${namespace} `) && / sub=1 /.test(line))
        .map((line) => /id=(\d+)/.exec(line)![1]!);
    // Both replicas lose their subscription (same namespace, same connection name) ...
    const lost = await subscribers();
    expect(lost).toHaveLength(2);
    for (const id of lost) await admin.client('KILL', 'ID', id);
    // ... and have it back, heartbeat included, before the session is ended behind their backs:
    // written to Redis, never announced. Only forgetting at the loss makes the ending seen.
    await vi.waitFor(async () => {
      const now = await subscribers();
      expect(now).toHaveLength(2);
      expect(now.some((id) => lost.includes(id))).toBe(false);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.set(`wbs:gw:${namespace}:sess:${sidOf(cookie)}`, '-', 'PX', 60_000);
    expect(await usernameAt(a, cookie)).toBeNull();
  });
});

describe('liveSessionCache', () => {
  const namespace = `test-live-unit-${randomUUID()}`;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { keyPrefix: 'wbs:gw:', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis.quit();
  });
  const log = { warn: vi.fn() } as never;

  it('keeps nothing read while an ending was heard (a read racing a sign-out cannot revive it)', async () => {
    const cache = await liveSessionCache(redis, namespace, log);
    try {
      await vi.waitFor(() => {
        cache.remember(cache.generation(), 'probe', 1);
        expect(cache.has('probe', 1)).toBe(true);
      });
      const seen = cache.generation();
      await cache.announceEnded(['sid-a']);
      cache.remember(seen, 'sid-a', 7);
      expect(cache.has('sid-a', 7)).toBe(false);
      cache.remember(cache.generation(), 'sid-a', 7);
      expect(cache.has('sid-a', 7)).toBe(true);
      // Another user's id with the same session id is not this answer.
      expect(cache.has('sid-a', 8)).toBe(false);
    } finally {
      await cache.close();
    }
  });

  it('trusts nothing until its own heartbeat came back, and nothing after close', async () => {
    const silent = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    silent.on('error', () => undefined);
    const unreachable = await liveSessionCache(silent, namespace, log);
    unreachable.remember(unreachable.generation(), 'sid-b', 1);
    expect(unreachable.has('sid-b', 1)).toBe(false);
    await unreachable.close();
    silent.disconnect();

    const cache = await liveSessionCache(redis, namespace, log);
    await vi.waitFor(() => {
      cache.remember(cache.generation(), 'sid-c', 1);
      expect(cache.has('sid-c', 1)).toBe(true);
    });
    await cache.close();
    expect(cache.has('sid-c', 1)).toBe(false);
  });

  it("keeps nothing without Redis (the registry is this process's memory already)", async () => {
    const alone = await buildTestApp({ RATE_LIMIT_NAMESPACE: `${namespace}-alone` });
    try {
      await as(alone, 'holding');
      expect(await alone.app.telemetry.registry.metrics()).toMatch(/^wbs_session_memory_trusted 0$/m);
    } finally {
      await alone.close();
    }
  });

  it('names its channel below the gateway prefix and the namespace', () => {
    expect(sessionsEndedChannel('ns')).toBe('wbs:gw:ns:sessions-ended');
  });
});
