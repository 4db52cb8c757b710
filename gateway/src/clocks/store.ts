/**
 * The store's side of the handling clocks: each company's own deadlines, the clock facts kept per case
 * (schema.ts `caseClock`) and the times of the first handler messages. Every function takes cases of ONE
 * company, already checked against the caller's scope by the route.
 */
import { type HandlingDeadlines, wibWallTime } from '@wbs/shared/handling-clock';
import { type BoundCase, unboundSince } from '../store/case-binding.ts';
import type { StoreDb } from '../store/database.ts';
import { eq, inArray, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { caseClock, handlingDeadline } from '../store/schema.ts';

export type CompanyDeadlines = HandlingDeadlines & { own: boolean };

/** Each company's deadlines: its own setting, else the group default. */
export async function deadlinesOf(
  store: Store,
  companyIds: readonly number[],
  defaults: HandlingDeadlines,
): Promise<Map<number, CompanyDeadlines>> {
  const result = new Map<number, CompanyDeadlines>();
  for (const id of companyIds) result.set(id, { ...defaults, own: false });
  if (companyIds.length === 0) return result;
  const rows = await store.db
    .select()
    .from(handlingDeadline)
    .where(inArray(handlingDeadline.companyId, [...companyIds]));
  for (const row of rows) {
    result.set(row.companyId, { ackDays: row.ackDays, feedbackMonths: row.feedbackMonths, own: true });
  }
  return result;
}

/** Sets a company's own deadlines (they apply to reports the gateway sees from now on). */
export async function saveDeadlines(
  store: Store,
  companyId: number,
  deadlines: HandlingDeadlines,
  byUserId: number | null,
): Promise<void> {
  const values = { ...deadlines, updatedAt: new Date(), updatedByUserId: byUserId };
  await store.db
    .insert(handlingDeadline)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: handlingDeadline.companyId, set: values });
}

/** Back to the group default. */
export async function removeDeadlines(store: Store, companyId: number): Promise<void> {
  await store.db.delete(handlingDeadline).where(eq(handlingDeadline.companyId, companyId));
}

export type ClockRow = typeof caseClock.$inferSelect;
export type ClockRowInput = Omit<ClockRow, 'updatedAt' | 'caseBinding'> & { caseBinding: string };

/**
 * The kept row is the same incarnation of the case as the one written: its binding, or (a row from
 * before bindings) its filing time (store/case-binding.ts).
 */
const sameCase = sql`(case_clock.case_binding = excluded.case_binding
  or (case_clock.case_binding is null and case_clock.filed_at = excluded.filed_at))`;
const keptIfSameCase = (column: 'filed_at' | 'ack_days' | 'feedback_months') =>
  sql`case when ${sameCase} then ${sql.raw(`case_clock.${column}`)} else ${sql.raw(`excluded.${column}`)} end`;

/**
 * Writes clock facts. The deadlines of an existing row never change (a promise once made stays);
 * only what was read from the legacy's log is refreshed. A kept row of another incarnation of the
 * case (a reissued legacy id) is replaced whole: its promise was made to someone else.
 */
export async function saveClockRows(store: Store, rows: readonly ClockRowInput[]): Promise<void> {
  if (rows.length === 0) return;
  await store.db
    .insert(caseClock)
    .values(rows.map((row) => ({ ...row, updatedAt: new Date() })))
    .onConflictDoUpdate({
      target: [caseClock.companyId, caseClock.caseId],
      set: {
        filedAt: keptIfSameCase('filed_at'),
        ackDays: keptIfSameCase('ack_days'),
        feedbackMonths: keptIfSameCase('feedback_months'),
        caseBinding: sql`excluded.case_binding`,
        statusIdSeen: sql`excluded.status_id_seen`,
        logAcknowledgedAt: sql`excluded.log_acknowledged_at`,
        logAnsweredAt: sql`excluded.log_answered_at`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

export type ClockInputs = {
  /** The company's own deadlines, or null when it follows the group default. */
  deadlines: HandlingDeadlines | null;
  /** The kept clock rows of the cases' own incarnations (another's is left out and reported). */
  rows: Map<number, ClockRow>;
  /** WIB wall times of the first two handler messages per case. */
  messages: Map<number, string[]>;
  /** Reporter messages no handler has read yet, per case that has any (the list's unread marks). */
  unread: Map<number, number>;
};

const placeholder = sql.placeholder;

/**
 * The clock-inputs query, built once per database and prepared under a fixed name: PostgreSQL then
 * plans it once per connection instead of on every read. Planning its three aggregates cost about
 * 0.7 ms of the server's CPU against 0.2 ms of running them, on every case detail and on every list
 * page that is not cached, and on a shared host that CPU was the case detail's bound. The case ids
 * travel as ONE array parameter, so the text stays the same whatever the page size.
 */
function clockInputsQuery(db: StoreDb, withMarks: boolean) {
  return db
    .select({
      deadlines: sql<unknown>`(select json_build_object('ackDays', ack_days, 'feedbackMonths', feedback_months)
         from handling_deadline where company_id = ${placeholder('companyId')})`,
      clocks: sql<unknown>`(select coalesce(json_agg(json_build_object(
          'caseId', case_id, 'caseBinding', case_binding, 'filedAt', filed_at, 'ackDays', ack_days,
          'feedbackMonths', feedback_months, 'statusIdSeen', status_id_seen,
          'logAcknowledgedAt', log_acknowledged_at, 'logAnsweredAt', log_answered_at)), '[]'::json)
         from case_clock where company_id = ${placeholder('companyId')}
          and case_id = any(${placeholder('caseIds')}::integer[]))`,
      // Only messages of each case's own incarnation (store/case-binding.ts), ranked among themselves.
      messages: sql<unknown>`(select coalesce(json_agg(json_build_object('caseId', case_id, 'ms', ms) order by case_id, rank), '[]'::json)
         from (select m.case_id, (extract(epoch from m.created_at) * 1000)::float8 as ms,
                      row_number() over (partition by m.case_id order by m.id) as rank
                 from unnest(${placeholder('caseIds')}::integer[], ${placeholder('bindings')}::text[],
                             ${placeholder('unboundSince')}::timestamptz[]) as k(case_id, binding, unbound_since)
                 join case_message m
                   on m.company_id = ${placeholder('companyId')} and m.case_id = k.case_id
                  and m.author_kind = 'handler'
                  and (m.case_binding = k.binding
                       or (m.case_binding is null and m.created_at >= k.unbound_since))) m
        where rank <= 2)`,
      // The list's unread marks: reporter messages of the case's own incarnation above the handlers' mark
      // (a detail does not show them: its statement leaves them out).
      unread: withMarks
        ? sql<unknown>`(select coalesce(json_agg(json_build_object('caseId', case_id, 'n', n)), '[]'::json)
         from (select m.case_id, count(*)::integer as n
                 from unnest(${placeholder('caseIds')}::integer[], ${placeholder('bindings')}::text[],
                             ${placeholder('unboundSince')}::timestamptz[]) as k(case_id, binding, unbound_since)
                 join case_message m
                   on m.company_id = ${placeholder('companyId')} and m.case_id = k.case_id
                  and m.author_kind = 'reporter'
                  and (m.case_binding = k.binding
                       or (m.case_binding is null and m.created_at >= k.unbound_since))
                 left join case_conversation c
                   on c.company_id = m.company_id and c.case_id = m.case_id
                  and (c.case_binding is null or c.case_binding = k.binding)
                where m.id > coalesce(c.handler_seen_id, 0)
                group by m.case_id) u)`
        : sql<unknown>`'[]'::json`,
    })
    .from(sql`(select 1) as one`)
    .prepare(withMarks ? 'wbs_list_inputs' : 'wbs_clock_inputs');
}

const clockInputsQueries = new WeakMap<StoreDb, Map<boolean, ReturnType<typeof clockInputsQuery>>>();

/**
 * Everything a list page needs from the store about its cases, in ONE round trip (a case list is the
 * hottest path of the gateway: each query meant a wait for a pool connection under load): the clocks'
 * facts and the unread marks.
 */
export async function clockInputsOf(
  store: Store,
  companyId: number,
  cases: readonly BoundCase[],
  /** Read the unread marks too (a list page; a case detail does without). */
  withMarks = true,
): Promise<ClockInputs> {
  let queries = clockInputsQueries.get(store.db);
  if (!queries) {
    queries = new Map();
    clockInputsQueries.set(store.db, queries);
  }
  let query = queries.get(withMarks);
  if (!query) {
    query = clockInputsQuery(store.db, withMarks);
    queries.set(withMarks, query);
  }
  const byId = new Map<number, BoundCase>();
  for (const ref of cases) if (ref.companyId === companyId) byId.set(ref.caseId, ref);
  const refs = [...byId.values()];
  const [row] = await query.execute({
    companyId,
    caseIds: refs.map((ref) => ref.caseId),
    bindings: refs.map((ref) => ref.binding),
    unboundSince: refs.map(unboundSince),
  });
  // node-postgres parses json columns; PGlite may hand them over as text.
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  const deadlines = json<HandlingDeadlines | null>(row?.deadlines ?? null);
  const rows = new Map<number, ClockRow>();
  for (const clock of json<Omit<ClockRow, 'companyId' | 'updatedAt'>[]>(row?.clocks ?? [])) {
    const ref = byId.get(clock.caseId);
    if (!ref) continue;
    const ours =
      clock.caseBinding === ref.binding || (clock.caseBinding === null && clock.filedAt === ref.filedAt);
    if (ours) rows.set(clock.caseId, { ...clock, companyId, updatedAt: new Date(0) });
    else store.cases.mismatch('case_clock', ref, 1);
  }
  const unread = new Map<number, number>();
  for (const mark of json<{ caseId: number; n: number }[]>(row?.unread ?? []))
    unread.set(mark.caseId, Number(mark.n));
  const messages = new Map<number, string[]>();
  for (const message of json<{ caseId: number; ms: number }[]>(row?.messages ?? [])) {
    const times = messages.get(message.caseId) ?? [];
    times.push(wibWallTime(Number(message.ms)));
    messages.set(message.caseId, times);
  }
  return { deadlines, rows, messages, unread };
}
