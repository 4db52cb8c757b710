/**
 * `failureLimiter` (attempt-limits.ts), the counter of the tracker's proof: only failures count, each
 * attempt holds a place until its outcome, an attempt finding the places held by running ones waits
 * for them, and failures refuse at once. Against the memory store and against the local Redis.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { redisPlugin } from '../redis.ts';
import { TEST_SECRET } from '../test/helpers.ts';
import { type FailureRule, failureLimiter } from './attempt-limits.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

const request = { ip: '192.0.2.1', log: { info() {} } } as unknown as FastifyRequest;

/** A reply that only collects headers, and the Retry-After it was given. */
function fakeReply() {
  const headers: Record<string, string> = {};
  const reply = {
    header(name: string, value: string) {
      headers[name] = value;
      return reply;
    },
  } as unknown as FastifyReply;
  return { reply, retryAfter: () => Number(headers['retry-after']) };
}

/** Resolves to the limit's refusal (429 `rate-limited`), failing the test if a place was granted. */
async function refusal(promise: Promise<unknown>): Promise<ApiProblem> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ApiProblem);
  expect((outcome as ApiProblem).type).toBe('rate-limited');
  return outcome as ApiProblem;
}

/** Whether the promise is still pending after `ms`. */
async function stillPending(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol('pending');
  const raced = await Promise.race([promise.catch(() => null), sleep(ms, marker)]);
  return raced === marker;
}

describe.each([
  { store: 'memory', redisUrl: undefined },
  { store: 'redis', redisUrl: REDIS_URL },
])('failureLimiter ($store)', ({ redisUrl }) => {
  const namespace = `test-failures-${randomUUID()}`;
  let app: FastifyInstance;
  let admin: Redis | null = null;

  async function limiter(rule: Omit<FailureRule, 'name'>) {
    app = Fastify();
    app.decorate('config', { sessionSecret: TEST_SECRET } as Config);
    await app.register(redisPlugin, { config: { redisUrl, rateLimitNamespace: namespace } });
    await app.ready();
    return failureLimiter(app, { name: `rule-${randomUUID()}`, ...rule });
  }

  beforeAll(async () => {
    if (redisUrl) {
      admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await admin.connect();
    }
  });
  afterEach(async () => {
    await app?.close();
    const keys = (await admin?.keys(`wbs:gw:${namespace}:*`)) ?? [];
    if (keys.length > 0) await admin?.del(...keys);
  });
  afterAll(async () => {
    await admin?.quit();
  });

  it('grants the free places at once and the next one as soon as a place is given back', async () => {
    const limit = await limiter({ free: 3, memorySeconds: 60, holdMs: 5_000 });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await limit.take(request, fakeReply().reply, 'case'));
    const fourth = limit.take(request, fakeReply().reply, 'case');
    expect(await stillPending(fourth, 200)).toBe(true);
    const given = Date.now();
    await held[0]!.release();
    await (await fourth).release();
    expect(Date.now() - given).toBeLessThan(500);
    // Another subject has its own places.
    await (await limit.take(request, fakeReply().reply, 'other')).release();
    if (admin) {
      // Keys are HMACs: the subject is not kept in Redis.
      const keys = await admin.keys(`wbs:gw:${namespace}:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join(' ')).not.toMatch(/case|other/);
    }
  });

  it('keeps a failure’s place: past the free failures the refusal is immediate, with the back-off wait', async () => {
    const limit = await limiter({
      free: 2,
      memorySeconds: 600,
      backoff: { baseSeconds: 30, maxSeconds: 100 },
      holdMs: 5_000,
    });
    for (let i = 0; i < 2; i++) await (await limit.take(request, fakeReply().reply, 'case')).failed();
    const started = Date.now();
    const { reply, retryAfter } = fakeReply();
    await refusal(limit.take(request, reply, 'case'));
    expect(Date.now() - started).toBeLessThan(200);
    expect(retryAfter()).toBe(30);
  });

  it('lets one attempt at a time past the free failures, each failure doubling the wait', async () => {
    const limit = await limiter({
      free: 1,
      memorySeconds: 600,
      backoff: { baseSeconds: 1, maxSeconds: 100 },
      holdMs: 5_000,
    });
    await (await limit.take(request, fakeReply().reply, 'case')).failed();
    await sleep(1_050);
    const first = await limit.take(request, fakeReply().reply, 'case');
    // The second waits for the first's outcome: given back, it would have had the place.
    const second = fakeReply();
    const waiting = limit.take(request, second.reply, 'case');
    expect(await stillPending(waiting, 150)).toBe(true);
    await first.failed();
    await refusal(waiting);
    expect(second.retryAfter()).toBe(2);
  });

  it('gives the place of a success back without resetting the back-off', async () => {
    const limit = await limiter({
      free: 1,
      memorySeconds: 600,
      backoff: { baseSeconds: 1, maxSeconds: 100 },
      holdMs: 5_000,
    });
    await (await limit.take(request, fakeReply().reply, 'case')).failed();
    await sleep(1_050);
    for (let i = 0; i < 5; i++) await (await limit.take(request, fakeReply().reply, 'case')).release();
    await (await limit.take(request, fakeReply().reply, 'case')).failed();
    const { reply, retryAfter } = fakeReply();
    await refusal(limit.take(request, reply, 'case'));
    expect(retryAfter()).toBe(2);
  });

  it('without a back-off refuses until the failures are forgotten', async () => {
    const limit = await limiter({ free: 1, memorySeconds: 1, holdMs: 5_000 });
    await (await limit.take(request, fakeReply().reply, 'client')).failed();
    const { reply, retryAfter } = fakeReply();
    await refusal(limit.take(request, reply, 'client'));
    expect(retryAfter()).toBe(1);
    await sleep(1_100);
    await (await limit.take(request, fakeReply().reply, 'client')).release();
  });

  it('refuses a waiter whose places never come back after three holds, with a short Retry-After', async () => {
    const limit = await limiter({ free: 1, memorySeconds: 60, holdMs: 100 });
    await limit.take(request, fakeReply().reply, 'case');
    const started = Date.now();
    const { reply, retryAfter } = fakeReply();
    await refusal(limit.take(request, reply, 'case'));
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1_500);
    expect(retryAfter()).toBe(1);
  });

  it('gives 40 parallel attempts that all fail exactly the free places', async () => {
    const limit = await limiter({
      free: 4,
      memorySeconds: 600,
      backoff: { baseSeconds: 60, maxSeconds: 100 },
      holdMs: 5_000,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async () => {
        try {
          const place = await limit.take(request, fakeReply().reply, 'case');
          await sleep(20);
          await place.failed();
          return 'failed';
        } catch {
          return 'refused';
        }
      }),
    );
    expect(outcomes.filter((o) => o === 'failed')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(36);
  });
});
