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
  type TestApp,
} from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

describe('forced password change', () => {
  it('starts no session for an initial password, then changes it and signs in', async () => {
    const fresh = demoAccounts.find((a) => a.initPassword);
    if (!fresh) throw new Error('legacy-sim seeds no initial-password account');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: fresh.username, password: fresh.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ passwordChangeRequired: true });
    expect(cookieValue(login, 'wbs_session')).toBeUndefined();
    const ticketCookie = setCookies(login).find((c) => c.startsWith('wbs_pwchange='))!;
    expect(ticketCookie).toMatch(/; Path=\/api\/v1;/);
    expect(ticketCookie).toMatch(/; HttpOnly/);
    expect(ticketCookie).toMatch(/; SameSite=Strict/);
    expect(Number(ticketCookie.match(/Max-Age=(\d+)/)?.[1])).toBeLessThanOrEqual(600);
    const ticket = `wbs_pwchange=${cookieValue(login, 'wbs_pwchange')}`;

    // The ticket is not a session: nothing else accepts it; GET /session only says a change is pending.
    const who = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: ticket } });
    expect(who.statusCode).toBe(200);
    expect(who.json()).toEqual({ user: null, passwordChangeRequired: true, secondFactor: null });
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partner-staff',
      headers: { cookie: ticket },
    });
    expect(other.statusCode).toBe(401);

    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      headers: browser(ticket),
      payload: { oldPassword: fresh.password, newPassword: 'Baru12345', confirmNewPassword: 'Baru12345' },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json()).toMatchObject({
      message: 'Kata sandi berhasil diubah',
      user: { username: fresh.username },
    });
    expect(cookieValue(change, 'wbs_session')).toBeTruthy();
    expect(setCookies(change).find((c) => c.startsWith('wbs_pwchange='))).toMatch(/^wbs_pwchange=;/);

    const session = `wbs_session=${cookieValue(change, 'wbs_session')}`;
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: session } });
    expect(me.json().user.username).toBe(fresh.username);

    // The ticket was good for one change: replayed within its lifetime it is refused.
    const replay = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      headers: browser(ticket),
      payload: { oldPassword: 'Baru12345', newPassword: 'Lagi12345', confirmNewPassword: 'Lagi12345' },
    });
    expect(replay.statusCode).toBe(401);
    await expect(signIn(t.app, fresh.username, 'Baru12345')).resolves.toMatch(/^wbs_session=/);
  });

  it('keeps the ticket after a wrong current password, and two parallel changes use it once', async () => {
    const fresh = demoAccounts.find((a) => a.initPassword)!;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: fresh.username, password: fresh.password },
    });
    const ticket = `wbs_pwchange=${cookieValue(login, 'wbs_pwchange')}`;
    const change = (oldPassword: string, next: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/password',
        headers: browser(ticket),
        payload: { oldPassword, newPassword: next, confirmNewPassword: next },
      });
    expect((await change('bukan-sandi-awal', 'Baru12345')).statusCode).toBe(422);
    const both = await Promise.all([
      change(fresh.password, 'Satu12345'),
      change(fresh.password, 'Dua123456'),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('validates the change form with the spec messages', async () => {
    const { username, password } = demoAccount('admin.kahuripan');
    const cookie = await signIn(t.app, username, password);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      headers: browser(cookie),
      payload: { oldPassword: '', newPassword: 'short', confirmNewPassword: 'different' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      oldPassword: 'Kata sandi lama wajib diisi',
      newPassword: 'Kata sandi baru minimal 8 karakter.',
      confirmNewPassword: 'Konfirmasi kata sandi baru tidak sama',
    });
  });

  it('changes the password of a signed-in user', async () => {
    const { username, password } = demoAccount('admin.kahuripan');
    const cookie = await signIn(t.app, username, password);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      headers: browser(cookie),
      payload: { oldPassword: password, newPassword: 'Lain12345', confirmNewPassword: 'Lain12345' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe(username);
    expect(t.logs.some((l) => l.audit === true && l.event === 'password-changed')).toBe(true);
    await expect(signIn(t.app, username, 'Lain12345')).resolves.toMatch(/^wbs_session=/);
  });

  it("ends the user's other sessions and keeps the one that changed it", async () => {
    const { username, password } = demoAccount('admin.kahuripan');
    const here = await signIn(t.app, username, password);
    const elsewhere = await signIn(t.app, username, password);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      headers: browser(here),
      payload: { oldPassword: password, newPassword: 'Lain12345', confirmNewPassword: 'Lain12345' },
    });
    expect(res.statusCode).toBe(200);
    const who = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } })).json().user;
    expect(await who(elsewhere)).toBeNull();
    expect((await who(here))?.username).toBe(username);
    const data = await t.app.inject({
      method: 'GET',
      url: '/api/v1/analysts',
      headers: { cookie: elsewhere },
    });
    expect(data.statusCode).toBe(401);
  });

  it('answers 401 without a session or ticket', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/password',
      payload: { oldPassword: 'x', newPassword: 'Lain12345', confirmNewPassword: 'Lain12345' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/v1/password/forgot', () => {
  it('gives the same reply whether or not the e-mail is registered', async () => {
    const ask = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/password/forgot',
        headers: { origin: ORIGIN },
        payload: { email },
      });
    // The legacy itself tells them apart (code 1 vs 0 'Email tidak terdaftar').
    const legacyAsk = async (email: string) =>
      (await legacyCall(t, 'PUT', '/User/ForgotPassword', { email })).code;
    expect(await legacyAsk('admin@wbs.example.id')).toBe(1);
    expect(await legacyAsk('nobody@wbs.test')).toBe(0);
    const known = await ask('admin@wbs.example.id');
    const unknown = await ask('nobody@wbs.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(unknown.body).not.toMatch(/tidak terdaftar/i);
  });

  it('validates the e-mail', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password/forgot',
      payload: { email: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ email: 'Email tidak valid' });
  });
});
