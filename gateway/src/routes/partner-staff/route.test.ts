import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  browser,
  buildTestApp,
  demoAccount,
  type LegacyEnvelope,
  legacyCall,
  signInAs,
  type TestApp,
} from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

type LegacyStaff = {
  partnerStaffId: number;
  partnerStaffPartnerId: number;
  partnerStaffWbsUser: { wbsUserName: string; wbsUserPassword: string | null; wbsUserInitPassword: number };
};

/** Adds a staff member (initial password in `message[1]`) straight in legacy-sim. */
const addStaff = (partnerId: number, username: string) =>
  legacyCall<LegacyStaff>(t, 'POST', '/PartnerStaffMaster', {
    fullName: `Staff ${username}`,
    username,
    email: `${username}@wbs.example.id`,
    roleId: 2,
    partnerId,
  });

const staffDetail = (partnerStaffId: number) =>
  legacyCall<LegacyStaff>(t, 'POST', '/PartnerStaffMaster/Detail', { partnerStaffId, partnerId: 0 });

/** legacy-sim seeds one partner only: adds a second one with one staff member. */
async function otherPartnersStaff(): Promise<LegacyEnvelope<LegacyStaff>> {
  const partner = await legacyCall<{ partnerId: number }>(t, 'POST', '/PartnerMaster', {
    username: 'partner.lain',
    email: 'partner.lain@wbs.example.id',
    partnerName: 'Partner Lain',
    partnerPhone: '0211234',
    partnerAddress: 'Jl. Lain',
    provinceId: 31,
    cityId: 3171,
  });
  expect(partner.code).toBe(1);
  expect(partner.data.partnerId).not.toBe(1);
  const staff = await addStaff(partner.data.partnerId, 'staff.lain');
  expect(staff.code).toBe(1);
  return staff;
}

describe('partner staff (type 3, own partner only)', () => {
  it('lists the staff of the own partner, paged, with the initial password only while initial', async () => {
    const added = await addStaff(1, 'staff.baru');
    expect(added.code).toBe(1);
    const initialPassword = added.message[1];
    expect(initialPassword).toBeTruthy();
    await otherPartnersStaff(); // not listed
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partner-staff?page=1&pageSize=10',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 10, total: 3 });
    expect(body.items.map((s: { username: string }) => s.username).sort()).toEqual([
      'staff.baru',
      'staff.holding',
      'staff.holding2',
    ]);
    const fresh = body.items.find((s: { username: string }) => s.username === 'staff.baru');
    expect(fresh).toMatchObject({ initialPassword: true, password: initialPassword });
    const used = body.items.find((s: { username: string }) => s.username === 'staff.holding');
    expect(used).toMatchObject({ initialPassword: false, password: null });
  });

  it('reads a staff member of the own partner', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/partner-staff/1', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: 1,
      username: 'staff.holding',
      roleId: demoAccount('staff.holding').role,
    });
  });

  it("answers 404 (and audits) for another partner's staff, for read, delete and password reset", async () => {
    const other = await otherPartnersStaff();
    const id = other.data.partnerStaffId;
    const cookie = await signInAs(t.app, 3);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/partner-staff/${id}`,
      headers: { cookie },
    });
    expect(read.statusCode).toBe(404);
    expect(read.json().type).toBe('https://wbs.example/problems/not-found');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/partner-staff/${id}`,
      headers: browser(cookie),
    });
    expect(del.statusCode).toBe(404);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/api/v1/partner-staff/${id}/password-reset`,
      headers: browser(cookie),
    });
    expect(reset.statusCode).toBe(404);
    expect(
      t.logs.filter((l) => l.audit === true && l.event === 'scope-denied').length,
    ).toBeGreaterThanOrEqual(3);
    // Still there: the other partner's staff member was neither deleted nor given a new password.
    const after = await staffDetail(id);
    expect(after.code).toBe(1);
    expect(after.data.partnerStaffWbsUser.wbsUserPassword).toBe(other.message[1]);
  });

  it('resets the password of an own staff member', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner-staff/1/password-reset',
      headers: browser(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Kata sandi berhasil direset');
    expect(t.logs.some((l) => l.audit === true && l.event === 'password-reset')).toBe(true);
    expect((await staffDetail(1)).data.partnerStaffWbsUser.wbsUserInitPassword).toBe(1);
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
