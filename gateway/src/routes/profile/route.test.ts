import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, cookieValue, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

describe('profile (type 6)', () => {
  it('a saved name is the session name at once (the top bar reads GET /session)', async () => {
    const cookie = await signInAs(t.app, 6);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers: browser(cookie),
      payload: { fullName: '  Pelapor Baru  ', hideIdentity: false },
    });
    expect(saved.statusCode).toBe(200);
    const renewed = cookieValue(saved, 'wbs_session');
    expect(renewed).toBeTruthy();
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/v1/session',
      headers: { cookie: `wbs_session=${renewed}` },
    });
    expect(session.json().user.displayName).toBe('Pelapor Baru');
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile',
      headers: { cookie: `wbs_session=${renewed}` },
    });
    expect(profile.json().fullName).toBe('Pelapor Baru');
  });

  it('a refused save keeps the session as it was', async () => {
    const cookie = await signInAs(t.app, 6);
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers: browser(cookie),
      payload: { fullName: '   ', hideIdentity: false },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ fullName: 'Username wajib diisi' });
    expect(cookieValue(refused, 'wbs_session')).toBeUndefined();
  });
});
