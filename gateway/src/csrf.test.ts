import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoAccount, ORIGIN, signInAs, type TestApp } from './test/helpers.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signInAs(t.app, 1);
});
afterAll(async () => t.close());

// A new username and e-mail each time: the legacy refuses taken ones.
let created = 0;
const partner = () => {
  created += 1;
  return {
    name: 'Baru',
    username: `baru${created}`,
    email: `baru${created}@wbs.test`,
    phone: '021',
    address: 'Jl.',
    provinceId: 31,
    cityId: 3171,
  };
};
const post = (headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/partners', headers, payload: partner() });

describe('CSRF', () => {
  it('refuses a foreign Origin with 403 csrf and an audit line', async () => {
    const res = await post({ cookie, origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('https://wbs.example/problems/csrf');
    expect(t.logs.some((l) => l.audit === true && l.event === 'csrf-refused')).toBe(true);
  });

  it('refuses Origin: null and a cross-site or same-site Sec-Fetch-Site', async () => {
    expect((await post({ cookie, origin: 'null' })).statusCode).toBe(403);
    expect((await post({ cookie, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post({ cookie, origin: ORIGIN, 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
  });

  it('refuses a session cookie without Origin and Sec-Fetch-Site', async () => {
    expect((await post({ cookie })).statusCode).toBe(403);
  });

  it('accepts the same origin (with or without an explicit default port)', async () => {
    expect((await post({ cookie, origin: ORIGIN })).statusCode).toBe(201);
    expect((await post({ cookie, origin: 'http://localhost:80' })).statusCode).toBe(201);
    expect((await post({ cookie, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
  });

  it('refuses a different port or scheme of the same host', async () => {
    expect((await post({ cookie, origin: 'http://localhost:5173' })).statusCode).toBe(403);
    expect((await post({ cookie, origin: 'https://localhost' })).statusCode).toBe(403);
  });

  it('lets cookieless integrators without Origin through (then the policy decides)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: 'admin', password: demoAccount('admin').password },
    });
    expect(res.statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(401);
  });

  it('does not apply to safe methods', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partners',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(200);
  });
});
