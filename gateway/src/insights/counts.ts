/**
 * Peta Laporan's and Statistik's figures counted in the store (docs/adr/0068-insights-counted-in-sql.md):
 * one GROUP BY per figure over the index rows of the scope and range (insights/store.ts `scopeWhere`),
 * never one row per report to the gateway. The handling durations are derived per report in SQL by
 * the same rules as the case detail's clock (clocks/service.ts clockOf, shared handling-clock.ts), from
 * the same facts: the kept clock row of the index row's incarnation, else (a report still in Baru) the
 * company's deadlines, and the first two handler messages of that incarnation.
 */
import { UNBOUND_ROW_GRACE_MS } from '../store/case-binding.ts';
import { type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { type FigureRange, type FigureScope, scopeWhere } from './store.ts';

type Rows<T> = { rows: T[] };

async function select<T>(store: Store, query: SQL): Promise<T[]> {
  return ((await store.db.execute(query)) as unknown as Rows<T>).rows;
}

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
  const rows = await select<{ kind: number; province_id: number | null; n: number }>(
    store,
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
  const rows = await select<{ city_id: number | null; n: number }>(
    store,
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
};

/** `x` when both are present, the later of them (the pair's second), else null. */
const laterOfBoth = (a: SQL, b: SQL) => sql`case when ${a} is null or ${b} is null then null
  else greatest(${a}, ${b}) end`;

/**
 * The second earliest of four nullable wall times (the smallest of each pair's later one; equal
 * times count twice, as the clock's sorted events do).
 */
function secondEarliest(values: SQL[]): SQL {
  const pairs: SQL[] = [];
  for (let i = 0; i < values.length; i++)
    for (let j = i + 1; j < values.length; j++) pairs.push(laterOfBoth(values[i]!, values[j]!));
  return sql`least(${sql.join(pairs, sql`, `)})`;
}

/**
 * Days from `from` to `to` (WIB wall times) to a tenth, exactly as the clock's figures always did in
 * doubles: Math.round(ms / 86,400,000 × 10) / 10. float8 arithmetic is IEEE's in PostgreSQL as in
 * JavaScript, so the same double comes out; `tenthsTimesTen` is the value rounded, `jsRoundTenth`
 * rounds it as Math.round does (halves upwards) and divides.
 */
const tenthsTimesTen = (from: SQL, to: SQL) =>
  sql`(date_part('epoch', ${to} - ${from}) * 1000::float8 / 86400000::float8 * 10::float8)`;
const jsRoundTenth = (v: SQL) =>
  sql`(floor(${v}) + case when ${v} - floor(${v}) >= 0.5::float8 then 1 else 0 end) / 10::float8`;

/** A moment as WIB wall time 'YYYY-MM-DDTHH:mm:ss' (handling-clock.ts wibWallTime: to the second, cut). */
const wallTime = (moment: SQL) =>
  sql`to_char((${moment} at time zone 'UTC') + interval '7 hours', 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** A C-collated text: wall times compare as JavaScript compares their strings, whatever the database's collation. */
const c = (column: string) => sql.raw(`${column} collate "C"`);

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
  const where = scopeWhere(scope, range);
  // One company: its figures are the scope's, one aggregate without grouping (no sort by company).
  const single = scope.companyIds.length === 1;
  // The events of the clock: the log's acknowledgement (l1; final when the log answered at once) and
  // its later answer (l2), the first two handler messages (m1, m2); sorted, the first acknowledges, a
  // final l1 first answers too (it sorts before a message of the same second), else the second answers.
  const events = [c('r.l1'), c('r.l2'), c('r.m1'), c('r.m2')];
  const ackAt = sql`least(${sql.join(events, sql`, `)})`;
  const answerAt = sql`case when r.l_final and r.l1 collate "C" = ${ackAt} then r.l1 else ${secondEarliest(events)} end`;
  // Most reports have no handler message: their clock is the log's alone, two values to order.
  const ackAtOfLog = sql`least(${c('r.l1')}, ${c('r.l2')})`;
  const answerAtOfLog = sql`case when r.l_final then r.l1 else ${laterOfBoth(c('r.l1'), c('r.l2'))} end`;
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
  const rows = await select<Record<string, number | string | null>>(
    store,
    sql`
    with m as (
      -- The first two handler messages of each report's incarnation, by id (clocks/store.ts reads
      -- them so for the case detail), for all the reports at once rather than looked up per report.
      -- Grouped by report, not numbered by a window: the planner then expects one row per report
      -- with messages and joins them by hash (numbered, it expected almost none and looped).
      select m.company_id, m.case_id,
             (array_agg(m.created_at order by m.id))[1] as m1, (array_agg(m.created_at order by m.id))[2] as m2
        from case_message m
        join case_index i
          on i.company_id = m.company_id and i.case_id = m.case_id
         and (m.case_binding = i.case_binding
              or (m.case_binding is null
                  and m.created_at >= (i.filed_at || '+07:00')::timestamptz
                                     - make_interval(secs => ${UNBOUND_ROW_GRACE_MS / 1000})))
       where m.author_kind = 'handler' and ${inList(sql`m.company_id`, scope.companyIds)} and ${where}
       group by m.company_id, m.case_id
    ),
    -- Each step below is computed once per report (offset 0 keeps the planner from folding it into
    -- the next, which would evaluate its expressions again at each use).
    r as (
      select i.company_id, i.status_id, i.detail_read, i.anonymous, i.filed_at,
             x.case_id is not null as returned,
             -- No kept facts and past Baru: the watcher has not read its log yet, no clock.
             (k.case_id is not null or i.status_id is null or i.status_id = ${newStatusId}) as has_clock,
             i.filed_at::timestamp as filed_ts,
             left(coalesce(k.filed_at, i.filed_at), 10)::date as clock_day,
             coalesce(k.ack_days, d.ack_days, ${defaults.ackDays}) as ack_days,
             coalesce(k.feedback_months, d.feedback_months, ${defaults.feedbackMonths}) as feedback_months,
             k.log_acknowledged_at as l1,
             case when k.log_acknowledged_at is not null
                   and k.log_answered_at is distinct from k.log_acknowledged_at
                  then k.log_answered_at end as l2,
             coalesce(k.log_acknowledged_at is not null
                      and k.log_answered_at = k.log_acknowledged_at, false) as l_final,
             ${wallTime(sql`m.m1`)} as m1, ${wallTime(sql`m.m2`)} as m2
        from case_index i
        left join case_clock k
          on k.company_id = i.company_id and k.case_id = i.case_id
         and (k.case_binding = i.case_binding or (k.case_binding is null and k.filed_at = i.filed_at))
        left join handling_deadline d on d.company_id = i.company_id
        left join case_return x
          on x.company_id = i.company_id and x.case_id = i.case_id and x.case_binding = i.case_binding
        left join m on m.company_id = i.company_id and m.case_id = i.case_id
       where ${where}
      offset 0
    ),
    t as (
      select r.company_id, r.status_id, r.detail_read, r.anonymous, r.returned,
             r.filed_ts, r.clock_day, r.ack_days, r.feedback_months,
             case when not r.has_clock then null when r.m1 is null then ${ackAtOfLog} else ${ackAt} end as ack_at,
             case when not r.has_clock then null when r.m1 is null then ${answerAtOfLog} else ${answerAt} end
               as ans_at
        from r
      offset 0
    ),
    u as (
      select t.company_id, t.status_id, t.detail_read, t.anonymous, t.returned,
             t.filed_ts, t.clock_day, t.ack_days, t.feedback_months,
             t.ack_at::timestamp as ack_ts, t.ans_at::timestamp as ans_ts
        from t
      offset 0
    ),
    v as (
      select u.company_id, u.status_id, u.detail_read, u.anonymous, u.returned,
             ${tenthsTimesTen(sql`u.filed_ts`, sql`u.ack_ts`)} as ack_v,
             u.ack_ts::date <= u.clock_day + u.ack_days as ack_met,
             ${tenthsTimesTen(sql`u.filed_ts`, sql`u.ans_ts`)} as ans_v,
             u.ans_ts::date <= (u.clock_day + make_interval(months => u.feedback_months))::date as ans_met
        from u
      offset 0
    ),
    s as (
      select v.company_id, v.status_id, v.detail_read, v.anonymous, v.returned, v.ack_met, v.ans_met,
             ${jsRoundTenth(sql`v.ack_v`)} as ack_d, ${jsRoundTenth(sql`v.ans_v`)} as ans_d
        from v
      offset 0
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
  const rows = await select<{
    month: string | null;
    channel_id: number | null;
    status_id: number | null;
    g: number;
    n: number;
    closed: number;
  }>(
    store,
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
