/** Regions, units, channels, case lines, case statuses, categories and category groups. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { NOT_FOUND, ok, warn } from '../envelope.ts';
import { category, status } from '../present.ts';
import { CHANNELS, DIRECTORATES, DIVISIONS } from '../seed/constants.ts';
import { requestBag, table, tableParams } from '../tables.ts';
import type { CaseCategory } from '../types.ts';
import { body, isNumeric, num, param, str } from './util.ts';

const open = { config: { public: true } };

export function referenceRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store, regions } = ctx;

  app.get('/api/Province', open, async () =>
    ok(regions.provinces.map((p) => ({ provinceId: p.provinceId, provinceName: p.provinceName }))),
  );
  app.get('/api/city/:provinceId', open, async (request) =>
    ok(
      (regions.citiesByProvince.get(param(request, 'provinceId')) ?? []).map((c) => ({
        cityId: c.cityId,
        cityName: c.cityName,
      })),
    ),
  );
  app.get('/api/district/:cityId', open, async (request) =>
    ok(
      (regions.districtsByCity.get(param(request, 'cityId')) ?? []).map((d) => ({
        districtId: d.districtId,
        districtName: d.districtName,
      })),
    ),
  );
  app.get('/api/unit/getdirectorate', open, async () => ok(DIRECTORATES.map((d) => ({ ...d }))));
  app.get('/api/unit/getdivision/:id', open, async (request) =>
    ok((DIVISIONS[param(request, 'id')] ?? []).map((d) => ({ ...d }))),
  );
  app.get('/api/channel', open, async () => ok(CHANNELS.map((c) => ({ ...c }))));
  app.get('/api/CaseLine', async () => ok(store.caseLines.all().map((l) => ({ ...l }))));

  // Statuses are global: the {companyId} variants answer the same list. Open = not final (Ditolak, Ditutup).
  const statuses = (onlyOpen: boolean) =>
    ok(
      store.caseStatuses
        .filter((s) => !onlyOpen || !s.final)
        .sort((a, b) => a.caseStatusOrder - b.caseStatusOrder)
        .map(status),
    );
  app.get('/api/CaseStatus', open, async () => statuses(false));
  app.get('/api/CaseStatus/:companyId', open, async () => statuses(false));
  app.get('/api/CaseStatus/Open', open, async () => statuses(true));
  app.get('/api/CaseStatus/Open/:companyId', open, async () => statuses(true));

  // Status form (paths not shown in the spec): create and rename.
  app.post('/api/CaseStatus', async (request) => {
    const b = body(request);
    const name = str(b, 'caseStatusName');
    const errors: string[] = [];
    if (!name) errors.push('Nama Status wajib diisi');
    if (!isNumeric(b, 'caseStatusOrder')) errors.push('Order wajib diisi');
    if (errors.length) return warn(...errors);
    const created = store.caseStatuses.put({
      caseStatusId: store.nextId('caseStatus'),
      caseStatusName: name,
      caseStatusOrder: num(b, 'caseStatusOrder')!,
      final: false,
    });
    await store.save();
    return ok(status(created), 'Status berhasil disimpan');
  });
  app.put('/api/CaseStatus', async (request) => {
    const b = body(request);
    const existing = store.caseStatuses.get(num(b, 'caseStatusId'));
    if (!existing) return warn(NOT_FOUND);
    const name = str(b, 'caseStatusName');
    if (!name) return warn('Nama Status wajib diisi');
    existing.caseStatusName = name; // the order is locked in Edit
    await store.save();
    return ok(status(existing), 'Status berhasil disimpan');
  });

  const categoriesOf = (companyId: number | null) =>
    store.caseCategories.filter((c) => companyId === null || companyId === 0 || c.companyId === companyId);

  app.post('/api/CaseCategory/GetAll', open, async (request) => {
    const b = requestBag(request);
    const rows = categoriesOf(num(b, 'companyId'));
    // A DataTables request (with draw) gets the table shape; the wizard gets the plain list.
    if (b.draw === undefined) return ok(rows.map((c) => category(ctx, c)));
    const groupName = (c: CaseCategory) =>
      store.caseCategoryGroups.get(c.caseCategoryGroupId)?.caseCategoryGroupName ?? '';
    return table(
      rows,
      tableParams(b),
      {
        columns: [
          { name: 'caseCategoryGroupName', value: groupName },
          { name: 'caseCategoryName', value: (c) => c.caseCategoryName },
          { name: 'caseCategoryId', value: (c) => c.caseCategoryId },
        ],
        searchable: (c) => [c.caseCategoryName, groupName(c)],
        defaultOrder: { column: 'caseCategoryId', dir: 'asc' },
      },
      (c) => category(ctx, c),
    );
  });

  app.post('/api/CaseCategoryGroup/GetAll', open, async (request) => {
    const companyId = num(body(request), 'companyId');
    return ok(
      store.caseCategoryGroups
        .filter((g) => !companyId || g.companyId === companyId)
        .map((g) => ({
          caseCategoryGroupId: g.caseCategoryGroupId,
          caseCategoryGroupName: g.caseCategoryGroupName,
          caseCategoryGroupCompanyId: g.companyId,
        })),
    );
  });

  const saveCategory = async (b: Record<string, unknown>, existing: CaseCategory | null) => {
    const name = str(b, 'caseCategoryName');
    const companyId = num(b, 'companyId') ?? existing?.companyId ?? null;
    const errors: string[] = [];
    if (!name) errors.push('Nama kategori wajib diisi');
    if (!store.companies.get(companyId)) errors.push('Perusahaan tidak ditemukan');
    const hasGroups = store.caseCategoryGroups.find((g) => g.companyId === companyId) !== undefined;
    const groupId = num(b, 'caseCategoryGroupId');
    if (hasGroups) {
      if (groupId === null) errors.push('Gorup kategori wajib diisi');
      else if (groupId <= 0 || store.caseCategoryGroups.get(groupId)?.companyId !== companyId)
        errors.push('Gorup kategori tidak valid');
    }
    if (errors.length) return warn(...errors);
    const row: CaseCategory = existing ?? {
      caseCategoryId: store.nextId('caseCategory'),
      caseCategoryName: name,
      caseCategoryGroupId: null,
      companyId: companyId!,
    };
    row.caseCategoryName = name;
    row.caseCategoryGroupId = hasGroups ? groupId : null;
    store.caseCategories.put(row);
    await store.save();
    return ok(category(ctx, row), 'Kategori berhasil disimpan');
  };
  app.post('/api/CaseCategory', async (request) => saveCategory(body(request), null));
  app.put('/api/CaseCategory', async (request) => {
    const b = body(request);
    const existing = store.caseCategories.get(num(b, 'caseCategoryId'));
    return existing ? saveCategory(b, existing) : warn(NOT_FOUND);
  });
}
