/** POST /cases/search: the server-side case list of the caller's scope, filtered and paged by the legacy. */
import { type CaseSearchRequest, caseListReply, caseSearchRequest } from '@wbs/shared/api/cases';
import { can } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INDEX_SORTS, indexedOverdue, indexedPage, sortIndexed } from '../../clocks/indexed.ts';
import { overdueOf } from '../../clocks/overdue.ts';
import { clocksOfRows } from '../../clocks/service.ts';
import { hasArea } from '../../insights/service.ts';
import { type CaseTable, caseFilters, caseOrder, casePage, walkCaseTable } from '../../legacy/cases.ts';
import { type Paging, pageReply, paging } from '../../legacy/table.ts';
import { audit } from '../../logging.ts';
import { subjectOf } from '../../policies/plugin.ts';
import { scopeOf } from '../../policies/scope.ts';
import { presentCaseListRow } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';
import { areaCases, areaPage } from './area.ts';
import { type CaseEndpoints, caseEndpointsOf, indexScopeOf } from './scope.ts';

/**
 * The unread marks of the rows shown: read with the clocks' inputs from the very rows the list shows,
 * so they follow its scope exactly; handlers only (null for other readers, and when the store failed).
 */
function marksFor(request: FastifyRequest, unread: Map<number, number> | null): Map<number, number> | null {
  return can(subjectOf(request), 'case-messages:marks') ? unread : null;
}

const unreadOf = (marks: Map<number, number> | null, caseId: number) =>
  marks === null ? null : (marks.get(caseId) ?? 0);

/**
 * The "Terlambat" filter: the legacy cannot filter by a clock. A company the case index has swept
 * once is answered from the index (complete, clocks/indexed.ts); otherwise, and for what the index
 * cannot filter or sort by (the complaint number, free search, the pelapor's own cases), the whole
 * filtered table is walked and the overdue rows are paged here.
 */
async function overdueList(
  request: FastifyRequest,
  endpoints: CaseEndpoints,
  q: CaseSearchRequest,
  p: Paging,
  /** Only these cases (the map's area filter, answered from the index). */
  only?: ReadonlySet<number>,
) {
  const { companyId, table } = endpoints;
  const scope =
    !q.number && !p.search && INDEX_SORTS.has(q.sort ?? '-createdAt')
      ? indexScopeOf(request, endpoints)
      : null;
  const found = scope ? await indexedOverdue(request.clocks, scope, q) : null;
  if (!scope || !found) return walkedOverdueList(request, companyId, table, q, p, only);
  const indexed = only ? { ...found, overdue: found.overdue.filter((row) => only.has(row.caseId)) } : found;
  if (indexed.partial)
    request.log.warn({ legacyCall: table.name }, 'clocks: overdue filter over rows not all read yet');
  if (scopeOf(request.caller).kind === 'all') {
    audit(request, 'case-list-read', {
      resource: 'company',
      resourceId: companyId,
      rows: indexed.overdue.length,
    });
  }
  const sorted = await sortIndexed(request.clocks, companyId, indexed.overdue, q.sort);
  const start = (p.page - 1) * p.pageSize;
  const shown = sorted.slice(start, start + p.pageSize);
  const { rows, clocks, unread } = await indexedPage(request.clocks, scope, table, shown);
  if (rows.size < shown.length) {
    request.log.warn(
      { legacyCall: table.name, missing: shown.length - rows.size },
      'clocks: overdue rows not found',
    );
  }
  const marks = marksFor(request, unread);
  const items = [];
  for (const row of shown) {
    const legacyRow = rows.get(row.caseId);
    if (!legacyRow) continue;
    const clock = clocks?.get(row.caseId) ?? null;
    items.push(presentCaseListRow(legacyRow, clock, unreadOf(marks, row.caseId)));
  }
  return { items, total: indexed.overdue.length, page: p.page, pageSize: p.pageSize };
}

/** The overdue filter by walking the caller's filtered table (at most WALK_MAX_ROWS rows). */
async function walkedOverdueList(
  request: FastifyRequest,
  companyId: number,
  table: CaseTable,
  q: CaseSearchRequest,
  p: Paging,
  only?: ReadonlySet<number>,
) {
  const walk = await walkCaseTable(
    request.legacy,
    table,
    companyId,
    { search: p.search ? { value: p.search } : undefined, ...caseFilters(q) },
    caseOrder(q.sort),
  );
  if (!walk.complete)
    request.log.warn({ legacyCall: table.name }, 'clocks: overdue filter read a partial table');
  const read = await overdueOf(request.clocks, companyId, walk.rows);
  const { partial, unread } = read;
  const overdue = only ? read.overdue.filter(({ row }) => only.has(row.caseId)) : read.overdue;
  if (partial)
    request.log.warn({ legacyCall: table.name }, 'clocks: overdue filter over rows not all read yet');
  if (scopeOf(request.caller).kind === 'all') {
    audit(request, 'case-list-read', { resource: 'company', resourceId: companyId, rows: overdue.length });
  }
  const start = (p.page - 1) * p.pageSize;
  const shown = overdue.slice(start, start + p.pageSize);
  const marks = marksFor(request, unread);
  return {
    items: shown.map(({ row, clock }) => presentCaseListRow(row, clock, unreadOf(marks, row.caseId))),
    total: overdue.length,
    page: p.page,
    pageSize: p.pageSize,
  };
}

export function caseListRoutes(app: FastifyInstance, tags: string[]) {
  app.post<{ Body: CaseSearchRequest }>(
    '/cases/search',
    {
      config: { policy: 'cases:list' },
      schema: routeSchema({
        summary: 'Daftar laporan',
        description:
          "The case list (the resource map's `GET cases`): a POST with the filters in the body, because the " +
          '`number` filter is a complaint number, which must never appear in a URL (proxy and access logs). ' +
          'The table follows the session: company admin → the company, analyst → its line and new ' +
          'cases, partner users → one company of the partner (`companyId` required), administrator (type 1, read ' +
          'only) → one company of the group (`companyId` required), pelapor → own cases. For handlers (types ' +
          '2–5) each row carries `unreadFromReporter`, the reporter messages no handler has read yet; other ' +
          'readers get null. `provinceId`/`cityId`/`unlocated` (Peta Laporan’s links) are answered from the ' +
          'case index like `overdue`: 409 `area-too-small` for an area of 1 to 4 reports in the range, 400 ' +
          'combined with `number`, `search` or a sort the index cannot give, or for the pelapor.',
        tags,
        body: caseSearchRequest,
        response: { 200: caseListReply },
      }),
    },
    async (request) => {
      const q = request.body;
      const endpoints = await caseEndpointsOf(request, q.companyId);
      const { companyId, table } = endpoints;
      const p = paging(q);
      if (hasArea(q)) {
        const cases = await areaCases(request, endpoints, q, p);
        if (q.overdue) return overdueList(request, endpoints, q, p, new Set(cases.map((c) => c.caseId)));
        const page = await areaPage(request, endpoints, q, p, cases);
        if (scopeOf(request.caller).kind === 'all') {
          audit(request, 'case-list-read', { resource: 'company', resourceId: companyId, rows: page.total });
        }
        const areaMarks = marksFor(request, page.unread);
        return {
          items: page.legacyRows.map((row) =>
            presentCaseListRow(row, page.clocks?.get(row.caseId) ?? null, unreadOf(areaMarks, row.caseId)),
          ),
          total: page.total,
          page: p.page,
          pageSize: p.pageSize,
        };
      }
      if (q.overdue) return overdueList(request, endpoints, q, p);
      const result = await casePage(request.legacy, table, {
        start: (p.page - 1) * p.pageSize,
        length: p.pageSize,
        search: p.search ? { value: p.search } : undefined,
        order: caseOrder(q.sort),
        filters: caseFilters(q),
      });
      // A second fence: the legacy chose the rows by our path, but a row of another company never leaves.
      const foreign = result.rows.filter((row) => row.caseCompanyId !== companyId).length;
      if (foreign > 0) {
        request.log.error(
          { legacyCall: table.name, foreignRows: foreign },
          'legacy listed cases outside the scope',
        );
      }
      const rows = result.rows.filter((row) => row.caseCompanyId === companyId);
      const read = await clocksOfRows(request.clocks, companyId, rows).catch((error: Error) => {
        // The list is still served, without its deadline column and marks.
        request.log.error({ err: { message: error.message } }, 'clocks: list without clocks');
        return null;
      });
      const clocks = read?.clocks ?? null;
      const marks = marksFor(request, read?.unread ?? null);
      // The administrator reads across the group's companies without handling them: each list read
      // is on record too, not only its detail reads (docs/product/roles-and-screens.md#administrator).
      if (scopeOf(request.caller).kind === 'all') {
        audit(request, 'case-list-read', { resource: 'company', resourceId: companyId, rows: rows.length });
      }
      return pageReply(p, { ...result, rows }, (row) =>
        presentCaseListRow(row, clocks?.get(row.caseId) ?? null, unreadOf(marks, row.caseId)),
      );
    },
  );
}
