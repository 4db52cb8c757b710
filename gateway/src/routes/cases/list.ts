/** POST /cases/search: the server-side case list of the caller's scope, filtered and paged by the legacy. */
import {
  type CaseSearchRequest,
  type CaseSortField,
  caseListReply,
  caseSearchRequest,
} from '@wbs/shared/api/cases';
import { toLegacyRange } from '@wbs/shared/dates';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { overdueOf, type TableRef, walkCaseTable } from '../../clocks/overdue.ts';
import { clocksOfRows } from '../../clocks/service.ts';
import { caseRowSchema } from '../../legacy/case-schemas.ts';
import { type Paging, pageReply, paging } from '../../legacy/table.ts';
import { audit } from '../../logging.ts';
import { scopeOf } from '../../policies/scope.ts';
import { presentCaseRow } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';
import { caseEndpointsOf } from './scope.ts';

/** Our sort keys → the legacy case-table column names. */
const LEGACY_COLUMNS: Record<CaseSortField, string> = {
  createdAt: 'caseCreated',
  number: 'caseNumber',
  categoryName: 'caseCaseCategory',
  caseLineName: 'caseCaseLine',
  status: 'caseCaseStatus',
  companyName: 'caseCompany',
};

type Filters = Pick<CaseSearchRequest, 'from' | 'to' | 'number' | 'categoryId' | 'caseLineId' | 'statusId'>;

/** The filters of the case tables and exports, as the legacy names them (absent = no filter). */
export function legacyCaseFilters(f: Filters) {
  return {
    rangeDate: toLegacyRange(f.from, f.to),
    caseNumber: f.number || undefined,
    caseCaseCategoryId: f.categoryId,
    caseCaseLineId: f.caseLineId,
    caseCaseStatusId: f.statusId,
  };
}

function legacyOrder(sort: CaseSearchRequest['sort']) {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = (descending ? value.slice(1) : value) as CaseSortField;
  return [{ column: LEGACY_COLUMNS[field], dir: descending ? 'desc' : 'asc' }];
}

/**
 * The "Terlambat" filter: the legacy cannot filter by a clock, so the whole filtered table is walked
 * and the overdue rows are paged here.
 */
async function overdueList(
  request: FastifyRequest,
  companyId: number,
  table: TableRef,
  q: CaseSearchRequest,
  p: Paging,
) {
  const walk = await walkCaseTable(
    request,
    companyId,
    table,
    { search: p.search ? { value: p.search } : undefined, ...legacyCaseFilters(q) },
    legacyOrder(q.sort),
  );
  if (!walk.complete)
    request.log.warn({ legacyCall: table.name }, 'clocks: overdue filter read a partial table');
  const { overdue, partial } = await overdueOf(request, companyId, walk.rows);
  if (partial)
    request.log.warn({ legacyCall: table.name }, 'clocks: overdue filter over rows not all read yet');
  if (scopeOf(request).kind === 'all') {
    audit(request, 'case-list-read', { resource: 'company', resourceId: companyId, rows: overdue.length });
  }
  const start = (p.page - 1) * p.pageSize;
  return {
    items: overdue.slice(start, start + p.pageSize).map(({ row, clock }) => presentCaseRow(row, clock)),
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
          'only) → one company of the group (`companyId` required), pelapor → own cases.',
        tags,
        body: caseSearchRequest,
        response: { 200: caseListReply },
      }),
    },
    async (request) => {
      const q = request.body;
      const { companyId, table } = await caseEndpointsOf(request, q.companyId);
      const p = paging(q);
      if (q.overdue) return overdueList(request, companyId, table, q, p);
      const result = await request.legacy.table({
        name: table.name,
        method: 'POST',
        path: table.path,
        json: {
          draw: 1,
          start: (p.page - 1) * p.pageSize,
          length: p.pageSize,
          search: p.search ? { value: p.search } : undefined,
          order: legacyOrder(q.sort),
          ...legacyCaseFilters(q),
        },
        row: caseRowSchema,
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
      const clocks = await clocksOfRows(request, companyId, rows).then(
        (result) => result.clocks,
        (error: Error) => {
          // The list is still served, without its deadline column.
          request.log.error({ err: { message: error.message } }, 'clocks: list without clocks');
          return null;
        },
      );
      // The administrator reads across the group's companies without handling them: each list read
      // is on record too, not only its detail reads (decision #37).
      if (scopeOf(request).kind === 'all') {
        audit(request, 'case-list-read', { resource: 'company', resourceId: companyId, rows: rows.length });
      }
      return pageReply(p, { ...result, rows }, (row) => presentCaseRow(row, clocks?.get(row.caseId) ?? null));
    },
  );
}
