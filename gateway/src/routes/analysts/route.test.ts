import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, legacyCall, signInAs, type TestApp } from '../../test/helpers.ts';

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
      expect.objectContaining({
        id: 1,
        username: 'analis.direksi',
        caseLineId: 1,
        caseLineName: 'Jalur Direksi',
      }),
      expect.objectContaining({ id: 2, username: 'analis.spi', caseLineId: 3, caseLineName: 'Jalur SPI' }),
      expect.objectContaining({
        id: 3,
        username: 'analis.baru',
        caseLineId: 2,
        caseLineName: 'Jalur Dewan Pengawas',
      }),
    ]);
  });

  it("answers 404 for another company's analyst (read and reset)", async () => {
    type Detail = { companyStaffCompanyId: number; companyStaffWbsUser: { wbsUserInitPassword: number } };
    const detail = () =>
      legacyCall<Detail>(t, 'POST', '/CompanyStaffMaster/detail', { companyStaffId: 4, companyId: 0 });
    // Analyst 4 exists, in company 2 (analis.pakuan).
    expect((await detail()).data.companyStaffCompanyId).toBe(2);
    const cookie = await signInAs(t.app, 2);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/analysts/4', headers: { cookie } })).statusCode,
    ).toBe(404);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analysts/4/password-reset',
      headers: browser(cookie),
    });
    expect(reset.statusCode).toBe(404);
    expect((await detail()).data.companyStaffWbsUser.wbsUserInitPassword).toBe(0); // not reset
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
