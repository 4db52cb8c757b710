/**
 * Guessing passwords is limited in the gateway (the legacy locks no account): per username and per
 * client for sign-in, per e-mail for forgot-password. Each describe gets its own app and counters.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoAccount, type TestApp } from '../../test/helpers.ts';

const limits = (overrides: Record<string, string>) => ({
  RATE_LIMIT_NAMESPACE: `test-${randomUUID()}`,
  SIGNIN_WINDOW_SECONDS: '900',
  ...overrides,
});

const signIn = (t: TestApp, username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/session', payload: { username, password } });

describe('sign-in attempts per username', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(limits({ SIGNIN_MAX_PER_USERNAME: '3', SIGNIN_MAX_PER_CLIENT: '100' }));
  });
  afterAll(async () => t.close());

  it('refuses the username after the limit, even with the right password, before asking the legacy', async () => {
    const admin = demoAccount('admin');
    for (let i = 0; i < 3; i++) {
      expect((await signIn(t, 'admin', 'salah-sekali')).statusCode).toBe(422);
    }
    const logsBefore = t.logs.length;
    const limited = await signIn(t, ' ADMIN ', admin.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().type).toMatch(/rate-limited$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().detail).toMatch(/silakan coba lagi dalam \d+ menit/);
    expect(limited.headers['set-cookie']).toBeUndefined();
    const lines = t.logs.slice(logsBefore);
    expect(lines.some((l) => l.legacyCall === 'JwtAuth.login')).toBe(false);
    expect(lines.some((l) => l.event === 'sign-in-failed' && l.reason === 'rate-limited')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(admin.password);
  });

  it('leaves other usernames alone', async () => {
    const holding = demoAccount('holding');
    expect((await signIn(t, 'holding', holding.password)).statusCode).toBe(200);
  });
});

describe('sign-in attempts per client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(limits({ SIGNIN_MAX_PER_USERNAME: '100', SIGNIN_MAX_PER_CLIENT: '2' }));
  });
  afterAll(async () => t.close());

  it('refuses a client that tries many usernames', async () => {
    expect((await signIn(t, 'tebakan.satu', 'x')).statusCode).toBe(422);
    expect((await signIn(t, 'tebakan.dua', 'x')).statusCode).toBe(422);
    const holding = demoAccount('holding');
    expect((await signIn(t, 'holding', holding.password)).statusCode).toBe(429);
  });
});

describe('forgot-password requests per e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(limits({ SIGNIN_MAX_PER_USERNAME: '2', SIGNIN_MAX_PER_CLIENT: '100' }));
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
