import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacySim } from './index.ts';
import { call, login, startSim } from './test/helpers.ts';

let sim: LegacySim;
let token: string;
beforeAll(async () => {
  sim = await startSim();
  token = (await login(sim, 'admin')).token;
});
afterAll(() => sim.close());

const tableKeys = ['code', 'message', 'draw', 'recordsTotal', 'recordsFiltered', 'data'];

describe('reference data', () => {
  it('regions from idn-area-data', async () => {
    const provinces = (await call(sim, 'GET', '/Province')).json.data;
    expect(provinces.length).toBeGreaterThanOrEqual(38);
    expect(provinces).toContainEqual({ provinceId: 32, provinceName: 'Jawa Barat' });
    const cities = (await call(sim, 'GET', '/city/32')).json.data;
    expect(cities.some((c: { cityId: number }) => c.cityId === 3201)).toBe(true);
    expect(Object.keys(cities[0])).toEqual(['cityId', 'cityName']);
    const districts = (await call(sim, 'GET', '/district/3201')).json.data;
    expect(Object.keys(districts[0])).toEqual(['districtId', 'districtName']);
    expect((await call(sim, 'GET', '/city/999')).json.data).toEqual([]);
  });

  it('units, channels, case lines, statuses', async () => {
    const dirs = (await call(sim, 'GET', '/unit/getdirectorate/')).json.data;
    expect(Object.keys(dirs[0])).toEqual(['id', 'name']);
    expect((await call(sim, 'GET', `/unit/getdivision/${dirs[0].id}`)).json.data.length).toBeGreaterThan(0);
    expect((await call(sim, 'GET', '/channel/')).json.data).toEqual([
      { channelId: 1, channelName: 'Desktop' },
      { channelId: 2, channelName: 'E-mail' },
      { channelId: 3, channelName: 'Telepon' },
      { channelId: 4, channelName: 'WhatsApp' },
    ]);
    expect((await call(sim, 'GET', '/CaseLine', { token })).json.data).toContainEqual({
      caseLineId: 1,
      caseLineName: 'Jalur Direksi',
    });
    const statuses = (await call(sim, 'GET', '/CaseStatus')).json.data;
    expect(statuses.map((s: { caseStatusOrder: number }) => s.caseStatusOrder)).toEqual([
      1, 2, 3, 3.2, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
    // Spec §4's rule walks this table forward (docs/product/handling.md#case-workflow): Baru is id 1, the first handling
    // step (where the line is chosen) id 11 at order 2, every later step above 11, Ditolak at 3.2.
    expect(statuses.map((s: { caseStatusId: number }) => s.caseStatusId)).toEqual([
      1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    ]);
    expect(statuses[1]).toEqual({ caseStatusId: 11, caseStatusName: 'Diterima', caseStatusOrder: 2 });
    expect(statuses[3]).toEqual({ caseStatusId: 13, caseStatusName: 'Ditolak', caseStatusOrder: 3.2 });
    expect(statuses[11]).toEqual({ caseStatusId: 21, caseStatusName: 'Ditutup', caseStatusOrder: 11 });
    const open = (await call(sim, 'GET', '/CaseStatus/Open/1')).json.data.map(
      (s: { caseStatusId: number }) => s.caseStatusId,
    );
    expect(open).toEqual([1, 11, 12, 14, 15, 16, 17, 18, 19, 20]);
    expect((await call(sim, 'GET', '/CaseStatus/Open')).json.data).toHaveLength(10);
  });

  it('status form (POST/PUT /CaseStatus)', async () => {
    const created = await call(sim, 'POST', '/CaseStatus', {
      token,
      body: { caseStatusName: 'Banding', caseStatusOrder: 10.5 },
    });
    expect(created.json.code).toBe(1);
    expect(created.json.data.caseStatusId).toBeGreaterThan(12);
    expect((await call(sim, 'POST', '/CaseStatus', { token, body: {} })).json.message).toEqual([
      'Nama Status wajib diisi',
      'Order wajib diisi',
    ]);
    await sim.reset();
  });

  it('categories and groups', async () => {
    const list = await call(sim, 'POST', '/CaseCategory/GetAll', { body: { companyId: 1 } });
    expect(list.json.data[0]).toMatchObject({
      caseCategoryId: expect.any(Number),
      caseCategoryName: expect.any(String),
      caseCategoryCaseCategoryGroupId: expect.any(Number),
      caseCategoryCaseCategoryGroup: { caseCategoryGroupName: expect.any(String) },
    });
    const tableReply = await call(sim, 'POST', '/CaseCategory/GetAll', {
      body: { companyId: 1, draw: 2, start: 0, length: 3 },
    });
    expect(Object.keys(tableReply.json).sort()).toEqual([...tableKeys].sort());
    expect(tableReply.json.data).toHaveLength(3);
    const groups = (await call(sim, 'POST', '/CaseCategoryGroup/GetAll', { body: { companyId: 1 } })).json
      .data;
    expect(groups[0]).toMatchObject({
      caseCategoryGroupId: expect.any(Number),
      caseCategoryGroupName: expect.any(String),
    });
    const noGroup = await call(sim, 'POST', '/CaseCategory', {
      token,
      body: { caseCategoryName: 'Baru', companyId: 1 },
    });
    expect(noGroup.json).toEqual({ code: 0, message: ['Gorup kategori wajib diisi'], data: null });
    const created = await call(sim, 'POST', '/CaseCategory', {
      token,
      body: {
        caseCategoryName: 'Kategori Uji',
        caseCategoryGroupId: groups[0].caseCategoryGroupId,
        companyId: 1,
      },
    });
    expect(created.json.code).toBe(1);
    const edited = await call(sim, 'PUT', '/CaseCategory', {
      token,
      body: {
        caseCategoryId: created.json.data.caseCategoryId,
        caseCategoryName: 'Kategori Ubah',
        caseCategoryGroupId: groups[0].caseCategoryGroupId,
        companyId: 1,
      },
    });
    expect(edited.json.data.caseCategoryName).toBe('Kategori Ubah');
    // company 3 has no groups: a category without a group is fine
    expect(
      (await call(sim, 'POST', '/CaseCategory', { token, body: { caseCategoryName: 'X', companyId: 3 } }))
        .json.code,
    ).toBe(1);
    await sim.reset();
  });
});

describe('partners and companies', () => {
  it('partner table, detail, dropdown, create, edit, delete', async () => {
    const t = await call(sim, 'GET', '/PartnerMaster?draw=4&start=0&length=10', { token });
    expect(Object.keys(t.json).sort()).toEqual([...tableKeys].sort());
    expect(t.json.draw).toBe(4);
    expect(t.json.data[0]).toMatchObject({
      partnerId: 1,
      partnerCode: 'PRT-001',
      partnerName: 'Holding Air Minum Nusantara',
      partnerProvince: { provinceName: expect.any(String) },
      partnerCity: { cityName: expect.any(String) },
      partnerWbsUser: { wbsUserName: 'holding', wbsUserEmail: expect.any(String) },
    });
    expect((await call(sim, 'GET', '/PartnerMaster/Dropdown', { token })).json.data).toEqual([
      { partnerId: 1, partnerName: 'Holding Air Minum Nusantara' },
    ]);
    const body = {
      username: 'mitra2',
      email: 'mitra2@x.example',
      partnerName: 'Mitra Dua',
      partnerPhone: '021555',
      partnerAddress: 'Jl. A',
      provinceId: 31,
      cityId: 3171,
    };
    const created = await call(sim, 'POST', '/PartnerMaster', { token, body });
    expect(created.json.code).toBe(1);
    expect(created.json.message[1]).toMatch(/.{8,}/);
    const dup = await call(sim, 'POST', '/PartnerMaster', { token, body });
    expect(dup.json).toEqual({ code: 0, message: ['Username sudah digunakan'], data: null });
    const invalid = await call(sim, 'POST', '/PartnerMaster', {
      token,
      body: { provinceId: 'x', cityId: 0 },
    });
    expect(invalid.json.message).toEqual([
      'Username wajib diisi',
      'Email wajib diisi',
      'Name wajib diisi',
      'Phone wajib diisi',
      'Address wajib diisi',
      'Provinsi Tidak Valid',
      'Kota wajib diisi',
    ]);
    const id = created.json.data.partnerId;
    const newLogin = await call(sim, 'POST', '/JwtAuth/Login', {
      body: { userName: 'mitra2', password: created.json.message[1] },
    });
    expect(newLogin.json.data.partnerWbsUser.wbsUserInitPassword).toBe(1);
    const edited = await call(sim, 'PUT', '/PartnerMaster', {
      token,
      body: { ...body, partnerId: id, partnerName: 'Mitra 2' },
    });
    expect(edited.json.data.partnerName).toBe('Mitra 2');
    expect((await call(sim, 'GET', `/PartnerMaster/${id}`, { token })).json.data.partnerName).toBe('Mitra 2');
    expect((await call(sim, 'DELETE', '/PartnerMaster', { token, body: { partnerId: 1 } })).json.code).toBe(
      0,
    );
    expect((await call(sim, 'DELETE', '/PartnerMaster', { token, body: { partnerId: id } })).json.code).toBe(
      1,
    );
    expect((await call(sim, 'GET', `/PartnerMaster/${id}`, { token })).json).toEqual({
      code: 0,
      message: ['Data tidak ditemukan'],
      data: null,
    });
    await sim.reset();
  });

  it('company table, search, detail, dropdown, create, edit, delete', async () => {
    const t = await call(sim, 'GET', '/CompanyMaster?draw=1&start=0&length=2&search=pakuan', { token });
    expect(t.json.recordsTotal).toBe(3);
    expect(t.json.recordsFiltered).toBe(1);
    expect(t.json.data[0]).toMatchObject({
      companyId: 2,
      companyName: 'PDAM Tirta Pakuan',
      companyPartnerId: 1,
      companyPartner: { partnerName: 'Holding Air Minum Nusantara' },
    });
    expect((await call(sim, 'GET', '/CompanyMaster/Dropdown/1', { token })).json.data).toHaveLength(3);
    expect((await call(sim, 'GET', '/CompanyMaster/1', { token })).json.data.companyWbsUser.wbsUserName).toBe(
      'admin.kahuripan',
    );
    const body = {
      username: 'pdam4',
      email: 'pdam4@x.example',
      companyName: 'PDAM Empat',
      companyPhone: '0224',
      companyAddress: 'Jl. B',
      provinceId: 32,
      cityId: 3273,
      partnerId: 0,
    };
    const created = await call(sim, 'POST', '/CompanyMaster', { token, body });
    expect(created.json.code).toBe(1);
    expect(created.json.data.companyPartner).toBeNull();
    const id = created.json.data.companyId;
    expect(
      (await call(sim, 'PUT', '/CompanyMaster', { token, body: { ...body, companyId: id, partnerId: 1 } }))
        .json.data.companyPartnerId,
    ).toBe(1);
    expect((await call(sim, 'DELETE', '/CompanyMaster', { token, body: { companyId: 1 } })).json.code).toBe(
      0,
    );
    expect((await call(sim, 'DELETE', '/CompanyMaster', { token, body: { companyId: id } })).json.code).toBe(
      1,
    );
    await sim.reset();
  });
});

describe('staff', () => {
  it('partner staff table, detail, create, edit, delete', async () => {
    const t = await call(sim, 'GET', '/PartnerStaffMaster/1?draw=1&start=0&length=10', { token });
    expect(t.json.recordsTotal).toBe(2);
    expect(t.json.data[0]).toMatchObject({
      partnerStaffId: 1,
      partnerStaffPartnerId: 1,
      partnerStaffFullName: expect.any(String),
      partnerStaffWbsUser: {
        wbsUserId: expect.any(Number),
        wbsUserName: 'staff.holding',
        wbsUserRole: 1,
        wbsUserRoleText: 'Supervisor',
        wbsUserPassword: null,
        wbsUserInitPassword: 0,
      },
    });
    const created = await call(sim, 'POST', '/PartnerStaffMaster', {
      token,
      body: { fullName: 'Staf Baru', username: 'staf.baru', email: 'sb@x.example', partnerId: 1 },
    });
    expect(created.json.code).toBe(1);
    const id = created.json.data.partnerStaffId;
    const detail = await call(sim, 'POST', '/PartnerStaffMaster/Detail', {
      token,
      body: { partnerStaffId: id, partnerId: 1 },
    });
    expect(detail.json.data.partnerStaffWbsUser).toMatchObject({
      wbsUserRole: 2,
      wbsUserInitPassword: 1,
      wbsUserPassword: created.json.message[1],
    });
    expect(
      (
        await call(sim, 'PUT', '/PartnerStaffMaster', {
          token,
          body: { partnerStaffId: id, partnerId: 1, roleId: 1 },
        })
      ).json.data.partnerStaffWbsUser.wbsUserRole,
    ).toBe(1);
    expect(
      (await call(sim, 'POST', '/PartnerStaffMaster', { token, body: { partnerId: 1 } })).json.message,
    ).toEqual(['Nama Lengkap wajib diisi', 'username wajib diisi', 'Email wajib diisi']);
    expect(
      (
        await call(sim, 'DELETE', '/PartnerStaffMaster', {
          token,
          body: { partnerStaffId: id, partnerId: 1 },
        })
      ).json.code,
    ).toBe(1);
    await sim.reset();
  });

  it('company staff table, detail, create, edit, delete', async () => {
    const t = await call(sim, 'POST', '/CompanyStaffMaster/GetAll', {
      token,
      body: { companyId: 1, draw: 1, start: 0, length: 10 },
    });
    expect(t.json.recordsTotal).toBe(3);
    expect(t.json.data[0]).toMatchObject({
      companyStaffId: 1,
      companyStaffCompanyId: 1,
      companyStaffCaseLineId: 1,
      companyStaffCaseLine: { caseLineName: 'Jalur Direksi' },
      companyStaffWbsUser: { wbsUserName: 'analis.direksi', wbsUserRoleText: 'Supervisor' },
    });
    const init = await call(sim, 'POST', '/CompanyStaffMaster/detail', {
      token,
      body: { companyStaffId: 3, companyId: 1 },
    });
    expect(init.json.data.companyStaffWbsUser).toMatchObject({
      wbsUserInitPassword: 1,
      wbsUserPassword: 'Awal#2026!',
    });
    const missingLine = await call(sim, 'POST', '/CompanyStaffMaster', {
      token,
      body: { fullName: 'A', username: 'a.b', email: 'a@b.example', roleId: 2, companyId: 1 },
    });
    expect(missingLine.json.message).toEqual(['Jalur Pengaduan wajib diisi']);
    const created = await call(sim, 'POST', '/CompanyStaffMaster', {
      token,
      body: { fullName: 'A', username: 'a.b', email: 'a@b.example', roleId: 2, caseLineId: 2, companyId: 1 },
    });
    expect(created.json.code).toBe(1);
    const id = created.json.data.companyStaffId;
    const edited = await call(sim, 'PUT', '/CompanyStaffMaster', {
      token,
      body: { companyStaffId: id, companyId: 1, caseLineId: 3, roleId: 1 },
    });
    expect(edited.json.data).toMatchObject({
      companyStaffCaseLineId: 3,
      companyStaffWbsUser: { wbsUserRole: 1 },
    });
    expect(
      (
        await call(sim, 'DELETE', '/CompanyStaffMaster', {
          token,
          body: { companyStaffId: id, companyId: 1 },
        })
      ).json.code,
    ).toBe(1);
    await sim.reset();
  });
});
