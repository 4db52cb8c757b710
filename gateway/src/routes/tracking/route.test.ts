import { randomUUID } from 'node:crypto';
import { demoCases, SEED_STATUS } from '@wbs/legacy-sim';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signInAs, type TestApp } from '../../test/helpers.ts';

const FLOOR_MS = 150;
const [baru, investigasi, ditutup] = demoCases;
const PASSWORD = investigasi.password;

type Track = { caseNumber?: unknown; password?: unknown };

function track(t: TestApp, payload: Track, remoteAddress = '198.51.100.7', url = '/api/v1/tracking') {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress,
    headers: { origin: 'http://localhost' },
  });
}

/** How many replies had each status, e.g. `{ 404: 5, 429: 45 }`. */
const statusCounts = (replies: { statusCode: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { statusCode } of replies) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(t: TestApp, payload: Track, remoteAddress?: string) {
  const started = performance.now();
  const res = await track(t, payload, remoteAddress);
  return { res, ms: performance.now() - started };
}

describe('POST /tracking (reply, masking, timing, logs)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ TRACKING_FAILURE_FLOOR_MS: String(FLOOR_MS), TRACKING_MAX_PER_NUMBER: '50' });
  });
  afterAll(async () => t.close());

  it('answers the case detail with every log note masked in the gateway', async () => {
    const cookie = await signInAs(t.app, 2);
    const full = await t.app.inject({ method: 'GET', url: '/api/v1/cases/2', headers: browser(cookie) });
    const notes = full.json().logs as { message: string; createdBy: string; attachmentName: string | null }[];
    expect(notes.length).toBeGreaterThan(0);

    const res = await track(t, { caseNumber: investigasi.caseNumber, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const detail = res.json();
    expect(detail).toMatchObject({
      id: 2,
      number: 'WBS-10000002',
      status: { id: SEED_STATUS.INVESTIGATION, name: 'Investigasi' },
      noteHidden: true,
      reporter: { anonymous: true, name: null },
    });
    expect(detail.logs).toHaveLength(notes.length);
    for (const log of detail.logs) {
      expect(log).toMatchObject({
        message: '**********',
        noteHidden: true,
        createdBy: null,
        attachmentName: null,
      });
      expect(log.statusName).toEqual(expect.any(String));
    }
    for (const note of notes) {
      expect(res.body).not.toContain(note.message);
      expect(res.body).not.toContain(note.createdBy);
      if (note.attachmentName) expect(res.body).not.toContain(note.attachmentName);
    }
    expect(res.body).not.toContain('Status diperbarui');
    // The report's own attachments: names only (a tracker has no download).
    expect(detail.attachments.length).toBeGreaterThan(0);
    for (const a of detail.attachments) expect(a.name).toEqual(expect.any(String));
  });

  it('accepts the number in any letter case and with spaces around it', async () => {
    const res = await track(t, {
      caseNumber: `  ${baru.caseNumber.toLowerCase()} `,
      password: baru.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().number).toBe(baru.caseNumber);
  });

  it('gives an unknown number and a wrong password the same reply, both after the floor', async () => {
    const unknown = await timed(t, { caseNumber: 'WBS-99999999', password: PASSWORD });
    const wrong = await timed(t, { caseNumber: ditutup.caseNumber, password: 'Salah#2026!' });
    for (const { res, ms } of [unknown, wrong]) {
      expect(res.statusCode).toBe(404);
      expect(ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
    expect(wrong.res.body).toBe(unknown.res.body);
    expect(wrong.res.headers['content-type']).toBe(unknown.res.headers['content-type']);
    expect(unknown.res.json()).toMatchObject({
      status: 404,
      severity: 'warning',
      messages: ['Nomor Pengaduan atau kata sandi tidak sesuai'],
    });
  });

  it('requires the number and the password (Indonesian field messages)', async () => {
    const res = await track(t, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      caseNumber: 'Nomor Pengaduan wajib diisi',
      password: 'Kata sandi wajib diisi',
    });
  });

  it('never sends a signed-in caller’s token along (a tracker is a tracker)', async () => {
    const cookie = await signInAs(t.app, 6);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking',
      headers: browser(cookie),
      payload: { caseNumber: ditutup.caseNumber, password: ditutup.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().noteHidden).toBe(true);
  });

  it('keeps the number, the password and the client address out of every log line', async () => {
    const address = '203.0.113.77';
    await track(t, { caseNumber: investigasi.caseNumber, password: PASSWORD }, address);
    await track(t, { caseNumber: investigasi.caseNumber, password: 'Tebakan#Salah1' }, address);
    await track(t, { caseNumber: 'WBS-87654321', password: 'Tebakan#Salah2' }, address);
    const text = JSON.stringify(t.logs);
    expect(t.logs.some((l) => l.event === 'tracking' && l.outcome === 'found')).toBe(true);
    expect(t.logs.some((l) => l.event === 'tracking' && l.outcome === 'not-found')).toBe(true);
    for (const secret of [
      investigasi.caseNumber,
      'WBS-87654321',
      PASSWORD,
      'Tebakan#Salah1',
      'Tebakan#Salah2',
      address,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

/** The attempt limits, against the in-memory counters and against Redis. */
describe.each([
  { store: 'memory', redis: false },
  { store: 'redis', redis: true },
])('POST /tracking attempt limits ($store)', ({ redis }) => {
  const namespace = `test-tracking-${randomUUID()}`;
  let t: TestApp;
  let admin: Redis | null = null;

  const env = (extra: Record<string, string>) => ({
    TRACKING_FAILURE_FLOOR_MS: '0',
    RATE_LIMIT_NAMESPACE: namespace,
    ...(redis ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {}),
    ...extra,
  });

  /** Keys of this run, without the client's key prefix. */
  async function keys(): Promise<string[]> {
    if (!admin) return [];
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await admin.scan(cursor, 'MATCH', `wbs:gw:${namespace}:*`, 'COUNT', 500);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found;
  }

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

  it('limits attempts per complaint number, whoever the client is', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '3', TRACKING_MAX_PER_CLIENT: '100' }));
    expect(t.app.redis !== null).toBe(redis);
    for (let i = 0; i < 3; i++) {
      const res = await track(
        t,
        { caseNumber: ditutup.caseNumber, password: `Salah#${i}` },
        `198.51.100.${i + 1}`,
      );
      expect(res.statusCode).toBe(404);
    }
    // Even the right password from a fresh client: the number is locked for the window.
    const locked = await track(
      t,
      { caseNumber: ditutup.caseNumber.toLowerCase(), password: ditutup.password },
      '198.51.100.50',
    );
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      type: 'https://wbs.example/problems/rate-limited',
      status: 429,
      detail: expect.stringMatching(/^Terlalu banyak percobaan, silakan coba lagi dalam \d+ menit$/),
    });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Another number is still open.
    const other = await track(t, { caseNumber: baru.caseNumber, password: baru.password }, '198.51.100.50');
    expect(other.statusCode).toBe(200);
    expect(t.logs.some((l) => l.event === 'tracking' && l.outcome === 'rate-limited')).toBe(true);
    if (redis) {
      const stored = await keys();
      expect(stored.length).toBeGreaterThan(0);
      // Keys are HMACs: no complaint number and no address is kept in Redis.
      expect(stored.join(' ')).not.toMatch(/WBS-|198\.51/i);
    }
  });

  it('limits attempts per client across complaint numbers', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '100', TRACKING_MAX_PER_CLIENT: '4' }));
    for (let i = 0; i < 4; i++) {
      const res = await track(t, { caseNumber: `WBS-1234567${i}`, password: 'Salah#2026!' }, '192.0.2.10');
      expect(res.statusCode).toBe(404);
    }
    const limited = await track(t, { caseNumber: baru.caseNumber, password: baru.password }, '192.0.2.10');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const otherClient = await track(
      t,
      { caseNumber: baru.caseNumber, password: baru.password },
      '192.0.2.11',
    );
    expect(otherClient.statusCode).toBe(200);
  });

  it('makes each further guess at one number wait longer (the back-off grows)', async () => {
    t = await buildTestApp(
      env({
        TRACKING_MAX_PER_NUMBER: '2',
        TRACKING_MAX_PER_CLIENT: '100',
        TRACKING_BACKOFF_BASE_SECONDS: '1',
      }),
    );
    const guess = (i: number) =>
      track(t, { caseNumber: ditutup.caseNumber, password: `Salah#${i}` }, `198.51.100.${60 + i}`);
    expect((await guess(1)).statusCode).toBe(404);
    expect((await guess(2)).statusCode).toBe(404);
    const first = await guess(3);
    expect(first.statusCode).toBe(429);
    expect(Number(first.headers['retry-after'])).toBe(1);
    expect(first.json().detail).toMatch(/dalam 1 detik$/);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await guess(4)).statusCode).toBe(404);
    const second = await guess(5);
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe(2);
    // The owner's successful lookup after the wait does not reset the guesser's back-off: the next
    // guess is the next step of it (admitted, its wait had passed), and the one after waits 4 s.
    await sleep(2_100);
    expect((await track(t, { caseNumber: ditutup.caseNumber, password: ditutup.password })).statusCode).toBe(
      200,
    );
    expect((await guess(6)).statusCode).toBe(404);
    const third = await guess(7);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBe(4);
  });

  it('never refuses parallel lookups with the right password, nor counts them as attempts', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '5', TRACKING_MAX_PER_CLIENT: '20' }));
    const proof = { caseNumber: ditutup.caseNumber, password: ditutup.password };
    // A legacy that takes its time: every lookup of the burst is still running when the next starts.
    t.legacy.setKnobs({ latencyMs: 50 });
    // The tracked view asks for the case and its identity history at once, and a reporter may open it
    // in several tabs: more lookups at once than the number allows failures.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        track(t, proof, '198.51.100.90', i % 2 ? '/api/v1/tracking/identity-access' : '/api/v1/tracking'),
      ),
    );
    expect(statusCounts(burst)).toEqual({ 200: 12 });
    t.legacy.setKnobs({});
    // More right answers than the client's allowance, one after the other: none is counted.
    for (let i = 0; i < 25; i++) expect((await track(t, proof, '198.51.100.90')).statusCode).toBe(200);
    // …while the allowances for failures are untouched: five wrong guesses are still answered.
    for (let i = 0; i < 5; i++) {
      expect((await track(t, { ...proof, password: `Salah#${i}` }, '198.51.100.90')).statusCode).toBe(404);
    }
    expect((await track(t, { ...proof, password: 'Salah#5' }, '198.51.100.90')).statusCode).toBe(429);
  });

  it('lets parallel right answers through after earlier failures and once a back-off wait has passed', async () => {
    t = await buildTestApp(
      env({
        TRACKING_MAX_PER_NUMBER: '3',
        TRACKING_MAX_PER_CLIENT: '100',
        TRACKING_BACKOFF_BASE_SECONDS: '1',
      }),
    );
    const proof = { caseNumber: ditutup.caseNumber, password: ditutup.password };
    const parallel = (n: number) => Promise.all(Array.from({ length: n }, () => track(t, proof)));
    t.legacy.setKnobs({ latencyMs: 30 });
    // Two failures leave one place: eight right answers take turns in it, none is refused.
    for (let i = 0; i < 2; i++) {
      expect((await track(t, { ...proof, password: `Salah#${i}` })).statusCode).toBe(404);
    }
    expect(statusCounts(await parallel(8))).toEqual({ 200: 8 });
    // The third failure starts the back-off: the owner waits like anyone (a guesser's doing)…
    expect((await track(t, { ...proof, password: 'Salah#2' })).statusCode).toBe(404);
    expect((await track(t, proof)).statusCode).toBe(429);
    // …and once the wait has passed, parallel right answers take turns again instead of refusing each other.
    await sleep(1_100);
    expect(statusCounts(await parallel(6))).toEqual({ 200: 6 });
  });

  it('gives a burst of 50 parallel wrong guesses at one number no more than its free failures', async () => {
    t = await buildTestApp(
      env({ TRACKING_MAX_PER_NUMBER: '5', TRACKING_MAX_PER_CLIENT: '1000', TRACKING_FAILURE_FLOOR_MS: '50' }),
    );
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        track(t, { caseNumber: ditutup.caseNumber, password: `Tebakan#${i}` }, `203.0.113.${i + 1}`),
      ),
    );
    expect(statusCounts(burst)).toEqual({ 404: 5, 429: 45 });
    for (const refused of burst.filter((r) => r.statusCode === 429)) {
      // The wait of the back-off (60 s from the fifth failure), not "try again at once".
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    }
    // The number is under back-off for everyone, the owner included.
    expect((await track(t, { caseNumber: ditutup.caseNumber, password: ditutup.password })).statusCode).toBe(
      429,
    );
  });

  it('gives right answers mixed into a burst of wrong guesses no way to slip more guesses past', async () => {
    t = await buildTestApp(
      env({ TRACKING_MAX_PER_NUMBER: '5', TRACKING_MAX_PER_CLIENT: '1000', TRACKING_FAILURE_FLOOR_MS: '20' }),
    );
    const right = { caseNumber: ditutup.caseNumber, password: ditutup.password };
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? track(t, right, `203.0.113.${i + 1}`).then((res) => ({ wrong: false, res }))
        : track(t, { ...right, password: `Tebakan#${i}` }, `203.0.113.${i + 1}`).then((res) => ({
            wrong: true,
            res,
          })),
    );
    const replies = await Promise.all(calls);
    const wrong = replies.filter((r) => r.wrong).map((r) => r.res);
    // Every place a right answer gave back went to another lookup, yet no more than five guesses
    // reached the legacy; the other wrong ones are refused.
    expect(statusCounts(wrong)).toEqual({ 404: 5, 429: 15 });
    for (const { res } of replies.filter((r) => !r.wrong)) expect([200, 429]).toContain(res.statusCode);
  });

  it('gives a burst of parallel wrong guesses from one client no more than its failures per window', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '100', TRACKING_MAX_PER_CLIENT: '4' }));
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        track(t, { caseNumber: `WBS-2${String(i).padStart(7, '0')}`, password: 'Salah#2026!' }, '192.0.2.30'),
      ),
    );
    expect(statusCounts(burst)).toEqual({ 404: 4, 429: 26 });
    for (const refused of burst.filter((r) => r.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    }
    expect(
      (await track(t, { caseNumber: baru.caseNumber, password: baru.password }, '192.0.2.30')).statusCode,
    ).toBe(429);
    expect(
      (await track(t, { caseNumber: baru.caseNumber, password: baru.password }, '192.0.2.31')).statusCode,
    ).toBe(200);
  });

  it('gives a legacy outage back: nobody’s failure, nobody’s place', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '1', TRACKING_MAX_PER_CLIENT: '1' }));
    const proof = { caseNumber: ditutup.caseNumber, password: 'Salah#1' };
    t.legacy.setKnobs({ down: true });
    for (let i = 0; i < 3; i++) expect((await track(t, proof, '192.0.2.40')).statusCode).toBe(503);
    t.legacy.setKnobs({});
    expect((await track(t, { ...proof, password: ditutup.password }, '192.0.2.40')).statusCode).toBe(200);
  });

  it('keeps the back-off across a gateway restart with Redis (memory: a restart forgets it)', async () => {
    const settings = env({ TRACKING_MAX_PER_NUMBER: '1', TRACKING_MAX_PER_CLIENT: '100' });
    t = await buildTestApp(settings);
    expect((await track(t, { caseNumber: ditutup.caseNumber, password: 'Salah#1' })).statusCode).toBe(404);
    await t.close();
    t = await buildTestApp(settings);
    const after = await track(t, { caseNumber: ditutup.caseNumber, password: ditutup.password });
    expect(after.statusCode).toBe(redis ? 429 : 200);
  });

  it('counts nothing for a request that fails validation', async () => {
    t = await buildTestApp(env({ TRACKING_MAX_PER_NUMBER: '1', TRACKING_MAX_PER_CLIENT: '1' }));
    for (let i = 0; i < 3; i++)
      expect((await track(t, { caseNumber: baru.caseNumber }, '192.0.2.20')).statusCode).toBe(400);
    const res = await track(t, { caseNumber: baru.caseNumber, password: baru.password }, '192.0.2.20');
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /tracking with Redis unreachable', () => {
  it('keeps limiting with the in-memory counters', async () => {
    const t = await buildTestApp({
      REDIS_URL: 'redis://127.0.0.1:1',
      TRACKING_FAILURE_FLOOR_MS: '0',
      TRACKING_MAX_PER_NUMBER: '2',
    });
    try {
      expect(t.app.redis).not.toBeNull();
      for (let i = 0; i < 2; i++) {
        expect((await track(t, { caseNumber: ditutup.caseNumber, password: `Salah#${i}` })).statusCode).toBe(
          404,
        );
      }
      expect(
        (await track(t, { caseNumber: ditutup.caseNumber, password: ditutup.password })).statusCode,
      ).toBe(429);
      expect(t.logs.some((l) => l.msg === 'rate-limit store unavailable, counting in memory')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
