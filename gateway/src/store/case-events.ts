/**
 * The one way a case event is written. The notifier reads events by id after a cursor
 * (notifications/notifier.ts), but an id is handed out when a row is inserted and seen only when its
 * transaction commits: two writers committing out of order (two replicas, or the watcher's page
 * transaction beside a reporter's message) would let the notifier move past an id still unseen and
 * never tell that event. Every writer takes this one transaction lock first, so events commit in the
 * order of their ids. Events are few (a report, a message, a status change): the wait is short.
 */
import type { StoreDb } from './database.ts';
import { sql } from './drizzle.ts';
import { caseEvent } from './schema.ts';

/** Advisory lock of case-event writers (any constant; one-key locks never meet the two-key ones). */
export const CASE_EVENT_LOCK = 0x5752_4e20;

type Tx = Parameters<Parameters<StoreDb['transaction']>[0]>[0];
export type NewCaseEvent = typeof caseEvent.$inferInsert;

/** Appends events inside `tx` (the caller's transaction), in id order with every other writer. */
export async function appendCaseEvents(tx: Tx, events: readonly NewCaseEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  await tx.execute(sql`select pg_advisory_xact_lock(${CASE_EVENT_LOCK})`);
  const rows = await tx
    .insert(caseEvent)
    .values([...events])
    .returning({ id: caseEvent.id });
  return rows.map((row) => row.id);
}
