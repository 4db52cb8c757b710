import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, legacyCall, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

/** A valid partner form; `over` changes some fields. */
const partnerForm = (over: Record<string, unknown>) => ({
  name: 'Partner Tiga',
  username: 'p3',
  email: 'p3@x.co',
  phone: '021',
  address: 'A',
  provinceId: 31,
  cityId: 3171,
  ...over,
});

describe('partners (type 1)', () => {
  it('lists partners as { items, total, page, pageSize } in our camelCase shape', async () => {
    // legacy-sim seeds one partner: a second one, for page 2.
    const created = await legacyCall(t, 'POST', '/PartnerMaster', {
      username: 'partner.dua',
      email: 'partner.dua@wbs.example.id',
      partnerName: 'Partner Dua',
      partnerPhone: '0212',
      partnerAddress: 'Jl. Dua',
      provinceId: 31,
      cityId: 3171,
    });
    expect(created.code).toBe(1);
    const cookie = await signInAs(t.app, 1);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partners?pageSize=1&page=2',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        {
          id: 2,
          code: 'PRT-002',
          name: 'Partner Dua',
          phone: '0212',
          address: 'Jl. Dua',
          provinceId: 31,
          provinceName: 'Daerah Khusus Ibukota Jakarta',
          cityId: 3171,
          cityName: 'Kota Administrasi Jakarta Pusat',
          username: 'partner.dua',
          email: 'partner.dua@wbs.example.id',
        },
      ],
      total: 2,
      page: 2,
      pageSize: 1,
    });
  });

  it('creates a partner and validates the form', async () => {
    const cookie = await signInAs(t.app, 1);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partners',
      headers: browser(cookie),
      payload: {
        name: '',
        username: 'u',
        email: 'u@x.co',
        phone: 'abc',
        address: 'A',
        provinceId: 0,
        cityId: 'x',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      name: 'Nama wajib diisi',
      phone: 'No. Telepon hanya boleh berisi angka',
      provinceId: 'Provinsi wajib diisi',
      cityId: 'Kota Tidak Valid',
    });
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partners',
      headers: browser(cookie),
      payload: partnerForm({}),
    });
    expect(good.statusCode).toBe(201);
    expect(good.json()).toEqual({
      id: expect.any(Number),
      message: 'Partner berhasil disimpan',
      initialPassword: expect.any(String),
    });
    expect(good.headers.location).toBe(`/api/v1/partners/${good.json().id}`);
  });

  it("returns the new account's initial password once; it signs in only to the forced change", async () => {
    const cookie = await signInAs(t.app, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partners',
      headers: browser(cookie),
      payload: partnerForm({ name: 'Partner Empat', username: 'p4', email: 'p4@x.co' }),
    });
    const { initialPassword } = created.json();
    expect(initialPassword).toMatch(/^\S{8,}$/);
    // Never in a log line.
    expect(t.logs.some((line) => JSON.stringify(line).includes(initialPassword))).toBe(false);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: 'p4', password: initialPassword },
    });
    expect(signIn.json()).toEqual({ passwordChangeRequired: true });
    // The detail never carries it again.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partners?pageSize=50',
      headers: { cookie },
    });
    expect(list.body).not.toContain(initialPassword);
  });

  it('a username already taken is a field error (400, errors.username), for partners and staff alike', async () => {
    const admin = await signInAs(t.app, 1);
    const partner = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partners',
      headers: browser(admin),
      payload: partnerForm({ name: 'Partner Lima', username: 'admin', email: 'p5@x.co' }),
    });
    expect(partner.statusCode).toBe(400);
    expect(partner.json()).toMatchObject({
      errors: { username: 'Username sudah digunakan' },
      messages: ['Username sudah digunakan'],
    });
    const companyAdmin = await signInAs(t.app, 2);
    const analyst = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analysts',
      headers: browser(companyAdmin),
      payload: { fullName: 'X', username: 'analis.spi', email: 'x@x.co', roleId: 2, caseLineId: 1 },
    });
    expect(analyst.statusCode).toBe(400);
    expect(analyst.json().errors).toEqual({ username: 'Username sudah digunakan' });
  });

  it('rejects a non-numeric id with 400', async () => {
    const cookie = await signInAs(t.app, 1);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/partners/abc', headers: { cookie } });
    expect(res.statusCode).toBe(400);
  });
});
