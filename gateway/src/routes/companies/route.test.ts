import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, legacyCall, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
/** A company of a second partner (legacy-sim seeds one partner, owning companies 1–3). */
let foreignCompanyId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const place = { provinceId: 31, cityId: 3171 };
  const partner = await legacyCall<{ partnerId: number }>(t, 'POST', '/PartnerMaster', {
    username: 'partner.lain',
    email: 'partner.lain@wbs.example.id',
    partnerName: 'Partner Lain',
    partnerPhone: '0211234',
    partnerAddress: 'Jl. Lain',
    ...place,
  });
  const company = await legacyCall<{ companyId: number }>(t, 'POST', '/CompanyMaster', {
    username: 'admin.lain',
    email: 'admin.lain@wbs.example.id',
    companyName: 'Perusahaan Lain',
    companyPhone: '0215678',
    companyAddress: 'Jl. Lain',
    partnerId: partner.data.partnerId,
    ...place,
  });
  if (partner.code !== 1 || company.code !== 1) throw new Error('set-up of a second partner failed');
  foreignCompanyId = company.data.companyId;
});
afterAll(async () => t.close());

describe('companies', () => {
  it('options: type 1 sees every company, partner users only their partner’s', async () => {
    const admin = await signInAs(t.app, 1);
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/v1/companies/options',
      headers: { cookie: admin },
    });
    expect(all.json().items.map((c: { id: number }) => c.id)).toEqual([1, 2, 3, foreignCompanyId]);
    for (const type of [3, 5]) {
      const cookie = await signInAs(t.app, type);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/companies/options',
        headers: { cookie },
      });
      expect(res.json().items).toEqual([
        { id: 1, name: 'Perumda Air Minum Tirta Kahuripan' },
        { id: 2, name: 'PDAM Tirta Pakuan' },
        { id: 3, name: 'Perumda Air Minum Tirta Raharja' },
      ]);
    }
  });

  it('case categories follow the company scope', async () => {
    const partner = await signInAs(t.app, 3);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-categories?companyId=2',
      headers: { cookie: partner },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().items.length).toBeGreaterThan(0);
    // Company 3's categories have no groups.
    const ungrouped = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-categories?companyId=3',
      headers: { cookie: partner },
    });
    expect(ungrouped.json().items).toEqual(
      ['Korupsi', 'Gratifikasi', 'Pencurian Air', 'Pelanggaran Kode Etik', 'Lainnya'].map((name, i) => ({
        id: 19 + i,
        name,
        groupId: null,
        groupName: null,
      })),
    );
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/v1/case-categories?companyId=${foreignCompanyId}`,
      headers: { cookie: partner },
    });
    expect(other.statusCode).toBe(404);
    // Guests get company 1's categories.
    const guest = await t.app.inject({ method: 'GET', url: '/api/v1/case-categories' });
    const group = (groupId: number, groupName: string) => (name: string) => ({ name, groupId, groupName });
    expect(guest.json().items).toEqual(
      [
        ...['Korupsi', 'Suap dan Gratifikasi', 'Penggelapan Aset', 'Manipulasi Laporan Keuangan'].map(
          group(1, 'Kecurangan (Fraud)'),
        ),
        ...['Benturan Kepentingan', 'Pelanggaran Kode Etik', 'Pelecehan dan Perundungan'].map(
          group(2, 'Pelanggaran Etika'),
        ),
        ...['Penyalahgunaan Wewenang', 'Pelanggaran Pengadaan Barang dan Jasa'].map(
          group(3, 'Pelanggaran Operasional'),
        ),
      ].map((c, i) => ({ id: i + 1, ...c })),
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/case-categories?companyId=2' })).statusCode,
    ).toBe(404);
  });

  it('case statuses are sorted by order', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/case-statuses' });
    // Ditolak (order 3.2) sorts between Verifikasi (3) and Investigasi (4).
    expect(res.json().items.map((s: { order: number }) => s.order)).toEqual([
      1, 2, 3, 3.2, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
    expect(res.json().items.map((s: { id: number }) => s.id)).toEqual([
      1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    ]);
  });
});
