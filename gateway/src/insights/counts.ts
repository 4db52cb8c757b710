/**
 * Peta Laporan's and Statistik's figures counted in the store (docs/adr/0068-insights-counted-in-sql.md):
 * one GROUP BY per figure over the index rows of the scope and range (insights/store.ts `scopeWhere`),
 * never one row per report to the gateway. The handling durations are each report's kept ones
 * (clocks/durations.ts, docs/adr/0069-handling-durations-kept-per-report.md), derived by the same rules
 * as the case detail's clock; what depends on the moment of counting is applied here: a report in Baru
 * is measured without kept facts, and the company's deadlines stand where none were kept.
 */
import { type DurationsLog, refreshDurations } from '../clocks/durations.ts';
import { rowsOf, type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { type FigureRange, type FigureScope, scopeWhere } from './store.ts';

const count = (value: number | string | null | undefined) => (value == null ? 0 : Number(value));
const nullableNumber = (value: number | string | null | undefined) => (value == null ? null : Number(value));

/** A float8[] as node-postgres (numbers) or PGlite (numbers, or the array's text) hands it over. */
function floatList(value: unknown): (number | null)[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : String(value).replace(/[{}]/g, '').split(',');
  return items.map((item) => (item === null || item === 'NULL' ? null : Number(item)));
}

/** `column in (ids)`, false for no ids (SQL has no empty list). */
function inList(column: SQL, ids: Iterable<number>): SQL {
  const list = [...ids];
  return list.length === 0 ? sql`false` : sql`${column} in ${list}`;
}

/** Where the reports of the range lie: unread (detail not read yet), unlocated, or a province. */
export type PlaceCounts = {
  unread: number;
  /** Anonymous, or naming no province (a province the legacy's list lacks is the caller's to add). */
  unlocated: number;
  byProvince: Map<number, number>;
};

/** insights/figures.ts placeOf, counted: anonymous reports carry no location, only read details one. */
export async function placeCounts(
  store: Store,
  scope: FigureScope,
  range: FigureRange,
): Promise<PlaceCounts> {
  const counts: PlaceCounts = { unread: 0, unlocated: 0, byProvince: new Map() };
  if (scope.companyIds.length === 0) return counts;
  const rows = await rowsOf<{ kind: number; province_id: number | null; n: number }>(
    store.db,
    sql`
    select p.kind, p.province_id, count(*)::int as n
      from (select case when not i.detail_read then 0
                        when i.anonymous is distinct from false or i.province_id is null then 1
                        else 2 end as kind,
                   case when i.detail_read and i.anonymous = false then i.province_id end as province_id
              from case_index i
             where ${scopeWhere(scope, range)}) p
     group by p.kind, p.province_id`,
  );
  for (const row of rows) {
    const n = count(row.n);
    if (Number(row.kind) === 0) counts.unread += n;
    else if (Number(row.kind) === 1) counts.unlocated += n;
    else counts.byProvince.set(Number(row.province_id), n);
  }
  return counts;
}

/** The located reports of one province per city (null: naming none). */
export async function cityCounts(
  store: Store,
  scope: FigureScope,
  range: FigureRange,
  provinceId: number,
): Promise<Map<number | null, number>> {
  const counts = new Map<number | null, number>();
  if (scope.companyIds.length === 0) return counts;
  const rows = await rowsOf<{ city_id: number | null; n: number }>(
    store.db,
    sql`
    select i.city_id, count(*)::int as n
      from case_index i
     where ${scopeWhere(scope, range)}
       and i.detail_read and i.anonymous = false and i.province_id = ${provinceId}
     group by i.city_id`,
  );
  for (const row of rows) counts.set(nullableNumber(row.city_id), count(row.n));
  return counts;
}

/** A handling step's durations as counted: how many, the middle two, the 90th percentile, on time. */
export type StepCounts = {
  measured: number;
  /** The lower and upper middle of the sorted days (the same one when `measured` is odd). */
  lowMiddle: number | null;
  highMiddle: number | null;
  p90: number | null;
  met: number;
};

export type FigureCounts = {
  filed: number;
  closed: number;
  returned: number;
  anonymous: { anonymous: number; identified: number; unknown: number };
  acknowledge: StepCounts;
  answer: StepCounts;
};

export type FigureCountsInput = {
  finals: ReadonlySet<number>;
  /** Baru: a report in it (or of no status) has no log facts, only the company's deadlines. */
  newStatusId: number;
  defaults: { ackDays: number; feedbackMonths: number };
  /** Where a report whose durations cannot be derived is said (clocks/durations.ts). */
  log?: DurationsLog;
};

/**
 * The key figures of each company of the scope and of the whole scope (`companyId` null), counted.
 * A company with no report in the range has no entry.
 */
export async function figureCounts(
  store: Store,
  scope: FigureScope,
  range: FigureRange,
  input: FigureCountsInput,
): Promise<Map<number | null, FigureCounts>> {
  const result = new Map<number | null, FigureCounts>();
  if (scope.companyIds.length === 0) return result;
  const { finals, newStatusId, defaults } = input;
  // What was written since the last refresh is derived first (usually nothing: the watcher's poll
  // refreshes after it writes).
  await refreshDurations(store, input.log);
  const where = scopeWhere(scope, range);
  // One company: its figures are the scope's, one aggregate without grouping (no sort by company).
  const single = scope.companyIds.length === 1;
  const step = (prefix: 'ack' | 'ans') => {
    const days = sql.raw(`s.${prefix}_d`);
    // One sort for the three: rank ⌈0.5n⌉ (the lower middle), ⌈(0.5 + 1e-9)n⌉ = ⌊n/2⌋ + 1 (the upper
    // middle, for fewer than a billion reports) and ⌈0.9n⌉ (the nearest rank, computed in doubles by
    // PostgreSQL as by the JavaScript it replaced).
    return sql`count(${days})::int as ${sql.raw(`${prefix}_n`)},
      percentile_disc(array[0.5, 0.500000001, 0.9]::float8[]) within group (order by ${days})
        as ${sql.raw(`${prefix}_ranks`)},
      count(*) filter (where ${sql.raw(`s.${prefix}_met`)})::int as ${sql.raw(`${prefix}_met`)}`;
  };
  const rows = await rowsOf<Record<string, number | string | null>>(
    store.db,
    sql`
    with r as (
      -- The kept durations of the index row's own incarnation (clocks/durations.ts); a report with
      -- no kept clock facts past Baru has no clock yet (the watcher has not read its log).
      select i.company_id, i.status_id, i.detail_read, i.anonymous, i.filed_at,
             x.case_id is not null as returned,
             (coalesce(h.kept, false) or i.status_id is null or i.status_id = ${newStatusId}) as has_clock,
             h.ack_due, h.ans_due, h.ack_days_taken, h.ack_on, h.ans_days_taken, h.ans_on
        from case_index i
        left join case_handling h
          on h.company_id = i.company_id and h.case_id = i.case_id and h.case_binding = i.case_binding
        left join case_return x
          on x.company_id = i.company_id and x.case_id = i.case_id and x.case_binding = i.case_binding
       where ${where}
    ),
    s as (
      -- Where no deadlines were kept (few reports: those still in Baru), the company's own or the
      -- group default count from the filing day; looked up only for those rows.
      select r.company_id, r.status_id, r.detail_read, r.anonymous, r.returned,
             case when r.has_clock then r.ack_days_taken end as ack_d,
             r.has_clock and r.ack_on <= coalesce(r.ack_due, left(r.filed_at, 10)::date
               + coalesce((select d.ack_days from handling_deadline d where d.company_id = r.company_id),
                          ${defaults.ackDays})) as ack_met,
             case when r.has_clock then r.ans_days_taken end as ans_d,
             r.has_clock and r.ans_on <= coalesce(r.ans_due, (left(r.filed_at, 10)::date
               + make_interval(months => coalesce((select d.feedback_months from handling_deadline d
                                                    where d.company_id = r.company_id),
                                                   ${defaults.feedbackMonths})))::date) as ans_met
        from r
    )
    select ${single ? sql`${scope.companyIds[0]}::int as company_id, 0 as overall` : sql`s.company_id, grouping(s.company_id) as overall`},
           count(*)::int as filed,
           count(*) filter (where ${inList(sql`s.status_id`, finals)})::int as closed,
           count(*) filter (where s.returned)::int as returned,
           count(*) filter (where not s.detail_read or s.anonymous is null)::int as unknown,
           count(*) filter (where s.detail_read and s.anonymous)::int as anonymous,
           count(*) filter (where s.detail_read and not s.anonymous)::int as identified,
           ${step('ack')},
           ${step('ans')}
      from s
     ${single ? sql`` : sql`group by grouping sets ((s.company_id), ())`}`,
  );
  const stepOf = (row: Record<string, unknown>, prefix: 'ack' | 'ans'): StepCounts => {
    const [lowMiddle = null, highMiddle = null, p90 = null] = floatList(row[`${prefix}_ranks`]);
    return {
      measured: count(row[`${prefix}_n`] as number),
      lowMiddle,
      highMiddle,
      p90,
      met: count(row[`${prefix}_met`] as number),
    };
  };
  for (const row of rows) {
    // A single company's aggregate has a row even for no report: filed 0 is "no entry".
    if (single && count(row.filed) === 0) continue;
    const overall = Number(row.overall) === 1;
    const figures: FigureCounts = {
      filed: count(row.filed),
      closed: count(row.closed),
      returned: count(row.returned),
      anonymous: {
        anonymous: count(row.anonymous),
        identified: count(row.identified),
        unknown: count(row.unknown),
      },
      acknowledge: stepOf(row, 'ack'),
      answer: stepOf(row, 'ans'),
    };
    result.set(overall ? null : Number(row.company_id), figures);
    if (single) result.set(null, figures);
  }
  return result;
}

/** Reports per month of filing (YYYY-MM), per channel and per status, and of each month those final. */
export type Breakdowns = {
  months: Map<string, { filed: number; closed: number }>;
  channels: Map<number, number>;
  statuses: Map<number, number>;
};

export async function breakdownCounts(
  store: Store,
  scope: FigureScope,
  range: FigureRange,
  finals: ReadonlySet<number>,
): Promise<Breakdowns> {
  const result: Breakdowns = { months: new Map(), channels: new Map(), statuses: new Map() };
  if (scope.companyIds.length === 0) return result;
  const rows = await rowsOf<{
    month: string | null;
    channel_id: number | null;
    status_id: number | null;
    g: number;
    n: number;
    closed: number;
  }>(
    store.db,
    sql`
    select left(i.filed_at, 7) as month, i.channel_id, i.status_id,
           grouping(left(i.filed_at, 7), i.channel_id, i.status_id) as g,
           count(*)::int as n,
           count(*) filter (where ${inList(sql`i.status_id`, finals)})::int as closed
      from case_index i
     where ${scopeWhere(scope, range)}
     group by grouping sets ((left(i.filed_at, 7)), (i.channel_id), (i.status_id))`,
  );
  for (const row of rows) {
    // grouping(): a bit set for each column left out of the row's set (month 4, channel 2, status 1).
    const g = Number(row.g);
    if (g === 3) result.months.set(String(row.month), { filed: count(row.n), closed: count(row.closed) });
    else if (g === 5 && row.channel_id !== null) result.channels.set(Number(row.channel_id), count(row.n));
    else if (g === 6 && row.status_id !== null) result.statuses.set(Number(row.status_id), count(row.n));
  }
  return result;
}
