/** PartnerStaffMaster and CompanyStaffMaster (analysts). */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { NOT_FOUND, ok, warn } from '../envelope.ts';
import { companyStaff, partnerStaff } from '../present.ts';
import { type Column, requestBag, table, tableParams } from '../tables.ts';
import type { CompanyStaff, PartnerStaff, User } from '../types.ts';
import { accountErrors, createAccount } from './accounts.ts';
import { type Bag, body, EMAIL, isNumeric, num, param, str } from './util.ts';

function roleOf(b: Bag): number {
  return num(b, 'roleId') === 1 ? 1 : 2; // default role id 2
}

function editErrors(b: Bag): string[] {
  const email = str(b, 'email');
  if (email && !EMAIL.test(email)) return ['Email tidak valid'];
  return [];
}

function lineErrors(ctx: Ctx, b: Bag): string[] {
  if (!isNumeric(b, 'caseLineId'))
    return [b.caseLineId ? 'Jalur Pengaduan tidak valid' : 'Jalur Pengaduan wajib diisi'];
  if (!ctx.store.caseLines.get(num(b, 'caseLineId'))) return ['Jalur Pengaduan wajib diisi'];
  return [];
}

export function staffRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store } = ctx;
  const userOf = (id: number) => store.users.get(id);
  const staffColumns = <T extends { wbsUserId: number }>(name: (s: T) => string): Column<T>[] => [
    { name: 'fullName', value: name },
    { name: 'email', value: (s) => userOf(s.wbsUserId)?.wbsUserEmail ?? '' },
    { name: 'username', value: (s) => userOf(s.wbsUserId)?.wbsUserName ?? '' },
    { name: 'role', value: (s) => userOf(s.wbsUserId)?.wbsUserRole ?? null },
  ];

  // Partner staff -----------------------------------------------------------------------------------
  app.get('/api/PartnerStaffMaster/:partnerId', async (request) => {
    const partnerId = param(request, 'partnerId');
    const rows = store.partnerStaff.filter((s) => s.partnerStaffPartnerId === partnerId);
    return table(
      rows,
      tableParams(requestBag(request)),
      {
        columns: [
          ...staffColumns<PartnerStaff>((s) => s.partnerStaffFullName),
          { name: 'partnerStaffId', value: (s) => s.partnerStaffId },
        ],
        searchable: (s) => [
          s.partnerStaffFullName,
          userOf(s.wbsUserId)?.wbsUserEmail,
          userOf(s.wbsUserId)?.wbsUserName,
        ],
        defaultOrder: { column: 'partnerStaffId', dir: 'asc' },
      },
      (s) => partnerStaff(ctx, s),
    );
  });
  app.post('/api/PartnerStaffMaster/Detail', async (request) => {
    // Like the legacy, partnerId is not checked against the staff's partner: the gateway must.
    const s = store.partnerStaff.get(num(body(request), 'partnerStaffId'));
    return s ? ok(partnerStaff(ctx, s)) : warn(NOT_FOUND);
  });
  app.post('/api/PartnerStaffMaster', async (request) => {
    const b = body(request);
    const errors: string[] = [];
    if (!str(b, 'fullName')) errors.push('Nama Lengkap wajib diisi');
    errors.push(...accountErrors(ctx, b, 'username wajib diisi'));
    const partnerId = num(b, 'partnerId');
    if (!store.partners.get(partnerId)) errors.push('Partner Tidak Valid');
    if (errors.length) return warn(...errors);
    const partnerStaffId = store.nextId('partnerStaff');
    const { user, password } = await createAccount(ctx, b, 5, roleOf(b), {
      partnerStaffId,
      partnerStaffPartnerId: partnerId,
    });
    const row = store.partnerStaff.put({
      partnerStaffId,
      partnerStaffPartnerId: partnerId!,
      partnerStaffFullName: str(b, 'fullName'),
      wbsUserId: user.wbsUserId,
    });
    await store.save();
    return ok(partnerStaff(ctx, row), 'Staff berhasil disimpan', password);
  });
  app.put('/api/PartnerStaffMaster', async (request) => {
    const b = body(request);
    const row = store.partnerStaff.get(num(b, 'partnerStaffId'));
    const user = row && userOf(row.wbsUserId);
    if (!row || !user) return warn(NOT_FOUND);
    const errors = editErrors(b);
    if (errors.length) return warn(...errors);
    // fullName, username and email are locked in Edit; the role may change.
    if (b.roleId !== undefined) user.wbsUserRole = roleOf(b);
    await store.save();
    return ok(partnerStaff(ctx, row), 'Staff berhasil diubah');
  });
  app.delete('/api/PartnerStaffMaster', async (request) => {
    const row = store.partnerStaff.get(num(body(request), 'partnerStaffId'));
    if (!row) return warn(NOT_FOUND);
    store.deleteUser(row.wbsUserId);
    store.partnerStaff.delete(row.partnerStaffId);
    await store.save();
    return ok(null, 'Staff berhasil dihapus');
  });

  // Company staff (analysts) --------------------------------------------------------------------------
  const lineName = (s: CompanyStaff) => store.caseLines.get(s.companyStaffCaseLineId)?.caseLineName ?? '';
  app.post('/api/CompanyStaffMaster/GetAll', async (request) => {
    const bag = requestBag(request);
    const companyId = num(bag, 'companyId');
    const rows = store.companyStaff.filter((s) => s.companyStaffCompanyId === companyId);
    return table(
      rows,
      tableParams(bag),
      {
        columns: [
          ...staffColumns<CompanyStaff>((s) => s.companyStaffFullName),
          { name: 'caseLine', value: lineName },
          { name: 'companyStaffId', value: (s) => s.companyStaffId },
        ],
        searchable: (s) => [s.companyStaffFullName, userOf(s.wbsUserId)?.wbsUserEmail, lineName(s)],
        defaultOrder: { column: 'companyStaffId', dir: 'asc' },
      },
      (s) => companyStaff(ctx, s),
    );
  });
  app.post('/api/CompanyStaffMaster/detail', async (request) => {
    const s = store.companyStaff.get(num(body(request), 'companyStaffId'));
    return s ? ok(companyStaff(ctx, s)) : warn(NOT_FOUND);
  });
  app.post('/api/CompanyStaffMaster', async (request) => {
    const b = body(request);
    const errors: string[] = [];
    if (!str(b, 'fullName')) errors.push('Nama Lengkap wajib diisi');
    errors.push(...accountErrors(ctx, b, 'username wajib diisi'), ...lineErrors(ctx, b));
    const companyId = num(b, 'companyId');
    if (!store.companies.get(companyId)) errors.push('Perusahaan tidak ditemukan');
    if (errors.length) return warn(...errors);
    const companyStaffId = store.nextId('companyStaff');
    const { user, password } = await createAccount(ctx, b, 4, roleOf(b), {
      companyStaffId,
      companyStaffCompanyId: companyId,
    });
    const row = store.companyStaff.put({
      companyStaffId,
      companyStaffCompanyId: companyId!,
      companyStaffFullName: str(b, 'fullName'),
      companyStaffCaseLineId: num(b, 'caseLineId')!,
      wbsUserId: user.wbsUserId,
    });
    await store.save();
    return ok(companyStaff(ctx, row), 'Analis berhasil disimpan', password);
  });
  app.put('/api/CompanyStaffMaster', async (request) => {
    const b = body(request);
    const row = store.companyStaff.get(num(b, 'companyStaffId'));
    const user: User | undefined = row && userOf(row.wbsUserId);
    if (!row || !user) return warn(NOT_FOUND);
    const errors = [...editErrors(b), ...lineErrors(ctx, b)];
    if (errors.length) return warn(...errors);
    if (str(b, 'fullName')) row.companyStaffFullName = str(b, 'fullName');
    row.companyStaffCaseLineId = num(b, 'caseLineId')!;
    if (b.roleId !== undefined) user.wbsUserRole = roleOf(b);
    await store.save();
    return ok(companyStaff(ctx, row), 'Analis berhasil diubah');
  });
  app.delete('/api/CompanyStaffMaster', async (request) => {
    const row = store.companyStaff.get(num(body(request), 'companyStaffId'));
    if (!row) return warn(NOT_FOUND);
    store.deleteUser(row.wbsUserId);
    store.companyStaff.delete(row.companyStaffId);
    await store.save();
    return ok(null, 'Analis berhasil dihapus');
  });
}
