/**
 * Sign-in limits (docs/adr/0008-sign-in-limits-and-device-token.md): only failures count; a growing wait per
 * username + client; a ceiling per username that spaces unknown browsers (never the user's own);
 * a cap per client across usernames; failures answered after the same minimum time. Forgot-password
 * requests per e-mail. Each run uses its own counter namespace; the Redis runs too.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  browser,
  buildTestApp,
  demoAccount,
  signIn as signInCookie,
  type TestApp,
} from '../../test/helpers.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

type Attempt = { username: string; password: string; deviceToken?: string };
const signIn = (t: TestApp, body: Attempt, remoteAddress = '203.0.113.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/session', payload: body, remoteAddress });

describe.each([
  { store: 'memory', redis: false },
  { store: 'redis', redis: true },
])('sign-in limits ($store)', ({ redis }) => {
  const namespace = `test-signin-${randomUUID()}`;
  let t: TestApp;
  let admin: Redis | null = null;
  const env = (extra: Record<string, string> = {}) => ({
    RATE_LIMIT_NAMESPACE: namespace,
    SIGNIN_FAILURE_FLOOR_MS: '0',
    SIGNIN_FREE_FAILURES: '3',
    SIGNIN_DELAY_BASE_SECONDS: '1',
    SIGNIN_MAX_PER_USERNAME: '1000',
    SIGNIN_MAX_PER_CLIENT: '1000',
    ...(redis ? { REDIS_URL } : {}),
    ...extra,
  });

  beforeAll(async () => {
    if (redis) {
      admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await admin.connect();
    }
  });
  afterEach(async () => {
    await t?.close();
    if (!admin) return;
    const keys = await admin.keys(`wbs:gw:${namespace}:*`);
    if (keys.length) await admin.del(...keys);
  });
  afterAll(async () => {
    await admin?.quit();
  });

  it('never counts successful sign-ins (an office behind one address signs in all day)', async () => {
    t = await buildTestApp(
      env({ SIGNIN_FREE_FAILURES: '1', SIGNIN_MAX_PER_CLIENT: '2', SIGNIN_MAX_PER_USERNAME: '2' }),
    );
    const { username, password } = demoAccount('admin');
    for (let i = 0; i < 12; i++) expect((await signIn(t, { username, password })).statusCode).toBe(200);
  });

  it('makes one client wait longer after each failure, without locking the user out elsewhere', async () => {
    t = await buildTestApp(env());
    const { username, password } = demoAccount('admin');
    for (let i = 0; i < 3; i++) {
      expect((await signIn(t, { username, password: `salah-${i}` }, '203.0.113.9')).statusCode).toBe(422);
    }
    // The attacker's client must wait, even with the right password, and is not told it was right.
    const waiting = await signIn(t, { username: ' ADMIN ', password }, '203.0.113.9');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toMatchObject({
      type: 'https://wbs.example/problems/rate-limited',
      detail: expect.stringMatching(/^Terlalu banyak percobaan, silakan coba lagi dalam \d+ detik$/),
    });
    expect(Number(waiting.headers['retry-after'])).toBe(1);
    expect(waiting.headers['set-cookie']).toBeUndefined();
    // The real user, from their own address, signs in at once.
    expect((await signIn(t, { username, password }, '198.51.100.20')).statusCode).toBe(200);
    // After the wait one more attempt; a failure doubles the next wait.
    await sleep(1_100);
    expect((await signIn(t, { username, password: 'salah-lagi' }, '203.0.113.9')).statusCode).toBe(422);
    const longer = await signIn(t, { username, password }, '203.0.113.9');
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBe(2);
    expect(t.logs.some((l) => l.event === 'sign-in-failed' && l.reason === 'rate-limited')).toBe(true);
  });

  it('lets parallel guesses through no faster than one at a time', async () => {
    t = await buildTestApp(env({ SIGNIN_FREE_FAILURES: '2' }));
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signIn(t, { username: 'admin', password: `tebak-${i}` }, '203.0.113.30'),
      ),
    );
    const asked = replies.filter((r) => r.statusCode === 422).length;
    expect(asked).toBeLessThanOrEqual(3); // the 2 free ones and the one that took the slot
    expect(replies.filter((r) => r.statusCode === 429).length).toBe(12 - asked);
  });

  it('spaces a username attacked from many addresses for unknown browsers, never for its own', async () => {
    t = await buildTestApp(env({ SIGNIN_MAX_PER_USERNAME: '5', SIGNIN_CEILING_SPACING_SECONDS: '30' }));
    const { username, password } = demoAccount('holding');
    // The user signed in from this browser before: it holds a device token.
    const first = await signIn(t, { username, password }, '198.51.100.77');
    const deviceToken = first.json().deviceToken as string;
    // A botnet: one failure from each of many addresses, none reaching its own back-off.
    for (let i = 0; i < 5; i++) {
      expect((await signIn(t, { username, password: 'x' }, `192.0.2.${i + 1}`)).statusCode).toBe(422);
    }
    // Over the ceiling: one attempt per spacing for unknown browsers (this one takes the slot) …
    expect((await signIn(t, { username, password: 'x' }, '192.0.2.100')).statusCode).toBe(422);
    const spaced = await signIn(t, { username, password: 'x' }, '192.0.2.101');
    expect(spaced.statusCode).toBe(429);
    expect(Number(spaced.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(spaced.headers['retry-after'])).toBeLessThanOrEqual(30);
    // … while the user's own browser signs in at once, from any address.
    expect((await signIn(t, { username, password, deviceToken }, '198.51.100.78')).statusCode).toBe(200);
    // A forged or foreign device token is no exemption.
    const forged = `${deviceToken.slice(0, -4)}AAAA`;
    expect((await signIn(t, { username, password, deviceToken: forged }, '192.0.2.102')).statusCode).toBe(
      429,
    );
    const other = (await signIn(t, { username: 'admin', password: demoAccount('admin').password })).json();
    expect(
      (await signIn(t, { username, password, deviceToken: other.deviceToken }, '192.0.2.103')).statusCode,
    ).toBe(429);
  });

  it('caps the failures of one client across usernames', async () => {
    t = await buildTestApp(env({ SIGNIN_MAX_PER_CLIENT: '4' }));
    for (let i = 0; i < 4; i++) {
      expect(
        (await signIn(t, { username: `tebakan.${i}`, password: 'x' }, '2001:db8:1:2::10')).statusCode,
      ).toBe(422);
    }
    // Another address of the same IPv6 /64 is the same client.
    const { username, password } = demoAccount('admin');
    expect((await signIn(t, { username, password }, '2001:db8:1:2::99')).statusCode).toBe(429);
    expect((await signIn(t, { username, password }, '2001:db8:1:3::10')).statusCode).toBe(200);
  });

  it('keeps its counters across a restart when Redis is configured (memory: a restart forgets)', async () => {
    t = await buildTestApp(env({ SIGNIN_DELAY_BASE_SECONDS: '60' }));
    for (let i = 0; i < 3; i++)
      await signIn(t, { username: 'admin', password: `salah-${i}` }, '203.0.113.40');
    await t.close();
    t = await buildTestApp(env({ SIGNIN_DELAY_BASE_SECONDS: '60' }));
    const after = await signIn(
      t,
      { username: 'admin', password: demoAccount('admin').password },
      '203.0.113.40',
    );
    expect(after.statusCode).toBe(redis ? 429 : 200);
  });
});

describe('generated usernames and addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_NAMESPACE: `test-signin-gen-${randomUUID()}`,
      SIGNIN_FAILURE_FLOOR_MS: '0',
      SIGNIN_FREE_FAILURES: '2',
      SIGNIN_DELAY_BASE_SECONDS: '60',
    });
  });
  afterAll(async () => t.close());

  // Spellings of one username (case, spaces) are one subject; other usernames are not affected.
  const spellings = (name: string) => [
    name,
    name.toUpperCase(),
    ` ${name}`,
    `${name}  `,
    name.replace(/^./, (c) => c.toUpperCase()),
  ];
  const seeds = Array.from({ length: 12 }, (_, i) => `pengguna.${i}.${randomUUID().slice(0, 6)}`);

  it.each(seeds.map((s, i) => [s, i]))('counts every spelling of %s as one subject', async (name, i) => {
    const client = `198.18.${i}.1`;
    const forms = spellings(String(name));
    expect((await signIn(t, { username: forms[0]!, password: 'x' }, client)).statusCode).toBe(422);
    expect((await signIn(t, { username: forms[1]!, password: 'x' }, client)).statusCode).toBe(422);
    for (const form of forms.slice(2)) {
      expect((await signIn(t, { username: form, password: 'x' }, client)).statusCode).toBe(429);
    }
    // A different username from the same client is still asked.
    expect((await signIn(t, { username: `${name}x`, password: 'x' }, client)).statusCode).toBe(422);
  });
});

describe('equal-time failures', () => {
  const FLOOR_MS = 200;
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_NAMESPACE: `test-signin-time-${randomUUID()}`,
      SIGNIN_FAILURE_FLOOR_MS: String(FLOOR_MS),
      SIGNIN_FREE_FAILURES: '100',
    });
  });
  afterAll(async () => t.close());

  it('answers an unknown username and a wrong password alike, both after the floor', async () => {
    const timed = async (username: string) => {
      const started = performance.now();
      const res = await signIn(t, { username, password: 'salah-sekali' });
      return { res, ms: performance.now() - started };
    };
    for (let i = 0; i < 3; i++) {
      const unknown = await timed(`tidak.ada.${i}`);
      const known = await timed('admin');
      expect(unknown.res.statusCode).toBe(422);
      expect(unknown.res.body).toBe(known.res.body);
      expect(unknown.ms).toBeGreaterThanOrEqual(FLOOR_MS - 5);
      expect(known.ms).toBeGreaterThanOrEqual(FLOOR_MS - 5);
    }
  });
});

describe('current-password check of PUT /password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_NAMESPACE: `test-pw-${randomUUID()}`,
      SIGNIN_FREE_FAILURES: '3',
      SIGNIN_DELAY_BASE_SECONDS: '60',
    });
  });
  afterAll(async () => t.close());

  it('slows guesses of the current password per user, even across sessions', async () => {
    const { username, password } = demoAccount('analis.spi');
    const one = await signInCookie(t.app, username, password);
    const two = await signInCookie(t.app, username, password);
    const change = (cookie: string, oldPassword: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/password',
        headers: browser(cookie),
        payload: { oldPassword, newPassword: 'Lain12345', confirmNewPassword: 'Lain12345' },
      });
    for (let i = 0; i < 3; i++) expect((await change(i % 2 ? one : two, `salah-${i}`)).statusCode).toBe(422);
    const limited = await change(one, password);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('forgot-password requests per e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_NAMESPACE: `test-forgot-${randomUUID()}`,
      FORGOT_MAX_PER_EMAIL: '2',
    });
  });
  afterAll(async () => t.close());

  it('stops sending reset requests for one address after the limit', async () => {
    const forgot = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/password/forgot', payload: { email } });
    expect((await forgot('orang@example.com')).statusCode).toBe(200);
    expect((await forgot('Orang@Example.com ')).statusCode).toBe(200);
    expect((await forgot('orang@example.com')).statusCode).toBe(429);
    expect((await forgot('lain@example.com')).statusCode).toBe(200);
  });
});
