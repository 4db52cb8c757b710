/**
 * The case list filtered by the reporter's area (Peta Laporan's links, docs/product/insights.md): the
 * legacy's table cannot filter by it, so the case index answers, as for the overdue filter
 * (clocks/indexed.ts): the index rows of the caller's scope in the area and the list's filters, sorted
 * and paged here, then the rows of the page read from the caller's own table (a second fence) and
 * given their clocks as the list does. A small area (1 to 4 reports) is 409, as on the map.
 */
import type { CaseSearchRequest } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { INDEX_SORTS, type IndexedRow, indexedPage, sortIndexed } from '../../clocks/indexed.ts';
import { ApiProblem } from '../../errors.ts';
import { insightsScopeOf } from '../../insights/scope.ts';
import { areaRows } from '../../insights/service.ts';
import type { Paging } from '../../legacy/table.ts';
import { type CaseEndpoints, indexScopeOf } from './scope.ts';

/** What the index cannot combine with an area: the complaint number, free search, the pelapor's own list. */
function refuse(field: string): ApiProblem {
  return new ApiProblem('validation', { errors: { [field]: PROBLEM_MESSAGES.areaFilterUnavailable } });
}

/**
 * The cases of the caller's scope in the area of `q` (and its other filters), as sortable index rows.
 * Throws 409 `area-too-small` for an area of 1 to 4 reports in the list's range.
 */
export async function areaCases(
  request: FastifyRequest,
  endpoints: CaseEndpoints,
  q: CaseSearchRequest,
  p: Paging,
): Promise<IndexedRow[]> {
  const scope = indexScopeOf(request, endpoints);
  if (!scope) throw refuse('provinceId');
  if (q.number) throw refuse('number');
  if (p.search) throw refuse('search');
  if (!INDEX_SORTS.has(q.sort ?? '-createdAt')) throw refuse('sort');
  // The administrator may name any id: one the group does not list is 404 here, as on the map (the
  // index would only say it has not swept it).
  await insightsScopeOf(request.caller, endpoints.companyId);
  const rows = await areaRows(
    request.clocks,
    {
      companyIds: [scope.companyId],
      ...(scope.staffLineId === undefined ? {} : { staffLineId: scope.staffLineId }),
    },
    { from: q.from, to: q.to },
    { provinceId: q.provinceId, cityId: q.cityId, unlocated: q.unlocated },
  );
  return rows
    .filter(
      (row) =>
        (q.statusId === undefined || row.statusId === q.statusId) &&
        (q.caseLineId === undefined || row.lineId === q.caseLineId) &&
        (q.categoryId === undefined || row.categoryId === q.categoryId),
    )
    .map((row) => ({
      caseId: row.caseId,
      binding: row.binding,
      filedAt: row.filedAt,
      statusId: row.statusId,
      lineId: row.lineId,
      categoryId: row.categoryId,
    }));
}

/** One page of the area's cases, with the list's clocks and unread marks. */
export async function areaPage(
  request: FastifyRequest,
  endpoints: CaseEndpoints,
  q: CaseSearchRequest,
  p: Paging,
  cases: readonly IndexedRow[],
) {
  const { companyId, table } = endpoints;
  const scope = indexScopeOf(request, endpoints);
  if (!scope) throw refuse('provinceId');
  const sorted = await sortIndexed(request.clocks, companyId, cases, q.sort);
  const start = (p.page - 1) * p.pageSize;
  const shown = sorted.slice(start, start + p.pageSize);
  const { rows, clocks, unread } = await indexedPage(request.clocks, scope, table, shown);
  if (rows.size < shown.length) {
    request.log.warn(
      { legacyCall: table.name, missing: shown.length - rows.size },
      'insights: area rows not found',
    );
  }
  const legacyRows = shown.flatMap((row) => {
    const found = rows.get(row.caseId);
    return found ? [found] : [];
  });
  return { legacyRows, clocks, unread, total: cases.length };
}
