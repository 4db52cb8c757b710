/** The case list's filters: from the address, and as the body of the search and the export. */
import { isSupportedIsoDate, monthToDateRange } from '@wbs/shared';
import type { ApiBody } from '../../api/client.ts';
import type { CaseSearch } from '../../case/search.ts';
import { rememberedCompany } from '../../dashboard/companyChoice.ts';

export type Filters = {
  from: string;
  to: string;
  number: string;
  categoryId: number;
  caseLineId: number;
  statusId: number;
  companyId: number;
  /** Only reports past their handling deadline. */
  overdue: boolean;
};

/** The case id of a nested location `/{id}` (the detail), or null on the list itself. */
export function caseIdIn(location: string): number | null {
  const match = /^\/(\d{1,9})\/?$/.exec(location);
  return match ? Number(match[1]) : null;
}

/**
 * The list's period: `from`/`to` of the address when valid (the dashboard's bars pass theirs),
 * never later than today (spec §9); otherwise the start of this month to today.
 */
function rangeFromQuery(params: URLSearchParams): { from: string; to: string } {
  const fallback = monthToDateRange();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (!isSupportedIsoDate(from) || !isSupportedIsoDate(to) || from > to || to > fallback.to) return fallback;
  return { from, to };
}

/** The filters a list opened at `?search` starts with (the dashboard links pass period, category, status). */
export function filtersFromQuery(search: string, picksCompany: boolean, username: string): Filters {
  const params = new URLSearchParams(search);
  return {
    ...rangeFromQuery(params),
    number: '',
    categoryId: Number(params.get('category')) || 0,
    caseLineId: 0,
    statusId: Number(params.get('status')) || 0,
    companyId: picksCompany ? rememberedCompany(username) : 0,
    // The dashboard's overdue tile links here with ?overdue=1.
    overdue: params.get('overdue') === '1',
  };
}

/** The body of POST /cases/search: filters, paging and sort (never a query string: see the route). */
export function searchOf(
  filters: Filters,
  page: number,
  pageSize: number,
  picksCompany: boolean,
): CaseSearch {
  return {
    from: filters.from,
    to: filters.to,
    number: filters.number.trim() || undefined,
    categoryId: filters.categoryId || undefined,
    caseLineId: filters.caseLineId || undefined,
    statusId: filters.statusId || undefined,
    companyId: picksCompany ? filters.companyId || undefined : undefined,
    overdue: filters.overdue || undefined,
    page,
    pageSize,
    sort: '-createdAt',
  };
}

/** The body of POST /cases/export: the list's filters without paging and sort. */
export function exportOf(filters: Filters, picksCompany: boolean): ApiBody<'post', '/api/v1/cases/export'> {
  const { page: _page, pageSize: _size, sort: _sort, ...body } = searchOf(filters, 1, 1, picksCompany);
  return body;
}
