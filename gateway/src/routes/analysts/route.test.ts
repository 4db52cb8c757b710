import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

describe('analysts (type 2, own company only)', () => {
  it('lists the analysts of the own company', async () => {
    const cookie = await signInAs(t.app, 2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/analysts', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({ id: 1, username: 'analyst', caseLineId: 1, caseLineName: 'Jalur 1' }),
    ]);
  });

  it("answers 404 for another company's analyst (read and reset)", async () => {
    const cookie = await signInAs(t.app, 2);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/analysts/2', headers: { cookie } })).statusCode,
    ).toBe(404);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analysts/2/password-reset',
      headers: browser(cookie),
    });
    expect(reset.statusCode).toBe(404);
  });

  it('a partner (type 3) may reset staff passwords but has no company: 404 on analysts', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analysts/1/password-reset',
      headers: browser(cookie),
    });
    expect(res.statusCode).toBe(404);
  });

  it('validates the analyst form (case line required)', async () => {
    const cookie = await signInAs(t.app, 2);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analysts',
      headers: browser(cookie),
      payload: { fullName: 'A', username: 'a', email: 'a@b.co', caseLineId: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ caseLineId: 'Jalur Pengaduan wajib diisi' });
  });
});
