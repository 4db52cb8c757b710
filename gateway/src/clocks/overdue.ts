/**
 * Overdue reports over a whole case table: the case list's "Terlambat" filter and the dashboard's tile.
 * The legacy cannot filter by a clock it does not know, so the gateway walks the caller's own case
 * table (the same legacy table and scope as the list) in large pages and keeps the overdue rows.
 */
import { type HandlingClock, isOverdue } from '@wbs/shared/handling-clock';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { caseRowSchema, type LegacyCaseRow } from '../legacy/case-schemas.ts';
import { clocksOfRows, type RowClocks } from './service.ts';

/** Rows per legacy call of a walk, and the most a walk reads (beyond it the answer is partial). */
export const WALK_PAGE_SIZE = 500;
export const WALK_MAX_ROWS = 5_000;

export type TableRef = { name: string; path: string };
export type WalkFilters = Record<string, unknown>;

export type WalkResult = { rows: LegacyCaseRow[]; complete: boolean };

/** Every row of the caller's case table matching `filters` (at most WALK_MAX_ROWS), in `order`. */
export async function walkCaseTable(
  request: FastifyRequest,
  companyId: number,
  table: TableRef,
  filters: WalkFilters,
  order: unknown,
): Promise<WalkResult> {
  const rows: LegacyCaseRow[] = [];
  for (let start = 0; start < WALK_MAX_ROWS; start += WALK_PAGE_SIZE) {
    const page = await request.legacy.table({
      name: table.name,
      method: 'POST',
      path: table.path,
      json: { draw: 1, start, length: WALK_PAGE_SIZE, order, ...filters },
      row: caseRowSchema,
    });
    rows.push(...page.rows.filter((row) => row.caseCompanyId === companyId));
    if (page.rows.length < WALK_PAGE_SIZE || start + WALK_PAGE_SIZE >= page.filtered) {
      return { rows, complete: true };
    }
  }
  return { rows, complete: false };
}

export type OverdueRow = { row: LegacyCaseRow; clock: HandlingClock };

/**
 * The overdue rows of a walk, with their clocks (`partial`: some rows still had no clock, see
 * MAX_REFRESH_PER_REQUEST). A failing store is a 503: these are only clocks.
 */
export async function overdueOf(
  request: FastifyRequest,
  companyId: number,
  rows: readonly LegacyCaseRow[],
): Promise<{ overdue: OverdueRow[]; partial: boolean }> {
  let result: RowClocks;
  try {
    result = await clocksOfRows(request, companyId, rows, 'overdue-candidates');
  } catch (error) {
    throw new ApiProblem('store-unavailable', { cause: error });
  }
  const { clocks, partial } = result;
  const overdue: OverdueRow[] = [];
  for (const row of rows) {
    const clock = clocks.get(row.caseId);
    if (clock && isOverdue(clock)) overdue.push({ row, clock });
  }
  return { overdue, partial };
}
