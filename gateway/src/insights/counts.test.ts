/**
 * The figures counted in SQL (counts.ts) equal the straightforward JavaScript computation over the same
 * index rows (test/insights-reference.ts: one row per report through the case detail's own clock), on
 * PostgreSQL and PGlite, for generated reports: every kind of clock fact (none, Baru, a log that
 * acknowledged and answered at once, later or out of order), handler and reporter messages of the same
 * and of other incarnations, unbound rows inside and outside the grace, equal seconds of log and
 * message, returns, companies with their own deadlines, analysts' lines, regions the legacy lacks.
 */
import { DEFAULT_ACK_DAYS, DEFAULT_FEEDBACK_MONTHS } from '@wbs/shared/handling-clock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refreshDurations } from '../clocks/durations.ts';
import { openPostgres } from '../store/database.ts';
import { rowsOf, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { ENGINES } from '../test/databases.ts';
import {
  CHANGED_DEADLINES,
  FINALS,
  generate,
  mutate,
  type OpenedStore,
  OWN_DEADLINES,
  openStore,
  storeForEach,
} from '../test/generated-reports.ts';
import {
  cityFigures,
  type FigureContext,
  provinceFigures,
  figuresOf as referenceFigures,
  monthlyOf as referenceMonthly,
} from '../test/insights-reference.ts';
import { breakdownCounts, cityCounts, figureCounts, placeCounts } from './counts.ts';
import { cityFiguresOf, figuresOf, monthlyOf, provinceFiguresOf } from './figures.ts';
import { type FigureScope, figureRows } from './store.ts';

const PROVINCES = new Set([11, 32, 35]);
const CITIES = new Set([3201, 3273, 3578]);
const DEFAULTS = { ackDays: DEFAULT_ACK_DAYS, feedbackMonths: DEFAULT_FEEDBACK_MONTHS };
/**
 * As the reply carries it (JSON): JavaScript's Math.round gives -0 for a duration just under zero
 * (a message a few hours before the filing time), SQL 0; both are sent as 0.
 */
const sent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const SCOPES: { label: string; scope: FigureScope; companies: number[] }[] = [
  { label: 'the group', scope: { companyIds: [1, 2, 3] }, companies: [1, 2, 3] },
  { label: 'a company with its own deadlines', scope: { companyIds: [2] }, companies: [2] },
  { label: "an analyst's line", scope: { companyIds: [1], staffLineId: 2 }, companies: [1] },
  { label: 'an analyst of no line', scope: { companyIds: [3], staffLineId: null }, companies: [3] },
];
const RANGES = [
  { from: '2024-01-01', to: '2026-03-31' },
  { from: '2024-07-15', to: '2025-02-10' },
  { from: '2025-01-01', to: '2025-01-01' },
];

const CONTEXT: FigureContext = {
  finals: FINALS,
  deadlines: (companyId) => (companyId === OWN_DEADLINES.companyId ? OWN_DEADLINES : DEFAULTS),
  today: '2026-06-01',
};

/** Statistik's key figures of every scope and range equal the reference's; returns the acknowledgements measured. */
async function expectKeyFigures(store: Store, context = CONTEXT): Promise<number> {
  let measured = 0;
  for (const { label, scope, companies } of SCOPES) {
    for (const range of RANGES) {
      const where = `${label}, ${range.from}..${range.to}`;
      const rows = await figureRows(store, scope, range, true);
      const counted = await figureCounts(store, scope, range, {
        finals: FINALS,
        newStatusId: 1,
        defaults: DEFAULTS,
      });
      expect(sent(figuresOf(counted.get(null))), where).toEqual(sent(referenceFigures(rows, context)));
      for (const companyId of companies) {
        const own = rows.filter((row) => row.companyId === companyId);
        expect(sent(figuresOf(counted.get(companyId))), `${where}, company ${companyId}`).toEqual(
          sent(referenceFigures(own, context)),
        );
      }
      measured += referenceFigures(rows, context).acknowledge.measured;
    }
  }
  return measured;
}

/** The reference's context after `mutate`: company 3's own deadlines. */
const MUTATED: FigureContext = {
  ...CONTEXT,
  deadlines: (companyId) =>
    companyId === CHANGED_DEADLINES.companyId ? CHANGED_DEADLINES : CONTEXT.deadlines(companyId),
};

describe.each(ENGINES)('figures counted in SQL on $engine', ({ engine }) => {
  const storeOf = storeForEach(engine);
  let store: Store;
  beforeEach(() => {
    store = storeOf();
  });

  it.each([1, 2, 3])(
    'equal the JavaScript computation over the same rows (seed %i)',
    async (seed) => {
      await generate(store, seed, 400);
      const measured = await expectKeyFigures(store);
      for (const { label, scope } of SCOPES) {
        for (const range of RANGES) {
          const where = `${label}, ${range.from}..${range.to}`;
          const rows = await figureRows(store, scope, range, true);
          const breakdowns = await breakdownCounts(store, scope, range, FINALS);
          expect(monthlyOf(breakdowns.months, range.from, range.to), where).toEqual(
            referenceMonthly(rows, range.from, range.to, FINALS),
          );
          for (const id of [1, 2, 3, 4]) {
            expect(breakdowns.channels.get(id) ?? 0, `${where}, channel ${id}`).toBe(
              rows.filter((row) => row.channelId === id).length,
            );
          }
          for (const id of FINALS) {
            expect(breakdowns.statuses.get(id) ?? 0, `${where}, status ${id}`).toBe(
              rows.filter((row) => row.statusId === id).length,
            );
          }

          const places = provinceFiguresOf(await placeCounts(store, scope, range), PROVINCES);
          expect(places, where).toEqual(provinceFigures(rows, PROVINCES));
          for (const provinceId of PROVINCES) {
            expect(
              cityFiguresOf(await cityCounts(store, scope, range, provinceId), CITIES),
              `${where}, province ${provinceId}`,
            ).toEqual(cityFigures(rows, PROVINCES, provinceId, CITIES));
          }
        }
      }
      // The generated reports did give durations to compare, not only empty figures.
      expect(measured).toBeGreaterThan(100);
    },
    120_000,
  );

  it.each([4, 5])(
    'follow every later write of the facts the kept durations are derived from (seed %i)',
    async (seed) => {
      await generate(store, seed, 300);
      expect(await expectKeyFigures(store)).toBeGreaterThan(50);
      await mutate(store, seed);
      expect(await expectKeyFigures(store, MUTATED)).toBeGreaterThan(50);
      // Nothing is left to derive, and a kept row only for an indexed report.
      const [left] = await rowsOf<{ stale: number; orphans: number }>(
        store.db,
        sql`select (select count(*)::int from case_handling_stale) as stale,
          (select count(*)::int from case_handling h where not exists (select 1 from case_index i
            where i.company_id = h.company_id and i.case_id = h.case_id)) as orphans`,
      );
      expect(left).toEqual({ stale: 0, orphans: 0 });
    },
    120_000,
  );

  it('marks a report stale only when a fact its durations depend on changed', async () => {
    await generate(store, 6, 50);
    await figureCounts(store, { companyIds: [1, 2, 3] }, RANGES[0]!, {
      finals: FINALS,
      newStatusId: 1,
      defaults: DEFAULTS,
    });
    const stale = async () =>
      Number(
        (await rowsOf<{ n: number }>(store.db, sql`select count(*)::int as n from case_handling_stale`))[0]!
          .n,
      );
    expect(await stale()).toBe(0);
    // The watcher's sweeps write the same facts again; statuses and details are read when counted.
    await store.db.execute(sql`update case_clock set updated_at = now()`);
    await store.db.execute(sql`update case_index set status_id = 2, detail_read = true, changed_at = now()`);
    await store.db.execute(sql`insert into case_message (company_id, case_id, case_binding, author_kind,
        key_id, sealed) select company_id, case_id, case_binding, 'reporter', 'k', 'x' from case_index`);
    expect(await stale()).toBe(0);
    await store.db.execute(sql`update case_clock set log_answered_at = '2025-01-02T03:04:05'
      where case_id = (select min(case_id) from case_clock)`);
    expect(await stale()).toBe(1);
  });

  it('leaves out a report whose facts cannot be read, keeps every other, and counts it unmeasured', async () => {
    await generate(store, 7, 120);
    const all = { companyIds: [1, 2, 3] };
    const ever = { from: '2000-01-01', to: '2030-12-31' };
    const input = { finals: FINALS, newStatusId: 1, defaults: DEFAULTS };
    const before = figuresOf((await figureCounts(store, all, ever, input)).get(null));
    const [damaged] = await rowsOf<{ company_id: number; case_id: number; filed_at: string }>(
      store.db,
      sql`select k.company_id, k.case_id, k.filed_at from case_clock k
            join case_index i on i.company_id = k.company_id and i.case_id = k.case_id
                             and i.case_binding = k.case_binding
            join case_handling h on h.company_id = k.company_id and h.case_id = k.case_id
           where h.kept and h.ack_days_taken is not null
           order by k.company_id, k.case_id limit 1`,
    );
    expect(damaged).toBeDefined();
    const at = sql`company_id = ${damaged!.company_id} and case_id = ${damaged!.case_id}`;
    // Written by hand: no calendar has 30 February. Another report changes in the same batch.
    await store.db.execute(sql`update case_clock set filed_at = '2025-02-30T10:00:00' where ${at}`);
    await store.db.execute(sql`update case_clock set log_answered_at = '2025-01-02T03:04:05'
      where case_id = (select max(case_id) from case_clock)`);
    const warned: Record<string, unknown>[] = [];
    const log = { warn: (fields: Record<string, unknown>) => warned.push(fields) };
    const after = figuresOf((await figureCounts(store, all, ever, { ...input, log })).get(null));
    expect(warned).toEqual([{ companyId: damaged!.company_id, caseId: damaged!.case_id }]);
    const kept = async () =>
      (
        await rowsOf<{ kept: number; indexed: number; stale: number; damaged: boolean }>(
          store.db,
          sql`select (select count(*)::int from case_handling) as kept,
                (select count(*)::int from case_index where filed_at <> '') as indexed,
                (select count(*)::int from case_handling_stale) as stale,
                exists (select 1 from case_handling where ${at}) as damaged`,
        )
      )[0]!;
    const left = await kept();
    expect(left).toEqual({ kept: left.indexed - 1, indexed: left.indexed, stale: 0, damaged: false });
    // Counted as filed, without its durations.
    expect(after.filed).toBe(before.filed);
    expect(after.acknowledge.measured).toBe(before.acknowledge.measured - 1);

    // Mended by a later write of its facts: derived again.
    await store.db.execute(sql`update case_clock set filed_at = ${damaged!.filed_at} where ${at}`);
    await expectKeyFigures(store);
    expect(await kept()).toMatchObject({ stale: 0, damaged: true });
  });
});

describe('kept durations refreshed by two replicas at once on postgresql', () => {
  let opened: OpenedStore;
  let store: Store;

  beforeAll(async () => {
    opened = await openStore('postgresql');
    store = opened.store;
  }, 120_000);
  afterAll(() => opened?.close());

  it('derive what one would while facts are written', async () => {
    await generate(store, 7, 300);
    const replica = await openPostgres(opened.url as string, () => {});
    try {
      // Refreshes from both pools, again and again, while the writes of every kind go on: none may
      // fail (a deadlock, a conflict on a kept row) nor leave an older derivation over a newer one.
      let writing = true;
      const refreshing = async (db: Pick<Store, 'db'>) => {
        while (writing) await refreshDurations(db);
      };
      const both = Promise.all([refreshing(store), refreshing(replica)]);
      await mutate(store, 7).finally(() => {
        writing = false;
      });
      await both;
    } finally {
      await replica.close();
    }
    // What the refreshes left is counted as it stands (figureCounts refreshes what is pending first).
    expect(await expectKeyFigures(store, MUTATED)).toBeGreaterThan(50);
  }, 120_000);
});
