/**
 * Flood limits (docs/adr/0014-flood-limits.md): case submissions and activity-log posts, per client and for
 * everyone,
 * against the in-memory counters and against Redis (a unique namespace per run).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browser, buildTestApp, redisKeys, signInAs, type TestApp } from '../test/helpers.ts';
import { guestAnonymousFields, legacyCaseCount, legacyToken, multipart, pdfBytes } from '../test/uploads.ts';

let pdf: Uint8Array;
beforeAll(async () => {
  pdf = await pdfBytes();
});

describe.each([
  { store: 'memory', redis: false },
  { store: 'redis', redis: true },
])('flood limits ($store)', ({ redis }) => {
  const namespace = `test-flood-${randomUUID()}`;
  let t: TestApp;
  let admin: Redis | null = null;

  const env = (extra: Record<string, string>) => ({
    RATE_LIMIT_NAMESPACE: namespace,
    // This suite is about counting, not legacy latency: a busy CI machine must not turn it into 504s.
    LEGACY_TIMEOUT_MS: '3000',
    ...(redis ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {}),
    ...extra,
  });

  const keys = () => redisKeys(admin, namespace);

  beforeAll(async () => {
    if (redis) admin = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await admin?.connect();
  });
  afterEach(async () => {
    await t?.close();
    const stale = await keys();
    if (stale.length > 0) await admin?.del(...stale);
  });
  afterAll(async () => {
    await admin?.quit();
  });

  /** One complete anonymous guest report from `remoteAddress`; `what` makes the content unique. */
  async function submit(remoteAddress: string, what: string, key?: string) {
    const body = await multipart(guestAnonymousFields({ what }), [
      { field: 'evidence', name: 'bukti.pdf', bytes: pdf },
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      payload: body.payload,
      headers: { ...body.headers, ...(key ? { 'idempotency-key': key } : {}) },
      remoteAddress,
    });
  }

  const guestCases = async () =>
    legacyCaseCount(
      t.legacy.apiUrl,
      await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!'),
      1,
    );

  it('cuts a flood of 25 reports from one client at its limit; another client is unaffected', async () => {
    t = await buildTestApp(
      env({ CASE_SUBMISSIONS_MAX_PER_CLIENT: '10', CASE_SUBMISSIONS_MAX_GLOBAL: '300' }),
    );
    expect(t.app.redis !== null).toBe(redis);
    const before = await guestCases();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof submit>> | undefined;
    for (let i = 0; i < 25; i++) {
      const res = await submit('203.0.113.7', `Banjir laporan nomor ${i}`);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(await guestCases()).toBe(before + 10);
    expect(refused!.json()).toMatchObject({
      type: 'https://wbs.example/problems/rate-limited',
      status: 429,
      detail: expect.stringMatching(
        /^Terlalu banyak pengiriman dalam waktu singkat, silakan coba lagi dalam \d+ menit$/,
      ),
    });
    const retryAfter = Number(refused!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);

    const other = await submit('198.51.100.20', 'Laporan warga lain');
    expect(other.statusCode, other.body).toBe(201);
    // The client's address is a rate-limit key only: never in a log line, only HMACs in Redis.
    expect(JSON.stringify(t.logs)).not.toContain('203.0.113.7');
    if (redis) {
      const stored = await keys();
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.join(' ')).not.toMatch(/203\.0\.113|198\.51/);
    }
  });

  it('does not count an idempotent retry of an admitted submission again (up to 3 retries per key)', async () => {
    t = await buildTestApp(env({ CASE_SUBMISSIONS_MAX_PER_CLIENT: '3' }));
    const key = `retry-${randomUUID()}`;
    const first = await submit('203.0.113.8', 'Laporan dengan kunci', key);
    expect(first.statusCode, first.body).toBe(201);
    for (let i = 0; i < 3; i++) {
      const again = await submit('203.0.113.8', 'Laporan dengan kunci', key);
      expect(again.statusCode).toBe(201);
      expect(again.json().caseNumber).toBe(first.json().caseNumber);
    }
    // The three retries were free: two more reports still fit in the limit of 3.
    expect((await submit('203.0.113.8', 'Laporan kedua')).statusCode).toBe(201);
    expect((await submit('203.0.113.8', 'Laporan ketiga')).statusCode).toBe(201);
    expect((await submit('203.0.113.8', 'Laporan keempat')).statusCode).toBe(429);
    // A fourth retry of the same key is counted like anything else (and is over the limit now).
    expect((await submit('203.0.113.8', 'Laporan dengan kunci', key)).statusCode).toBe(429);
    // A key first seen while refused earns no free pass.
    const refusedKey = `refused-${randomUUID()}`;
    expect((await submit('203.0.113.8', 'Laporan ditolak', refusedKey)).statusCode).toBe(429);
    expect((await submit('203.0.113.8', 'Laporan ditolak', refusedKey)).statusCode).toBe(429);
    // Another client's retry with the same key is that client's own submission.
    expect((await submit('198.51.100.21', 'Laporan dengan kunci', key)).statusCode).not.toBe(429);
  });

  it('has a global ceiling across clients', async () => {
    t = await buildTestApp(env({ CASE_SUBMISSIONS_MAX_PER_CLIENT: '100', CASE_SUBMISSIONS_MAX_GLOBAL: '3' }));
    for (let i = 0; i < 3; i++) {
      expect((await submit(`192.0.2.${i + 1}`, `Laporan ${i}`)).statusCode).toBe(201);
    }
    const res = await submit('192.0.2.99', 'Laporan berikutnya');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits activity-log posts per signed-in user, before the body is read', async () => {
    t = await buildTestApp(env({ CASE_LOGS_MAX_PER_CLIENT: '2' }));
    const admin2 = await signInAs(t.app, 2);
    const partner = await signInAs(t.app, 3);
    const post = async (cookie: string) => {
      const body = await multipart({ statusId: '999', message: 'Catatan' });
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/cases/2/logs',
        payload: body.payload,
        headers: { ...browser(cookie), ...body.headers },
      });
    };
    // Refused for their content, but counted: a flood of bad posts is a flood too.
    expect((await post(admin2)).statusCode).toBe(400);
    expect((await post(admin2)).statusCode).toBe(400);
    const limited = await post(admin2);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another handler (same address) is unaffected: signed-in users are counted by user.
    expect((await post(partner)).statusCode).toBe(400);
  });
});

describe('flood limits with Redis unreachable', () => {
  it('keep limiting with the in-memory counters, without failing a request', async () => {
    const t = await buildTestApp({
      REDIS_URL: 'redis://127.0.0.1:1',
      CASE_LOGS_MAX_PER_CLIENT: '2',
      LEGACY_TIMEOUT_MS: '3000',
    });
    try {
      expect(t.app.redis).not.toBeNull();
      const cookie = await signInAs(t.app, 2);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const body = await multipart({ statusId: '999', message: 'Catatan' });
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/cases/2/logs',
          payload: body.payload,
          headers: { ...browser(cookie), ...body.headers },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 429]);
      expect(t.logs.some((l) => l.msg === 'flood-limit store unavailable, counting in memory')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
