/**
 * Each report's handling durations, kept in `case_handling` (docs/adr/0069-handling-durations-kept-per-report.md)
 * so that Statistik counts them instead of deriving every report's clock per request.
 *
 * Derived by the case detail's own rules (clocks/service.ts clockOf, shared handling-clock.ts) from the
 * same facts: the index row's incarnation and filing time, the kept clock row of that incarnation and
 * its first two handler messages. What depends on the moment of counting stays out: the report's status
 * (a report in Baru is measured without kept facts) and the company's deadlines when none were kept.
 *
 * The store's triggers (migration 0009) append the report to `case_handling_stale` whenever one of those
 * facts is written, in the writer's own transaction; `refreshDurations` derives the stale reports again.
 * It runs after each case-index poll and before every count, one at a time across replicas.
 */
import { UNBOUND_ROW_GRACE_MS } from '../store/case-binding.ts';
import { rowsOf, type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';

/** Advisory lock of the refresh (any constant; one-key locks never meet the two-key ones). */
const CASE_HANDLING_LOCK = 0x5752_4e30;
const BATCH = 5_000;
/**
 * A refresh that derived this many reports followed a large write (a first sweep, a migration): the
 * planner's statistics of the tables the overdue query and Statistik join are brought up to date.
 * PGlite has no autovacuum to do it, and without statistics PostgreSQL planned the overdue query as a
 * nested loop over every pair of open reports (seconds at 5,000 reports instead of milliseconds).
 */
const ANALYZE_AFTER = 1_000;

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
 * The durations of the reports `companyIds[n]`/`caseIds[n]`, written over their kept rows. A report
 * without an index row (or with no filing time) keeps none.
 */
function deriveStatement(companyIds: number[], caseIds: number[]): SQL {
  // The events of the clock: the log's acknowledgement (l1; final when the log answered at once) and
  // its later answer (l2), the first two handler messages (m1, m2); sorted, the first acknowledges, a
  // final l1 first answers too (it sorts before a message of the same second), else the second answers.
  const events = [c('r.l1'), c('r.l2'), c('r.m1'), c('r.m2')];
  const ackAt = sql`least(${sql.join(events, sql`, `)})`;
  const answerAt = sql`case when r.l_final and r.l1 collate "C" = ${ackAt} then r.l1 else ${secondEarliest(events)} end`;
  // Most reports have no handler message: their clock is the log's alone, two values to order.
  const ackAtOfLog = sql`least(${c('r.l1')}, ${c('r.l2')})`;
  const answerAtOfLog = sql`case when r.l_final then r.l1 else ${laterOfBoth(c('r.l1'), c('r.l2'))} end`;
  return sql`
    with q as (
      select distinct q.company_id, q.case_id
        from unnest(${sql.param(companyIds)}::integer[], ${sql.param(caseIds)}::integer[]) as q(company_id, case_id)
    ),
    i as (
      select i.* from q join case_index i on i.company_id = q.company_id and i.case_id = q.case_id
       where i.filed_at <> ''
    ),
    m as (
      -- The first two handler messages of each report's incarnation, by id (clocks/store.ts reads
      -- them so for the case detail), grouped by report.
      select m.company_id, m.case_id,
             (array_agg(m.created_at order by m.id))[1] as m1, (array_agg(m.created_at order by m.id))[2] as m2
        from i
        join case_message m
          on m.company_id = i.company_id and m.case_id = i.case_id
         and (m.case_binding = i.case_binding
              or (m.case_binding is null
                  and m.created_at >= (i.filed_at || '+07:00')::timestamptz
                                     - make_interval(secs => ${UNBOUND_ROW_GRACE_MS / 1000})))
       where m.author_kind = 'handler'
       group by m.company_id, m.case_id
    ),
    -- Each step below is computed once per report (offset 0 keeps the planner from folding it into
    -- the next, which would evaluate its expressions again at each use).
    r as (
      select i.company_id, i.case_id, i.case_binding,
             k.case_id is not null as kept,
             i.filed_at::timestamp as filed_ts,
             left(k.filed_at, 10)::date as clock_day,
             k.ack_days, k.feedback_months, k.status_id_seen,
             k.log_acknowledged_at as l1,
             case when k.log_acknowledged_at is not null
                   and k.log_answered_at is distinct from k.log_acknowledged_at
                  then k.log_answered_at end as l2,
             coalesce(k.log_acknowledged_at is not null
                      and k.log_answered_at = k.log_acknowledged_at, false) as l_final,
             ${wallTime(sql`m.m1`)} as m1, ${wallTime(sql`m.m2`)} as m2
        from i
        left join case_clock k
          on k.company_id = i.company_id and k.case_id = i.case_id
         and (k.case_binding = i.case_binding or (k.case_binding is null and k.filed_at = i.filed_at))
        left join m on m.company_id = i.company_id and m.case_id = i.case_id
      offset 0
    ),
    t as (
      select r.company_id, r.case_id, r.case_binding, r.kept, r.filed_ts, r.clock_day, r.ack_days,
             r.feedback_months, r.status_id_seen,
             case when r.m1 is null then ${ackAtOfLog} else ${ackAt} end as ack_at,
             case when r.m1 is null then ${answerAtOfLog} else ${answerAt} end as ans_at
        from r
      offset 0
    ),
    u as (
      select t.company_id, t.case_id, t.case_binding, t.kept, t.filed_ts, t.clock_day, t.ack_days,
             t.feedback_months, t.status_id_seen, t.ack_at::timestamp as ack_ts, t.ans_at::timestamp as ans_ts
        from t
      offset 0
    ),
    v as (
      select u.company_id, u.case_id, u.case_binding, u.kept, u.status_id_seen,
             u.clock_day + u.ack_days as ack_due,
             (u.clock_day + make_interval(months => u.feedback_months))::date as ans_due,
             ${tenthsTimesTen(sql`u.filed_ts`, sql`u.ack_ts`)} as ack_v, u.ack_ts::date as ack_on,
             ${tenthsTimesTen(sql`u.filed_ts`, sql`u.ans_ts`)} as ans_v, u.ans_ts::date as ans_on
        from u
      offset 0
    )
    insert into case_handling (company_id, case_id, case_binding, kept, status_id_seen, ack_due, ans_due,
                               ack_days_taken, ack_on, ans_days_taken, ans_on)
    select v.company_id, v.case_id, v.case_binding, v.kept, v.status_id_seen, v.ack_due, v.ans_due,
           ${jsRoundTenth(sql`v.ack_v`)}, v.ack_on, ${jsRoundTenth(sql`v.ans_v`)}, v.ans_on
      from v
    on conflict (company_id, case_id) do update set
      case_binding = excluded.case_binding, kept = excluded.kept, status_id_seen = excluded.status_id_seen,
      ack_due = excluded.ack_due,
      ans_due = excluded.ans_due,
      ack_days_taken = excluded.ack_days_taken, ack_on = excluded.ack_on,
      ans_days_taken = excluded.ans_days_taken, ans_on = excluded.ans_on`;
}

/** A report as the queue and the kept rows name it. */
type ReportKey = { companyId: number; caseId: number };

const keyOf = (report: ReportKey) => `${report.companyId}:${report.caseId}`;

/** Where a report the refresh could not derive is said (ids only: the logs never hold case data). */
export type DurationsLog = { warn(fields: Record<string, unknown>, message: string): void };

/**
 * SQLSTATE class 22, a data exception (a wall time no calendar has, a day out of range): something in
 * one report's own rows, which no retry mends. Drizzle wraps the driver's error in `cause`.
 */
function isDataException(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' && code.startsWith('22');
}

type Tx = Parameters<Parameters<Store['db']['transaction']>[0]>[0];

/**
 * Derives `reports` in a savepoint. Should one report's rows be unreadable (written by hand, or by a
 * version with a fault), the statement fails for the whole set: the halves are then derived apart,
 * down to the report itself, which is left out (`skipped`) so that every other report is kept and
 * Statistik never fails on one report. Any other error (the store gone, a timeout) is thrown.
 */
async function deriveApart(tx: Tx, reports: ReportKey[], skipped: ReportKey[]): Promise<void> {
  try {
    await tx.transaction(async (savepoint) => {
      await savepoint.execute(
        deriveStatement(
          reports.map((r) => r.companyId),
          reports.map((r) => r.caseId),
        ),
      );
    });
  } catch (error) {
    if (!isDataException(error)) throw error;
    if (reports.length === 1) {
      skipped.push(reports[0]!);
      return;
    }
    const half = Math.ceil(reports.length / 2);
    await deriveApart(tx, reports.slice(0, half), skipped);
    await deriveApart(tx, reports.slice(half), skipped);
  }
}

/**
 * Derives the stale reports' durations again, in batches, until none is stale; returns how many
 * queue entries it took. One refresh at a time (an advisory lock across replicas): a second waits for
 * the first and then takes what is left, so an older derivation never overwrites a newer one.
 * A report whose rows cannot be read keeps no durations (Statistik counts it as filed, unmeasured)
 * until a later write of its facts queues it again; it is logged by its ids. After a large refresh the
 * tables it joins are analysed (ANALYZE_AFTER).
 */
export async function refreshDurations(store: Pick<Store, 'db'>, log?: DurationsLog): Promise<number> {
  let taken = 0;
  const [first] = await rowsOf<{ pending: boolean }>(
    store.db,
    sql`select exists (select 1 from case_handling_stale) as pending`,
  );
  if (!first?.pending) return taken;
  for (;;) {
    const skipped: ReportKey[] = [];
    const batch = await store.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CASE_HANDLING_LOCK})`);
      // Each statement below sees what committed before it started: a stale entry taken here is
      // written together with its facts, so the derivation that follows reads them.
      const stale = await rowsOf<{ company_id: number; case_id: number }>(
        tx,
        sql`delete from case_handling_stale
             where id in (select id from case_handling_stale order by id limit ${BATCH})
            returning company_id, case_id`,
      );
      if (stale.length === 0) return 0;
      // A report written to several times since the last refresh is queued as often: derived once.
      const keyed = new Map<string, ReportKey>();
      for (const row of stale) {
        const report = { companyId: Number(row.company_id), caseId: Number(row.case_id) };
        keyed.set(keyOf(report), report);
      }
      const reports = [...keyed.values()];
      await deriveApart(tx, reports, skipped);
      // Reports gone from the index (a retention purge, a row the legacy no longer has) keep nothing,
      // nor does a report left out above (its earlier durations may no longer hold).
      const left = new Set(skipped.map(keyOf));
      await tx.execute(sql`
        delete from case_handling h
         using unnest(${sql.param(reports.map((r) => r.companyId))}::integer[],
                      ${sql.param(reports.map((r) => r.caseId))}::integer[],
                      ${sql.param(reports.map((r) => left.has(keyOf(r))))}::boolean[])
               as q(company_id, case_id, left_out)
         where h.company_id = q.company_id and h.case_id = q.case_id
           and (q.left_out or not exists (select 1 from case_index i where i.company_id = q.company_id
                                            and i.case_id = q.case_id and i.filed_at <> ''))`);
      return stale.length;
    });
    for (const report of skipped) {
      log?.warn(
        { companyId: report.companyId, caseId: report.caseId },
        "handling durations: the report's clock facts cannot be read; it is counted unmeasured",
      );
    }
    taken += batch;
    // A short batch emptied the queue as it stood: what was written before this refresh is derived.
    if (batch < BATCH) break;
  }
  if (taken >= ANALYZE_AFTER) await store.db.execute(sql`analyze case_index, case_clock, case_handling`);
  return taken;
}
