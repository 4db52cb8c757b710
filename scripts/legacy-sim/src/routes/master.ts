/** PartnerMaster and CompanyMaster. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { NOT_FOUND, ok, warn } from '../envelope.ts';
import { company, partner } from '../present.ts';
import { requestBag, table, tableParams } from '../tables.ts';
import type { Company, Partner } from '../types.ts';
import { accountErrors, createAccount } from './accounts.ts';
import { type Bag, body, isNumeric, num, param, str } from './util.ts';

/** Validation shared by the partner and company forms (spec section 5). */
function orgErrors(ctx: Ctx, b: Bag, kind: 'partner' | 'company', creating: boolean): string[] {
  const errors = creating ? accountErrors(ctx, b) : [];
  if (!str(b, `${kind}Name`)) errors.push('Name wajib diisi');
  const phone = str(b, `${kind}Phone`);
  if (!phone) errors.push('Phone wajib diisi');
  else if (!/^\+?\d+$/.test(phone)) errors.push('Phone tidak valid');
  if (!str(b, `${kind}Address`)) errors.push('Address wajib diisi');
  if (!isNumeric(b, 'provinceId')) errors.push('Provinsi Tidak Valid');
  else if (!ctx.regions.provinceById.has(num(b, 'provinceId')!)) errors.push('Provinsi wajib diisi');
  if (!isNumeric(b, 'cityId')) errors.push('Kota Tidak Valid');
  else if (!ctx.regions.cityById.has(num(b, 'cityId')!)) errors.push('Kota wajib diisi');
  if (kind === 'company') {
    const partnerId = b.partnerId;
    if (partnerId !== undefined && partnerId !== null && partnerId !== '' && !isNumeric(b, 'partnerId'))
      errors.push('Partner Tidak Valid');
    else if ((num(b, 'partnerId') ?? 0) > 0 && !ctx.store.partners.get(num(b, 'partnerId')))
      errors.push('Partner Tidak Valid');
  }
  return errors;
}

const code = (prefix: string, id: number) => `${prefix}-${String(id).padStart(3, '0')}`;

export function masterRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store } = ctx;

  // Partner ---------------------------------------------------------------------------------------
  app.get('/api/PartnerMaster', async (request) =>
    table(
      store.partners.all(),
      tableParams(requestBag(request)),
      {
        columns: [
          { name: 'partnerCode', value: (p) => p.partnerCode },
          { name: 'partnerName', value: (p) => p.partnerName },
          { name: 'partnerPhone', value: (p) => p.partnerPhone },
          { name: 'partnerAddress', value: (p) => p.partnerAddress },
          { name: 'partnerId', value: (p) => p.partnerId },
        ],
        searchable: (p) => [p.partnerCode, p.partnerName, p.partnerPhone, p.partnerAddress],
        defaultOrder: { column: 'partnerId', dir: 'asc' },
      },
      (p) => partner(ctx, p),
    ),
  );
  app.get('/api/PartnerMaster/Dropdown', async () =>
    ok(store.partners.all().map((p) => ({ partnerId: p.partnerId, partnerName: p.partnerName }))),
  );
  app.get('/api/PartnerMaster/:id', async (request) => {
    const p = store.partners.get(param(request, 'id'));
    return p ? ok(partner(ctx, p)) : warn(NOT_FOUND);
  });
  app.post('/api/PartnerMaster', async (request) => {
    const b = body(request);
    const errors = orgErrors(ctx, b, 'partner', true);
    if (errors.length) return warn(...errors);
    const partnerId = store.nextId('partner');
    const { user, password } = await createAccount(ctx, b, 3, 1, { partnerId });
    const row: Partner = {
      partnerId,
      partnerCode: code('PRT', partnerId),
      partnerName: str(b, 'partnerName'),
      partnerPhone: str(b, 'partnerPhone'),
      partnerAddress: str(b, 'partnerAddress'),
      partnerProvinceId: num(b, 'provinceId')!,
      partnerCityId: num(b, 'cityId')!,
      wbsUserId: user.wbsUserId,
    };
    store.partners.put(row);
    await store.save();
    return ok(partner(ctx, row), 'Partner berhasil disimpan', password);
  });
  app.put('/api/PartnerMaster', async (request) => {
    const b = body(request);
    const row = store.partners.get(num(b, 'partnerId'));
    if (!row) return warn(NOT_FOUND);
    const errors = orgErrors(ctx, b, 'partner', false);
    if (errors.length) return warn(...errors);
    row.partnerName = str(b, 'partnerName');
    row.partnerPhone = str(b, 'partnerPhone');
    row.partnerAddress = str(b, 'partnerAddress');
    row.partnerProvinceId = num(b, 'provinceId')!;
    row.partnerCityId = num(b, 'cityId')!;
    await store.save();
    return ok(partner(ctx, row), 'Partner berhasil diubah');
  });
  app.delete('/api/PartnerMaster', async (request) => {
    const row = store.partners.get(num(body(request), 'partnerId'));
    if (!row) return warn(NOT_FOUND);
    if (store.companies.find((c) => c.companyPartnerId === row.partnerId))
      return warn('Partner tidak dapat dihapus karena masih memiliki perusahaan');
    for (const s of store.partnerStaff.filter((s) => s.partnerStaffPartnerId === row.partnerId)) {
      store.deleteUser(s.wbsUserId);
      store.partnerStaff.delete(s.partnerStaffId);
    }
    store.deleteUser(row.wbsUserId);
    store.partners.delete(row.partnerId);
    await store.save();
    return ok(null, 'Partner berhasil dihapus');
  });

  // Company ---------------------------------------------------------------------------------------
  const partnerName = (c: Company) => store.partners.get(c.companyPartnerId)?.partnerName ?? '-';
  app.get('/api/CompanyMaster', async (request) =>
    table(
      store.companies.all(),
      tableParams(requestBag(request)),
      {
        columns: [
          { name: 'companyCode', value: (c) => c.companyCode },
          { name: 'companyName', value: (c) => c.companyName },
          { name: 'companyPartner', value: partnerName },
          { name: 'companyAddress', value: (c) => c.companyAddress },
          { name: 'companyId', value: (c) => c.companyId },
        ],
        searchable: (c) => [c.companyCode, c.companyName, partnerName(c), c.companyAddress],
        defaultOrder: { column: 'companyId', dir: 'asc' },
      },
      (c) => company(ctx, c),
    ),
  );
  app.get('/api/CompanyMaster/Dropdown/:partnerId', async (request) => {
    const partnerId = param(request, 'partnerId');
    return ok(
      store.companies
        .filter((c) => !partnerId || c.companyPartnerId === partnerId)
        .map((c) => ({ companyId: c.companyId, companyName: c.companyName })),
    );
  });
  app.get('/api/CompanyMaster/:id', async (request) => {
    const c = store.companies.get(param(request, 'id'));
    return c ? ok(company(ctx, c)) : warn(NOT_FOUND);
  });
  app.post('/api/CompanyMaster', async (request) => {
    const b = body(request);
    const errors = orgErrors(ctx, b, 'company', true);
    if (errors.length) return warn(...errors);
    const companyId = store.nextId('company');
    const { user, password } = await createAccount(ctx, b, 2, 1, { companyId });
    const row: Company = {
      companyId,
      companyCode: code('CMP', companyId),
      companyName: str(b, 'companyName'),
      companyPhone: str(b, 'companyPhone'),
      companyAddress: str(b, 'companyAddress'),
      companyProvinceId: num(b, 'provinceId')!,
      companyCityId: num(b, 'cityId')!,
      companyPartnerId: Math.max(0, num(b, 'partnerId') ?? 0),
      wbsUserId: user.wbsUserId,
    };
    store.companies.put(row);
    await store.save();
    return ok(company(ctx, row), 'Perusahaan berhasil disimpan', password);
  });
  app.put('/api/CompanyMaster', async (request) => {
    const b = body(request);
    const row = store.companies.get(num(b, 'companyId'));
    if (!row) return warn(NOT_FOUND);
    const errors = orgErrors(ctx, b, 'company', false);
    if (errors.length) return warn(...errors);
    row.companyName = str(b, 'companyName');
    row.companyPhone = str(b, 'companyPhone');
    row.companyAddress = str(b, 'companyAddress');
    row.companyProvinceId = num(b, 'provinceId')!;
    row.companyCityId = num(b, 'cityId')!;
    row.companyPartnerId = Math.max(0, num(b, 'partnerId') ?? 0);
    await store.save();
    return ok(company(ctx, row), 'Perusahaan berhasil diubah');
  });
  app.delete('/api/CompanyMaster', async (request) => {
    const row = store.companies.get(num(body(request), 'companyId'));
    if (!row) return warn(NOT_FOUND);
    if (store.cases.find((c) => c.companyId === row.companyId))
      return warn('Perusahaan tidak dapat dihapus karena masih memiliki laporan');
    for (const s of store.companyStaff.filter((s) => s.companyStaffCompanyId === row.companyId)) {
      store.deleteUser(s.wbsUserId);
      store.companyStaff.delete(s.companyStaffId);
    }
    for (const c of store.caseCategories.filter((c) => c.companyId === row.companyId))
      store.caseCategories.delete(c.caseCategoryId);
    for (const g of store.caseCategoryGroups.filter((g) => g.companyId === row.companyId))
      store.caseCategoryGroups.delete(g.caseCategoryGroupId);
    store.deleteUser(row.wbsUserId);
    store.companies.delete(row.companyId);
    await store.save();
    return ok(null, 'Perusahaan berhasil dihapus');
  });
}
