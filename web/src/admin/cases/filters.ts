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
  /**
   * The area a Peta Laporan link opened the list for: a province (and city), or with `unlocated`
   * the reports naming none (within the province when one is given). 0/false: no area filter.
   */
  provinceId: number;
  cityId: number;
  unlocated: boolean;
};

/** The area part of the filters (cleared together: it is one filter on screen). */
export const NO_AREA = { provinceId: 0, cityId: 0, unlocated: false } as const;

export const hasArea = (filters: Filters): boolean =>
  filters.provinceId > 0 || filters.cityId > 0 || filters.unlocated;

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

/**
 * The filters a list opened at `?search` starts with: the dashboard links pass period, category and
 * status; Peta Laporan's pass period, area and (when one was chosen there) the company.
 */
export function filtersFromQuery(search: string, picksCompany: boolean, username: string): Filters {
  const params = new URLSearchParams(search);
  const provinceId = Number(params.get('province')) || 0;
  return {
    ...rangeFromQuery(params),
    number: '',
    categoryId: Number(params.get('category')) || 0,
    caseLineId: 0,
    statusId: Number(params.get('status')) || 0,
    companyId: picksCompany ? Number(params.get('company')) || rememberedCompany(username) : 0,
    // The dashboard's overdue tile links here with ?overdue=1.
    overdue: params.get('overdue') === '1',
    provinceId,
    // A city only within its province, as the map passes it.
    cityId: provinceId ? Number(params.get('city')) || 0 : 0,
    unlocated: params.get('unlocated') === '1',
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
    provinceId: filters.provinceId || undefined,
    cityId: filters.cityId || undefined,
    unlocated: filters.unlocated || undefined,
    page,
    pageSize,
    sort: '-createdAt',
  };
}

/**
 * The body of POST /cases/export: the list's filters without paging and sort, and without the filters
 * only the case index answers (overdue, area): the legacy's export cannot apply them, and the page
 * says so (indexOnlyFiltersOf).
 */
export function exportOf(filters: Filters, picksCompany: boolean): ApiBody<'post', '/api/v1/cases/export'> {
  const {
    page: _page,
    pageSize: _size,
    sort: _sort,
    overdue: _overdue,
    provinceId: _province,
    cityId: _city,
    unlocated: _unlocated,
    ...body
  } = searchOf(filters, 1, 1, picksCompany);
  return body;
}

/** The list's filters Ekspor Data cannot apply, as the note under it names them. */
export function indexOnlyFiltersOf(filters: Filters): string[] {
  return [...(filters.overdue ? ['terlambat'] : []), ...(hasArea(filters) ? ['wilayah'] : [])];
}
