import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

describe('partner staff (type 3, own partner only)', () => {
  it('lists the staff of the own partner, paged, with the initial password only while initial', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partner-staff?page=1&pageSize=10',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 10, total: 2 });
    expect(body.items.map((s: { username: string }) => s.username).sort()).toEqual([
      'newstaff',
      'partnerstaff',
    ]);
    const fresh = body.items.find((s: { username: string }) => s.username === 'newstaff');
    expect(fresh).toMatchObject({ initialPassword: true, password: 'Initial123' });
    const used = body.items.find((s: { username: string }) => s.username === 'partnerstaff');
    expect(used).toMatchObject({ initialPassword: false, password: null });
  });

  it('reads a staff member of the own partner', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff/1', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 1, username: 'partnerstaff', roleId: 2 });
  });

  it("answers 404 (and audits) for another partner's staff, for read, delete and password reset", async () => {
    const cookie = await signInAs(t.app, 3);
    const read = await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff/3', headers: { cookie } });
    expect(read.statusCode).toBe(404);
    expect(read.json().type).toBe('https://wbs.example/problems/not-found');
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/partner-staff/3',
      headers: browser(cookie),
    });
    expect(del.statusCode).toBe(404);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner-staff/3/password-reset',
      headers: browser(cookie),
    });
    expect(reset.statusCode).toBe(404);
    expect(
      t.logs.filter((l) => l.audit === true && l.event === 'scope-denied').length,
    ).toBeGreaterThanOrEqual(3);
    // Still there: the other partner's staff member was not deleted.
    const admin = await signInAs(t.app, 3);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff/1', headers: { cookie: admin } }))
        .statusCode,
    ).toBe(200);
  });

  it('resets the password of an own staff member', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner-staff/1/password-reset',
      headers: browser(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Password berhasil direset');
    expect(t.logs.some((l) => l.audit === true && l.event === 'password-reset')).toBe(true);
  });

  it('deletes an own staff member', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/partner-staff/2',
      headers: browser(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff/2', headers: { cookie } })).statusCode,
    ).toBe(404);
  });

  it('validates the staff form with the spec messages', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner-staff',
      headers: browser(cookie),
      payload: { fullName: ' ', username: '', email: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      fullName: 'Nama Lengkap wajib diisi',
      username: 'username wajib diisi',
      email: 'Email tidak valid',
    });
  });

  it('refuses other user types: 403 forbidden', async () => {
    const cookie = await signInAs(t.app, 2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff', headers: { cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('https://wbs.example/problems/forbidden');
  });
});
