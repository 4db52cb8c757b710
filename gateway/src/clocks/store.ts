/**
 * The store's side of the handling clocks: each company's own deadlines, the clock facts kept per case
 * (schema.ts `caseClock`) and the times of the first handler messages. Every function takes cases of ONE
 * company, already checked against the caller's scope by the route.
 */
import type { HandlingDeadlines } from '@wbs/shared/handling-clock';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { and, eq, inArray, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { caseClock, caseMessage, handlingDeadline } from '../store/schema.ts';

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

export async function clockRowsOf(
  store: Store,
  companyId: number,
  caseIds: readonly number[],
): Promise<Map<number, ClockRow>> {
  if (caseIds.length === 0) return new Map();
  const rows = await store.db
    .select()
    .from(caseClock)
    .where(and(eq(caseClock.companyId, companyId), inArray(caseClock.caseId, [...caseIds])));
  return new Map(rows.map((row) => [row.caseId, row]));
}

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

/** WIB wall times of the first two handler messages of each case (all a clock needs of them). */
export async function handlerMessageTimes(
  store: Store,
  companyId: number,
  caseIds: readonly number[],
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (caseIds.length === 0) return result;
  const ranked = store.db
    .select({
      caseId: caseMessage.caseId,
      // Epoch milliseconds: a timestamptz read through a subquery arrives as text in either engine.
      createdMs: sql<number>`(extract(epoch from ${caseMessage.createdAt}) * 1000)::float8`.as('created_ms'),
      rank: sql<number>`row_number() over (partition by ${caseMessage.caseId} order by ${caseMessage.id})`.as(
        'rank',
      ),
    })
    .from(caseMessage)
    .where(
      and(
        eq(caseMessage.companyId, companyId),
        inArray(caseMessage.caseId, [...caseIds]),
        eq(caseMessage.authorKind, 'handler'),
      ),
    )
    .as('ranked');
  const rows = await store.db.select().from(ranked).where(sql`${ranked.rank} <= 2`);
  for (const row of rows) {
    const times = result.get(row.caseId) ?? [];
    times.push(wibWallTime(Number(row.createdMs)));
    result.set(row.caseId, times);
  }
  return result;
}
