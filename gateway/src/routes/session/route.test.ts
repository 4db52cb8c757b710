import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  browser,
  buildTestApp,
  cookieValue,
  demoAccount,
  demoAccounts,
  legacyCall,
  ORIGIN,
  setCookies,
  signIn,
  signInAs,
  type TestApp,
} from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

const hs256 = (payload: object, secret: string) => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
};

describe('POST /api/v1/session', () => {
  // Initial-password accounts start no session (see the password tests).
  it.each(demoAccounts.filter((a) => !a.initPassword).map((a) => [a.userTypeId, a.username, a] as const))(
    'signs in user type %i (%s)',
    async (type, _username, account) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        headers: { origin: ORIGIN },
        payload: { username: account.username, password: account.password },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.userTypeId).toBe(type);
      expect(body.user.username).toBe(account.username);
      expect(JSON.stringify(body.user)).not.toMatch(/token/i);
      // The device token names nothing but HMACs of usernames (never the legacy token).
      const device = JSON.parse(Buffer.from(body.deviceToken.split('.')[1], 'base64url').toString());
      expect(Object.keys(device).sort()).toEqual(['aud', 'exp', 'iat', 'k']);
      expect(JSON.stringify(device)).not.toContain(account.username);
      const cookie = setCookies(res).find((c) => c.startsWith('wbs_session='))!;
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).toMatch(/Max-Age=\d+/);
      expect(cookie).not.toMatch(/; Secure/); // plain http to localhost
    },
  );

  it('sets Secure when the request is not plain-http localhost', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { host: 'wbs.example.co.id' },
      payload: { username: 'admin', password: demoAccount('admin').password },
    });
    expect(setCookies(res).find((c) => c.startsWith('wbs_session='))).toMatch(/; Secure/);
  });

  it('never puts the legacy token in readable form into the cookie', async () => {
    const cookie = await signInAs(t.app, 2);
    const payload = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
    expect(payload.aud).toBe('wbs-session');
    expect(payload.u.userTypeId).toBe(2);
    expect(JSON.stringify(payload)).not.toMatch(/eyJ/); // no JWT (the legacy token) inside
    expect(JSON.stringify(payload)).not.toContain('@'); // the e-mail is sealed too
  });

  it('answers 400 with the spec messages for an empty form', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/session', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual({
      username: 'Username wajib diisi',
      password: 'Kata sandi wajib diisi',
    });
  });

  it('refuses a wrong password with 422 legacy-error and an audit line', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: 'admin', password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      type: 'https://wbs.example/problems/legacy-error',
      severity: 'error',
      messages: ['Username atau kata sandi salah'],
    });
    expect(cookieValue(res, 'wbs_session')).toBeUndefined();
    expect(t.logs.some((l) => l.audit === true && l.event === 'sign-in-failed')).toBe(true);
  });
});

describe('GET /api/v1/session', () => {
  it('returns the current user', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      userTypeId: 3,
      username: 'holding',
      partnerId: 1,
      email: 'wbs@holding-airminum.example.id',
    });
  });

  it('answers a signed-out visitor with 200 and no user (not an error)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null, passwordChangeRequired: false, secondFactor: null });
  });

  const refused = async (cookieValueText: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/session',
      headers: { cookie: `wbs_session=${cookieValueText}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toBeNull();
    const cleared = setCookies(res).find((c) => c.startsWith('wbs_session='));
    expect(cleared).toMatch(/^wbs_session=;/);
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  };

  it('refuses a tampered cookie and clears it', async () => {
    const cookie = await signInAs(t.app, 2);
    const [head, payload, sig] = cookie.slice('wbs_session='.length).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.u.userTypeId = 1;
    await refused(`${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`);
  });

  it('refuses an expired cookie', async () => {
    const cookie = await signInAs(t.app, 2);
    const claims = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
    await refused(t.app.jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }));
  });

  it('refuses a cookie signed with another secret', async () => {
    const cookie = await signInAs(t.app, 2);
    const claims = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
    await refused(hs256(claims, 'another-secret-another-secret-another-secret'));
  });

  it('refuses an unsigned (alg none) cookie and a password-change ticket used as a session', async () => {
    const cookie = await signInAs(t.app, 2);
    const [, payload] = cookie.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    await refused(none);
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    await refused(t.app.jwt.sign({ ...claims, aud: 'wbs-pwchange' }));
  });
});

describe('DELETE /api/v1/session', () => {
  it('signs out, calls the legacy logout and clears the cookie', async () => {
    const cookie = await signInAs(t.app, 4);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(res.statusCode).toBe(204);
    expect(setCookies(res).find((c) => c.startsWith('wbs_session='))).toMatch(/^wbs_session=;/);
    expect(t.logs.some((l) => l.audit === true && l.event === 'sign-out')).toBe(true);
  });

  it('clears the cookie even when the legacy is down', async () => {
    const cookie = await signInAs(t.app, 4);
    t.legacy.setKnobs({ down: true });
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(res.statusCode).toBe(204);
    expect(setCookies(res).find((c) => c.startsWith('wbs_session='))).toMatch(/^wbs_session=;/);
  });

  it('answers 204 when nobody is signed in', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/session' });
    expect(res.statusCode).toBe(204);
  });
});

describe('session lifetime', () => {
  it('ends no later than the legacy token', async () => {
    const short = await buildTestApp({}, { tokenTtlSeconds: 120 });
    try {
      const res = await short.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: 'admin', password: demoAccount('admin').password },
      });
      const cookie = setCookies(res).find((c) => c.startsWith('wbs_session='))!;
      expect(Number(cookie.match(/Max-Age=(\d+)/)?.[1])).toBeLessThanOrEqual(120);
      const claims = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
      expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 120);
    } finally {
      await short.close();
    }
  });

  it('is bounded by SESSION_MAX_AGE_SECONDS when the legacy token lives longer', async () => {
    // legacy-sim tokens live 8 h; the session may last 1 h only.
    const bounded = await buildTestApp({ SESSION_MAX_AGE_SECONDS: '3600' });
    try {
      const res = await bounded.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: 'admin', password: demoAccount('admin').password },
      });
      const cookie = setCookies(res).find((c) => c.startsWith('wbs_session='))!;
      expect(Number(cookie.match(/Max-Age=(\d+)/)?.[1])).toBeLessThanOrEqual(3600);
      const claims = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
      expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    } finally {
      await bounded.close();
    }
  });
});

describe('legacy 401', () => {
  it('clears the session cookie and answers 401 when the legacy no longer accepts the token', async () => {
    const { username, password } = demoAccount('admin.kahuripan');
    const cookie = await signIn(t.app, username, password);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/analysts', headers: { cookie } });
    expect(before.statusCode).toBe(200);
    // An administrator resets this user's password: the legacy now refuses the user's token
    // (legacy-sim keeps its tokens across reset(), so a "restart" no longer does it).
    const reset = await legacyCall(t, 'PUT', `/User/ResetPassword/${me.json().user.id}`);
    expect(reset.code).toBe(1);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/analysts', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(setCookies(res).find((c) => c.startsWith('wbs_session='))).toMatch(/^wbs_session=;/);
  });
});
