/**
 * The store's side of retention (docs/product/retention.md): each company's own retention period, the
 * disposal register (`case_disposal`) as the officer reads and marks it, and the scan's lease. Facts
 * only: no complaint number, no reporter data.
 */
import { addDays, wibToday, wibWallTime } from '@wbs/shared/handling-clock';
import { DISPOSAL_GRACE_DAYS, type DisposalState } from '@wbs/shared/retention';
import { and, eq, inArray, isNull, type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { caseDisposal, retentionPeriod } from '../store/schema.ts';

export type CompanyPeriod = { months: number; own: boolean };

/** Each company's period: its own setting, else the group default. */
export async function periodsOf(
  store: Store,
  companyIds: readonly number[],
  defaultMonths: number,
): Promise<Map<number, CompanyPeriod>> {
  const result = new Map<number, CompanyPeriod>();
  for (const id of companyIds) result.set(id, { months: defaultMonths, own: false });
  if (companyIds.length === 0) return result;
  const rows = await store.db
    .select()
    .from(retentionPeriod)
    .where(inArray(retentionPeriod.companyId, [...companyIds]));
  for (const row of rows) result.set(row.companyId, { months: row.months, own: true });
  return result;
}

/** Every company's own period (the records of processing list them). */
export async function ownPeriods(store: Store): Promise<Map<number, number>> {
  const rows = await store.db.select().from(retentionPeriod);
  return new Map(rows.map((row) => [row.companyId, row.months]));
}

export async function savePeriod(
  store: Store,
  companyId: number,
  months: number,
  byUserId: number | null,
): Promise<void> {
  const values = { months, updatedAt: new Date(), updatedByUserId: byUserId };
  await store.db
    .insert(retentionPeriod)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: retentionPeriod.companyId, set: values });
}

/** Back to the group default. */
export async function removePeriod(store: Store, companyId: number): Promise<void> {
  await store.db.delete(retentionPeriod).where(eq(retentionPeriod.companyId, companyId));
}

/** A register row as the routes present it (names are added from the legacy by the route). */
export type DisposalRow = {
  id: number;
  companyId: number;
  caseId: number;
  statusId: number | null;
  closedAt: string;
  dueDate: string;
  storePurgedAt: string | null;
  state: DisposalState;
  destroyedAt: string | null;
  destroyedByName: string | null;
  note: string | null;
};

/**
 * The day a case started waiting in the register: its due date, or the day it entered the register
 * when that was later (a scan that ran late, or a period shortened after the fact). The officer's 30
 * days start from there: nobody could act on a case before the register listed it.
 */
const waitingSince = sql`greatest(${caseDisposal.dueDate},
  to_char((${caseDisposal.registeredAt} at time zone 'UTC') + interval '7 hours', 'YYYY-MM-DD'))`;

/** The last day a waiting case may wait without being overdue is `waitingSince` + the grace days. */
const overdueBefore = (today: string) => addDays(today, -DISPOSAL_GRACE_DAYS);

const stateOf = (today: string) => sql<DisposalState>`case
  when ${caseDisposal.destroyedAt} is not null then 'destroyed'
  when ${waitingSince} < ${overdueBefore(today)} then 'overdue'
  else 'waiting' end`;

export type RegisterSummary = { waiting: number; overdue: number; destroyed: number };

/** Counts of the register: waiting (overdue ones included), overdue, destroyed. */
export async function registerSummary(store: Store, now = Date.now()): Promise<RegisterSummary> {
  const today = wibToday(now);
  const result = (await store.db.execute(sql`
    select count(*) filter (where ${caseDisposal.destroyedAt} is null) as waiting,
           count(*) filter (where ${caseDisposal.destroyedAt} is null
                              and ${waitingSince} < ${overdueBefore(today)}) as overdue,
           count(*) filter (where ${caseDisposal.destroyedAt} is not null) as destroyed
      from ${caseDisposal}`)) as unknown as {
    rows: { waiting: number | string; overdue: number | string; destroyed: number | string }[];
  };
  const row = result.rows[0];
  return {
    waiting: Number(row?.waiting ?? 0),
    overdue: Number(row?.overdue ?? 0),
    destroyed: Number(row?.destroyed ?? 0),
  };
}

export type RegisterQuery = { state?: 'waiting' | 'destroyed' | undefined; page: number; size: number };

/**
 * A page of the register: waiting cases oldest due first (the most urgent on top), destroyed ones
 * newest destruction first.
 */
export async function registerPage(
  store: Store,
  query: RegisterQuery,
  now = Date.now(),
): Promise<{ rows: DisposalRow[]; total: number }> {
  const today = wibToday(now);
  const where: SQL | undefined =
    query.state === 'waiting'
      ? isNull(caseDisposal.destroyedAt)
      : query.state === 'destroyed'
        ? sql`${caseDisposal.destroyedAt} is not null`
        : undefined;
  const [counted] = await store.db
    .select({ n: sql<number | string>`count(*)` })
    .from(caseDisposal)
    .where(where);
  const rows = await store.db
    .select({
      id: caseDisposal.id,
      companyId: caseDisposal.companyId,
      caseId: caseDisposal.caseId,
      statusId: caseDisposal.statusId,
      closedAt: caseDisposal.closedAt,
      dueDate: caseDisposal.dueDate,
      storePurgedAt: caseDisposal.storePurgedAt,
      state: stateOf(today),
      destroyedAt: caseDisposal.destroyedAt,
      destroyedByName: caseDisposal.destroyedByName,
      note: caseDisposal.note,
    })
    .from(caseDisposal)
    .where(where)
    .orderBy(
      sql`${caseDisposal.destroyedAt} is not null`,
      sql`${caseDisposal.destroyedAt} desc nulls first`,
      caseDisposal.dueDate,
      caseDisposal.id,
    )
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  return {
    total: Number(counted?.n ?? 0),
    rows: rows.map((row) => ({
      ...row,
      storePurgedAt: row.storePurgedAt ? wibWallTime(new Date(row.storePurgedAt)) : null,
      destroyedAt: row.destroyedAt ? wibWallTime(new Date(row.destroyedAt)) : null,
    })),
  };
}

export type DestroyedMark = { userId: number; name: string | null; note: string | null };

/**
 * The officer's attestation that the case was destroyed at the legacy. `missing`: no such entry;
 * `already`: it was marked before (the first mark stands).
 */
export async function markDestroyed(
  store: Store,
  id: number,
  mark: DestroyedMark,
): Promise<{ outcome: 'marked'; companyId: number; caseId: number } | { outcome: 'missing' | 'already' }> {
  const [marked] = await store.db
    .update(caseDisposal)
    .set({
      destroyedAt: new Date(),
      destroyedByUserId: mark.userId,
      destroyedByName: mark.name,
      note: mark.note,
    })
    .where(and(eq(caseDisposal.id, id), isNull(caseDisposal.destroyedAt)))
    .returning({ companyId: caseDisposal.companyId, caseId: caseDisposal.caseId });
  if (marked) return { outcome: 'marked', ...marked };
  const [row] = await store.db
    .select({ id: caseDisposal.id })
    .from(caseDisposal)
    .where(eq(caseDisposal.id, id));
  return { outcome: row ? 'already' : 'missing' };
}

const rowsOf = (result: unknown): number => {
  const r = result as { rowCount?: number | null; affectedRows?: number; rows?: unknown[] };
  return r.rowCount ?? r.affectedRows ?? r.rows?.length ?? 0;
};

/**
 * Takes the scan's lease for `seconds` (one scan at a time across replicas); false while another
 * holder's lease runs. A holder that died lets it lapse.
 */
export async function takeScanLease(store: Store, holder: string, seconds: number): Promise<boolean> {
  const result = await store.db.execute(sql`
    update retention_scan set holder = ${holder},
           held_until = clock_timestamp() + make_interval(secs => ${seconds})
     where id = 1 and (held_until is null or held_until < clock_timestamp())`);
  return rowsOf(result) === 1;
}

export async function releaseScanLease(store: Store, holder: string): Promise<void> {
  await store.db.execute(sql`
    update retention_scan set holder = null, held_until = null, last_run_at = clock_timestamp()
     where id = 1 and holder = ${holder}`);
}
