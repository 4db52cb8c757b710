/**
 * Overdue reports over a whole case table: the case list's "Terlambat" filter and the dashboard's tile.
 * The legacy cannot filter by a clock it does not know, so the gateway walks the caller's own case
 * table (the same legacy table and scope as the list, legacy/cases.ts `walkCaseTable`) in large pages
 * and keeps the overdue rows.
 */
import { type HandlingClock, isOverdue } from '@wbs/shared/handling-clock';
import { ApiProblem } from '../errors.ts';
import type { LegacyCaseRow } from '../legacy/case-schemas.ts';
import { type ClockContext, clocksOfRows, type RowClocks } from './service.ts';

export type OverdueRow = { row: LegacyCaseRow; clock: HandlingClock };

/**
 * The overdue rows of a walk, with their clocks (`partial`: some rows still had no clock, see
 * MAX_REFRESH_PER_REQUEST). A failing store is a 503: these are only clocks.
 */
export async function overdueOf(
  ctx: ClockContext,
  companyId: number,
  rows: readonly LegacyCaseRow[],
): Promise<{ overdue: OverdueRow[]; partial: boolean; unread: Map<number, number> }> {
  let result: RowClocks;
  try {
    result = await clocksOfRows(ctx, companyId, rows, 'overdue-candidates');
  } catch (error) {
    throw new ApiProblem('store-unavailable', { cause: error });
  }
  const { clocks, partial, unread } = result;
  const overdue: OverdueRow[] = [];
  for (const row of rows) {
    const clock = clocks.get(row.caseId);
    if (clock && isOverdue(clock)) overdue.push({ row, clock });
  }
  return { overdue, partial, unread };
}
