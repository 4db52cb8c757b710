/**
 * The store's side of the handling clocks: each company's own deadlines, the clock facts kept per case
 * (schema.ts `caseClock`) and the times of the first handler messages. Every function takes cases of ONE
 * company, already checked against the caller's scope by the route.
 */
import { type HandlingDeadlines, wibWallTime } from '@wbs/shared/handling-clock';
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
export type ClockRowInput = Omit<ClockRow, 'updatedAt'>;

/**
 * Writes clock facts. The deadlines of an existing row never change (a promise once made stays);
 * only what was read from the legacy's log is refreshed.
 */
export async function saveClockRows(store: Store, rows: readonly ClockRowInput[]): Promise<void> {
  if (rows.length === 0) return;
  await store.db
    .insert(caseClock)
    .values(rows.map((row) => ({ ...row, updatedAt: new Date() })))
    .onConflictDoUpdate({
      target: [caseClock.companyId, caseClock.caseId],
      set: {
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
  rows: Map<number, ClockRow>;
  /** WIB wall times of the first two handler messages per case. */
  messages: Map<number, string[]>;
};

const placeholder = sql.placeholder;

/**
 * The clock-inputs query, built once per database and prepared under a fixed name: PostgreSQL then
 * plans it once per connection instead of on every read. Planning its three aggregates cost about
 * 0.7 ms of the server's CPU against 0.2 ms of running them, on every case detail and on every list
 * page that is not cached, and on a shared host that CPU was the case detail's bound. The case ids
 * travel as ONE array parameter, so the text stays the same whatever the page size.
 */
function clockInputsQuery(db: StoreDb) {
  return db
    .select({
      deadlines: sql<unknown>`(select json_build_object('ackDays', ack_days, 'feedbackMonths', feedback_months)
         from handling_deadline where company_id = ${placeholder('companyId')})`,
      clocks: sql<unknown>`(select coalesce(json_agg(json_build_object(
          'caseId', case_id, 'filedAt', filed_at, 'ackDays', ack_days, 'feedbackMonths', feedback_months,
          'statusIdSeen', status_id_seen, 'logAcknowledgedAt', log_acknowledged_at,
          'logAnsweredAt', log_answered_at)), '[]'::json)
         from case_clock where company_id = ${placeholder('companyId')}
          and case_id = any(${placeholder('caseIds')}::integer[]))`,
      messages: sql<unknown>`(select coalesce(json_agg(json_build_object('caseId', case_id, 'ms', ms) order by case_id, rank), '[]'::json)
         from (select case_id, (extract(epoch from created_at) * 1000)::float8 as ms,
                      row_number() over (partition by case_id order by id) as rank
                 from case_message
                where company_id = ${placeholder('companyId')}
                  and case_id = any(${placeholder('caseIds')}::integer[]) and author_kind = 'handler') m
        where rank <= 2)`,
    })
    .from(sql`(select 1) as one`)
    .prepare('wbs_clock_inputs');
}

const clockInputsQueries = new WeakMap<StoreDb, ReturnType<typeof clockInputsQuery>>();

/**
 * Everything a list of clocks needs from the store, in ONE round trip (a case list is the hottest
 * path of the gateway: three queries meant three waits for a pool connection under load).
 */
export async function clockInputsOf(
  store: Store,
  companyId: number,
  caseIds: readonly number[],
): Promise<ClockInputs> {
  let query = clockInputsQueries.get(store.db);
  if (!query) {
    query = clockInputsQuery(store.db);
    clockInputsQueries.set(store.db, query);
  }
  const [row] = await query.execute({ companyId, caseIds: [...caseIds] });
  // node-postgres parses json columns; PGlite may hand them over as text.
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  const deadlines = json<HandlingDeadlines | null>(row?.deadlines ?? null);
  const rows = new Map<number, ClockRow>();
  for (const clock of json<Omit<ClockRow, 'companyId' | 'updatedAt'>[]>(row?.clocks ?? [])) {
    rows.set(clock.caseId, { ...clock, companyId, updatedAt: new Date(0) });
  }
  const messages = new Map<number, string[]>();
  for (const message of json<{ caseId: number; ms: number }[]>(row?.messages ?? [])) {
    const times = messages.get(message.caseId) ?? [];
    times.push(wibWallTime(Number(message.ms)));
    messages.set(message.caseId, times);
  }
  return { deadlines, rows, messages };
}
