/**
 * The overdue query over the kept durations (case-index/store.ts `overdueOfIndex`) decides each report
 * as the handling clock's own rules decide it from the same facts (the candidates' kept clock row and
 * first two handler messages, clocks/service.ts `clockOf`), on PostgreSQL and PGlite, for generated
 * reports of every kind and after every kind of later write (test/generated-reports.ts), on days before,
 * within and after their deadlines, in every scope and filter the overdue list has:
 * - a report whose facts were read at the status the index holds is overdue exactly when its clock is;
 * - every other report that may still be late (not answered by its kept facts, or in Baru, where they do
 *   not hold) is handed back undecided, with the facts the caller decides it from;
 * - nothing else is returned.
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import { addDays, isOverdue, wibWallTime } from '@wbs/shared/handling-clock';
import { describe, expect, it } from 'vitest';
import { type IndexQuery, overdueCandidates, overdueOfIndex } from '../case-index/store.ts';
import { rowsOf, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { ENGINES } from '../test/databases.ts';
import { FINALS, generate, mutate, storeForEach } from '../test/generated-reports.ts';
import { refreshDurations } from './durations.ts';
import { clockOf } from './service.ts';

const DAYS = ['2024-03-10', '2025-01-01', '2026-06-01'];
const SCOPES: Omit<IndexQuery, 'finalStatusIds' | 'filedUpTo'>[] = [
  { companyId: 1 },
  { companyId: 2 },
  { companyId: 3 },
  { companyId: 1, staffLineId: 2 },
  { companyId: 3, staffLineId: null },
  { companyId: 1, statusId: 2 },
  { companyId: 2, statusId: STATUS_NEW_ID, categoryId: 1 },
  { companyId: 3, lineId: 3, from: '2024-06-01', to: '2025-06-30' },
];

/** The deadlines the clock reads when none are kept: irrelevant to whether a report is answered. */
const ANY_DEADLINES = { ackDays: 7, feedbackMonths: 3 };

async function expectSameDecisions(store: Store): Promise<{ overdue: number; undecided: number }> {
  await refreshDurations(store);
  const seen = { overdue: 0, undecided: 0 };
  for (const today of DAYS) {
    for (const scope of SCOPES) {
      const q = { ...scope, finalStatusIds: [...FINALS], filedUpTo: addDays(today, -1) };
      const where = `${JSON.stringify(scope)} on ${today}`;
      const expectedOverdue: number[] = [];
      const expectedUndecided: number[] = [];
      for (const c of await overdueCandidates(store, q)) {
        const messages = c.messageMs.map((ms) => wibWallTime(ms));
        const facts = {
          companyId: c.companyId,
          caseId: c.caseId,
          ...(c.clock ?? {
            caseBinding: c.binding,
            filedAt: c.filedAt,
            ...ANY_DEADLINES,
            statusIdSeen: null,
            logAcknowledgedAt: null,
            logAnsweredAt: null,
          }),
        };
        const clock = clockOf(facts, messages, today);
        if (c.clock && c.clock.statusIdSeen === c.statusId) {
          if (isOverdue(clock)) expectedOverdue.push(c.caseId);
        } else if (c.statusId === null || c.statusId === STATUS_NEW_ID || clock.stage !== 'done') {
          expectedUndecided.push(c.caseId);
        }
      }
      const found = await overdueOfIndex(store, { ...q, today, newStatusId: STATUS_NEW_ID });
      const ids = (rows: { caseId: number }[]) => rows.map((row) => row.caseId).sort((a, b) => a - b);
      expect(ids(found.overdue), `overdue, ${where}`).toEqual(expectedOverdue.sort((a, b) => a - b));
      expect(ids(found.undecided), `undecided, ${where}`).toEqual(expectedUndecided.sort((a, b) => a - b));
      seen.overdue += expectedOverdue.length;
      seen.undecided += expectedUndecided.length;
    }
  }
  return seen;
}

describe.each(ENGINES)('overdue decided from the kept durations on $engine', ({ engine }) => {
  const storeOf = storeForEach(engine);

  it.each([11, 12, 13])(
    'as the clock decides from the same facts, before and after every kind of later write (seed %i)',
    async (seed) => {
      const store = storeOf();
      await generate(store, seed, 400);
      const before = await expectSameDecisions(store);
      await mutate(store, seed);
      const after = await expectSameDecisions(store);
      // Both kinds were met, before and after: the comparison was not of empty sets.
      for (const seen of [before, after]) {
        expect(seen.overdue).toBeGreaterThan(50);
        expect(seen.undecided).toBeGreaterThan(10);
      }
    },
    180_000,
  );
});

describe.each(ENGINES)('the kept durations of a large write on $engine', ({ engine }) => {
  const storeOf = storeForEach(engine);

  it('brings the planner statistics of the joined tables up to date after a large refresh', async () => {
    const store = storeOf();
    await generate(store, 14, 1_200);
    const analysed = async () =>
      (
        await rowsOf<{ table: string }>(
          store.db,
          sql`select distinct tablename as table from pg_stats
               where tablename in ('case_index', 'case_clock', 'case_handling') order by 1`,
        )
      ).map((row) => row.table);
    // PGlite has no autovacuum, and this machine's PostgreSQL runs without it: nothing analysed yet.
    const before = await analysed();
    expect(await refreshDurations(store)).toBeGreaterThanOrEqual(1_200);
    expect(await analysed()).toEqual(['case_clock', 'case_handling', 'case_index']);
    expect(before).not.toContain('case_handling');
  }, 120_000);
});
