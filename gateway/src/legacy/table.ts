/** Our paging (`page`, `pageSize`, `search`) ↔ the legacy server-side table parameters. */
import type { ListQuery } from '@wbs/shared/api/common';
import { DEFAULT_PAGE_SIZE } from '@wbs/shared/constants';
import type { TableResult } from './client.ts';

export type Paging = { page: number; pageSize: number; search: string | undefined };

export function paging(query: ListQuery): Paging {
  return {
    page: query.page ?? 1,
    pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE,
    search: query.search?.trim() || undefined,
  };
}

/** DataTables-style query of the legacy tables. */
export function tableQuery(p: Paging): Record<string, string | number | undefined> {
  return { draw: 1, start: (p.page - 1) * p.pageSize, length: p.pageSize, search: p.search };
}

export function pageReply<R, T>(p: Paging, result: TableResult<R>, present: (row: R) => T) {
  return { items: result.rows.map(present), total: result.filtered, page: p.page, pageSize: p.pageSize };
}
