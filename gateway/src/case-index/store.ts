/**
 * The store's side of the case index (docs/adr/0058-case-index-watcher.md): what the legacy's case
 * tables say of every case (`case_index`), where the watcher is in each company's table
 * (`case_watch`) and what changed (`case_event`). Every write of a page is ONE transaction under the
 * company's `case_watch` row lock, and compares each case with the index row it locked: a page read
 * again after a crash finds its own changes already made and adds nothing, and two watchers never
 * announce one change twice. Facts only: never a name, a contact, a text or the complaint number.
 */
import { type BoundCase, UNBOUND_ROW_GRACE_MS } from '../store/case-binding.ts';
import { appendCaseEvents } from '../store/case-events.ts';
import type { StoreDb } from '../store/database.ts';
import {
  and,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { type CaseEventKind, caseIndex, caseWatch } from '../store/schema.ts';
import { filedFrom, filedUpTo } from './filing-days.ts';

/** What the index keeps of a case and compares on every sweep. */
export type IndexFacts = { lineId: number | null; categoryId: number | null; statusId: number | null };

/** A case as a legacy table row (or the gateway's own write) shows it now. */
export type SeenCase = IndexFacts & {
  ref: BoundCase;
  /** From the case detail, for new cases only (absent: not read). */
  channelId?: number | null;
  anonymous?: boolean | null;
  /** The reporter's province and city from the detail (null for an anonymous report). */
  provinceId?: number | null;
  cityId?: number | null;
  /** The detail was read: channel, flag and location above are what it said. */
  detailRead?: boolean;
};

export type IndexedCase = IndexFacts & {
  companyId: number;
  caseId: number;
  binding: string;
  /** WIB wall time of the filing; '' when the legacy wrote it unreadably. */
  filedAt: string;
  channelId: number | null;
  anonymous: boolean | null;
  provinceId: number | null;
  cityId: number | null;
  detailRead: boolean;
  changedAt: Date;
};

export type WatchState = {
  companyId: number;
  seeded: boolean;
  sweepStart: number;
  sweptAt: Date | null;
  polledAt: Date | null;
};

type Tx = Parameters<Parameters<StoreDb['transaction']>[0]>[0];
type Db = StoreDb | Tx;

const indexedOf = (row: typeof caseIndex.$inferSelect): IndexedCase => ({
  companyId: row.companyId,
  caseId: row.caseId,
  binding: row.caseBinding,
  filedAt: row.filedAt,
  lineId: row.lineId,
  categoryId: row.categoryId,
  statusId: row.statusId,
  channelId: row.channelId,
  anonymous: row.anonymous,
  provinceId: row.provinceId,
  cityId: row.cityId,
  detailRead: row.detailRead,
  changedAt: row.changedAt,
});

/** The index rows of these cases of one company. */
export async function indexedCases(
  store: Store,
  companyId: number,
  caseIds: readonly number[],
): Promise<Map<number, IndexedCase>> {
  const found = new Map<number, IndexedCase>();
  if (caseIds.length === 0) return found;
  const rows = await store.db
    .select()
    .from(caseIndex)
    .where(and(eq(caseIndex.companyId, companyId), inArray(caseIndex.caseId, [...caseIds])));
  for (const row of rows) found.set(row.caseId, indexedOf(row));
  return found;
}

/** The store's clock now: what a page's legacy read is compared with (`changed_at` is the store's too). */
export async function storeNow(store: Store): Promise<Date> {
  const result = (await store.db.execute(sql`select clock_timestamp() as now`)) as unknown as {
    rows: { now: Date | string }[];
  };
  return new Date(result.rows[0]!.now);
}

export async function watchStates(store: Store): Promise<Map<number, WatchState>> {
  const rows = await store.db.select().from(caseWatch);
  return new Map(rows.map((row) => [row.companyId, row]));
}

/** Whether the watcher has swept the company's whole table once (its index can answer for it). */
export async function companySeeded(store: Store, companyId: number): Promise<boolean> {
  const [row] = await store.db
    .select({ seeded: caseWatch.seeded })
    .from(caseWatch)
    .where(eq(caseWatch.companyId, companyId));
  return row?.seeded ?? false;
}

export async function indexSize(store: Store): Promise<number> {
  const [row] = await store.db.select({ n: count() }).from(caseIndex);
  return Number(row?.n ?? 0);
}

/** A case event about to be written. */
type NewEvent = {
  kind: CaseEventKind;
  ref: BoundCase;
  lineId: number | null;
  facts: Record<string, number | boolean | null>;
};

async function writeEvents(tx: Tx, events: readonly NewEvent[]): Promise<void> {
  await appendCaseEvents(
    tx,
    events.map((e) => ({
      kind: e.kind,
      companyId: e.ref.companyId,
      caseId: e.ref.caseId,
      caseBinding: e.ref.binding,
      lineId: e.lineId,
      facts: e.facts,
    })),
  );
}

/** The events of a case first seen (or seen as a new incarnation of its id). */
function filedEvent(seen: SeenCase): NewEvent {
  const facts: Record<string, number | boolean | null> = {
    statusId: seen.statusId,
    categoryId: seen.categoryId,
  };
  // Only what is known: a case whose detail was not read has no channel or flag in its facts.
  if (seen.channelId !== undefined && seen.channelId !== null) facts.channelId = seen.channelId;
  if (seen.anonymous !== undefined && seen.anonymous !== null) facts.anonymous = seen.anonymous;
  return { kind: 'case-filed', ref: seen.ref, lineId: seen.lineId, facts };
}

/** The events of a change from `before` to `after` (a new line, then a new status). */
function changeEvents(ref: BoundCase, before: IndexFacts, after: IndexFacts): NewEvent[] {
  const events: NewEvent[] = [];
  if (before.lineId !== after.lineId) {
    events.push({
      kind: 'case-routed',
      ref,
      lineId: after.lineId,
      facts: { fromLineId: before.lineId, toLineId: after.lineId },
    });
  }
  if (before.statusId !== after.statusId) {
    events.push({
      kind: 'status-changed',
      ref,
      lineId: after.lineId,
      facts: { fromStatusId: before.statusId, toStatusId: after.statusId },
    });
  }
  return events;
}

const sameFacts = (a: IndexFacts, b: IndexFacts) =>
  a.lineId === b.lineId && a.categoryId === b.categoryId && a.statusId === b.statusId;

export type PageWrite = {
  companyId: number;
  seen: readonly SeenCase[];
  /** The store's time just before the legacy was read: index rows changed after it are newer than the page. */
  readAt: Date;
  /** A sweep page moves the cursor (from where it was read to `next`); `wrapped`: the table's end was reached. */
  sweep?: { from: number; next: number; wrapped: boolean };
  /**
   * The span of filing times the page covers without a gap (exclusive bounds, null: unbounded): an
   * index row in it that the page does not hold is no longer at the legacy.
   */
  span?: { after: string | null; before: string | null };
};

export type PageOutcome = {
  /** Events written, by kind. */
  filed: number;
  routed: number;
  statusChanged: number;
  /** Rows added (news or history), facts changed, rows of cases no longer at the legacy removed. */
  inserted: number;
  updated: number;
  removed: number;
  /** The company's first full sweep ended with this page. */
  seededNow: boolean;
  /** Cases whose status moved (their clock facts are stale). */
  statusMoved: number[];
};

/**
 * Brings the index in step with one page of a company's table, in one transaction: new rows, changed
 * facts and replaced incarnations, their events (none before the company's first full sweep ended:
 * that is history, not news), and the company's watch row. Safe to run again with the same page.
 */
export async function writePage(store: Store, page: PageWrite): Promise<PageOutcome> {
  const { companyId, readAt } = page;
  return store.db.transaction(async (tx) => {
    await tx.insert(caseWatch).values({ companyId }).onConflictDoNothing();
    const [watch] = await tx.select().from(caseWatch).where(eq(caseWatch.companyId, companyId)).for('update');
    if (!watch) throw new Error('case_watch row missing after insert');
    const announce = watch.seeded;
    const outcome: PageOutcome = {
      filed: 0,
      routed: 0,
      statusChanged: 0,
      inserted: 0,
      updated: 0,
      removed: 0,
      seededNow: false,
      statusMoved: [],
    };
    const seen = new Map<number, SeenCase>();
    for (const s of page.seen) if (s.ref.companyId === companyId) seen.set(s.ref.caseId, s);
    const ids = [...seen.keys()];
    const kept = new Map<number, IndexedCase>();
    if (ids.length > 0) {
      const rows = await tx
        .select()
        .from(caseIndex)
        .where(and(eq(caseIndex.companyId, companyId), inArray(caseIndex.caseId, ids)))
        .for('update');
      for (const row of rows) kept.set(row.caseId, indexedOf(row));
    }
    const events: NewEvent[] = [];
    const fresh: SeenCase[] = [];
    for (const s of seen.values()) {
      const k = kept.get(s.ref.caseId);
      if (!k) {
        fresh.push(s);
        continue;
      }
      // Changed after this page was read (the gateway's own write, another watcher): the page is older.
      if (k.changedAt.getTime() > readAt.getTime()) continue;
      if (k.binding !== s.ref.binding) {
        // The legacy issued this id again: a new case. The earlier one's rows elsewhere stay as they are.
        await tx
          .update(caseIndex)
          .set({
            caseBinding: s.ref.binding,
            filedAt: s.ref.filedAt ?? '',
            lineId: s.lineId,
            categoryId: s.categoryId,
            statusId: s.statusId,
            channelId: s.channelId ?? null,
            anonymous: s.anonymous ?? null,
            provinceId: s.provinceId ?? null,
            cityId: s.cityId ?? null,
            detailRead: s.detailRead ?? false,
            closedAt: null,
            firstSeenAt: sql`now()`,
            changedAt: sql`now()`,
          })
          .where(
            and(
              eq(caseIndex.companyId, companyId),
              eq(caseIndex.caseId, s.ref.caseId),
              eq(caseIndex.caseBinding, k.binding),
            ),
          );
        outcome.updated += 1;
        if (announce) events.push(filedEvent(s));
        continue;
      }
      // A detail read now fills what the row lacks (a row never read takes all of it: the backfill).
      const detail = s.detailRead === true && !k.detailRead;
      const fill =
        detail ||
        (s.channelId != null && k.channelId === null) ||
        (s.anonymous != null && k.anonymous === null);
      if (sameFacts(k, s) && !fill) continue;
      await tx
        .update(caseIndex)
        .set({
          lineId: s.lineId,
          categoryId: s.categoryId,
          statusId: s.statusId,
          ...(s.channelId != null && k.channelId === null ? { channelId: s.channelId } : {}),
          ...(s.anonymous != null && k.anonymous === null ? { anonymous: s.anonymous } : {}),
          ...(detail ? { provinceId: s.provinceId ?? null, cityId: s.cityId ?? null, detailRead: true } : {}),
          ...(sameFacts(k, s) ? {} : { changedAt: sql`now()` }),
          // A new status: when the case became final is looked up again (retention/).
          ...(k.statusId !== s.statusId ? { closedAt: null } : {}),
        })
        .where(
          and(
            eq(caseIndex.companyId, companyId),
            eq(caseIndex.caseId, s.ref.caseId),
            eq(caseIndex.caseBinding, k.binding),
          ),
        );
      outcome.updated += 1;
      if (k.statusId !== s.statusId) outcome.statusMoved.push(s.ref.caseId);
      if (announce) events.push(...changeEvents(s.ref, k, s));
    }
    if (fresh.length > 0) {
      const inserted = await tx
        .insert(caseIndex)
        .values(
          fresh.map((s) => ({
            companyId,
            caseId: s.ref.caseId,
            caseBinding: s.ref.binding,
            filedAt: s.ref.filedAt ?? '',
            lineId: s.lineId,
            categoryId: s.categoryId,
            statusId: s.statusId,
            channelId: s.channelId ?? null,
            anonymous: s.anonymous ?? null,
            provinceId: s.provinceId ?? null,
            cityId: s.cityId ?? null,
            detailRead: s.detailRead ?? false,
          })),
        )
        .onConflictDoNothing()
        .returning({ caseId: caseIndex.caseId });
      outcome.inserted += inserted.length;
      if (announce) {
        const added = new Set(inserted.map((row) => row.caseId));
        for (const s of fresh) if (added.has(s.ref.caseId)) events.push(filedEvent(s));
      }
    }
    if (page.span) outcome.removed = await removeGone(tx, companyId, ids, page.span, readAt);
    for (const e of events) {
      if (e.kind === 'case-filed') outcome.filed += 1;
      else if (e.kind === 'case-routed') outcome.routed += 1;
      else if (e.kind === 'status-changed') outcome.statusChanged += 1;
    }
    await writeEvents(tx, events);
    const sweep = page.sweep;
    if (sweep && watch.sweepStart === sweep.from) {
      outcome.seededNow = sweep.wrapped && !watch.seeded;
      await tx
        .update(caseWatch)
        .set({
          sweepStart: sweep.next,
          polledAt: sql`now()`,
          ...(sweep.wrapped ? { seeded: true, sweptAt: sql`now()` } : {}),
        })
        .where(eq(caseWatch.companyId, companyId));
    } else {
      await tx.update(caseWatch).set({ polledAt: sql`now()` }).where(eq(caseWatch.companyId, companyId));
    }
    return outcome;
  });
}

/** Index rows in `span` that the page does not hold, unchanged since it was read: gone from the legacy. */
async function removeGone(
  tx: Db,
  companyId: number,
  pageIds: readonly number[],
  span: NonNullable<PageWrite['span']>,
  readAt: Date,
): Promise<number> {
  const conditions = [
    eq(caseIndex.companyId, companyId),
    ne(caseIndex.filedAt, ''),
    lte(caseIndex.changedAt, readAt),
  ];
  if (span.after !== null) conditions.push(gt(caseIndex.filedAt, span.after));
  if (span.before !== null) conditions.push(lt(caseIndex.filedAt, span.before));
  if (pageIds.length > 0) conditions.push(notInArray(caseIndex.caseId, [...pageIds]));
  const removed = await tx
    .delete(caseIndex)
    .where(and(...conditions))
    .returning({ caseId: caseIndex.caseId });
  return removed.length;
}

/**
 * Index rows of a company whose detail was never read (the first sweep reads none), newest first:
 * what the watcher backfills when it has calls to spare. `skip`: cases whose read failed lately.
 */
export async function unreadDetailCases(
  store: Store,
  companyId: number,
  limit: number,
  skip: readonly number[] = [],
): Promise<IndexedCase[]> {
  if (limit <= 0) return [];
  const conditions = [eq(caseIndex.companyId, companyId), eq(caseIndex.detailRead, false)];
  if (skip.length > 0) conditions.push(notInArray(caseIndex.caseId, [...skip]));
  const rows = await store.db
    .select()
    .from(caseIndex)
    .where(and(...conditions))
    .orderBy(desc(caseIndex.filedAt), desc(caseIndex.caseId))
    .limit(limit);
  return rows.map(indexedOf);
}

/** What a case's detail says that the index keeps (never a name, a contact or a text). */
export type DetailFacts = {
  ref: BoundCase;
  channelId: number | null;
  anonymous: boolean | null;
  provinceId: number | null;
  cityId: number | null;
};

/**
 * The backfill's write: the detail's facts into rows of the same incarnation not read yet. Index
 * facts (line, category, status) are the sweep's and stay; `changed_at` does not move (nothing the
 * legacy's table shows changed). Answers the rows filled.
 */
export async function fillDetails(store: Store, details: readonly DetailFacts[]): Promise<number> {
  let filled = 0;
  for (const d of details) {
    const rows = await store.db
      .update(caseIndex)
      .set({
        channelId: d.channelId,
        anonymous: d.anonymous,
        provinceId: d.provinceId,
        cityId: d.cityId,
        detailRead: true,
      })
      .where(
        and(
          eq(caseIndex.companyId, d.ref.companyId),
          eq(caseIndex.caseId, d.ref.caseId),
          eq(caseIndex.caseBinding, d.ref.binding),
          eq(caseIndex.detailRead, false),
        ),
      )
      .returning({ caseId: caseIndex.caseId });
    filled += rows.length;
  }
  return filled;
}

export type NotedChange = { routed: boolean; statusChanged: boolean };

/**
 * The gateway's own write to a case (an activity log saved through it): the index and the events
 * are updated at once instead of at the next sweep. Compared with the index row under its lock, so
 * the sweep that later reads the same state adds nothing. A case the index does not hold yet (or
 * holds as another incarnation) is left to the watcher, which will see it with these facts.
 */
export async function noteCaseChange(
  store: Store,
  ref: BoundCase,
  facts: Partial<IndexFacts>,
): Promise<NotedChange> {
  return store.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(caseIndex)
      .where(and(eq(caseIndex.companyId, ref.companyId), eq(caseIndex.caseId, ref.caseId)))
      .for('update');
    if (!row || row.caseBinding !== ref.binding) return { routed: false, statusChanged: false };
    const before = indexedOf(row);
    const after: IndexFacts = {
      lineId: facts.lineId === undefined ? before.lineId : facts.lineId,
      categoryId: facts.categoryId === undefined ? before.categoryId : facts.categoryId,
      statusId: facts.statusId === undefined ? before.statusId : facts.statusId,
    };
    if (sameFacts(before, after)) return { routed: false, statusChanged: false };
    await tx
      .update(caseIndex)
      .set({
        ...after,
        changedAt: sql`now()`,
        ...(before.statusId !== after.statusId ? { closedAt: null } : {}),
      })
      .where(
        and(
          eq(caseIndex.companyId, ref.companyId),
          eq(caseIndex.caseId, ref.caseId),
          eq(caseIndex.caseBinding, ref.binding),
        ),
      );
    await writeEvents(tx, changeEvents(ref, before, after));
    return { routed: before.lineId !== after.lineId, statusChanged: before.statusId !== after.statusId };
  });
}

/**
 * Cases of a company whose clock facts are missing or were read at another status than the index
 * holds (oldest first): what the watcher reads the log of when it has calls to spare. Baru needs no
 * read (its log has no status change), final statuses no clock.
 */
export async function staleClockCases(
  store: Store,
  companyId: number,
  skipStatusIds: readonly number[],
  limit: number,
): Promise<number[]> {
  if (limit <= 0 || skipStatusIds.length === 0) return [];
  const result = (await store.db.execute(sql`
    select i.case_id from case_index i
      left join case_clock c on c.company_id = i.company_id and c.case_id = i.case_id
       and (c.case_binding = i.case_binding or (c.case_binding is null and c.filed_at = i.filed_at))
     where i.company_id = ${companyId} and i.filed_at <> '' and i.status_id is not null
       and i.status_id not in ${[...skipStatusIds]}
       and (c.case_id is null or c.status_id_seen is distinct from i.status_id)
     order by i.filed_at asc, i.case_id asc
     limit ${limit}`)) as unknown as { rows: { case_id: number }[] };
  return result.rows.map((row) => Number(row.case_id));
}

/** What the overdue path selects by: the caller's scope within the company, and the list's filters. */
export type IndexQuery = {
  companyId: number;
  /** An analyst: cases of this line or of none yet (the legacy's staff table rule). */
  staffLineId?: number | null;
  /** Statuses never overdue (final). */
  finalStatusIds: readonly number[];
  /** Filed on or before this day (YYYY-MM-DD): younger cases cannot be late yet. */
  filedUpTo: string;
  from?: string | undefined;
  to?: string | undefined;
  categoryId?: number | undefined;
  lineId?: number | undefined;
  statusId?: number | undefined;
};

/** The clock facts kept for a candidate's incarnation (clocks/store.ts `case_clock`). */
export type CandidateClock = {
  caseBinding: string | null;
  filedAt: string;
  ackDays: number;
  feedbackMonths: number;
  statusIdSeen: number | null;
  logAcknowledgedAt: string | null;
  logAnsweredAt: string | null;
};

/** An index row that may be overdue, with what its clock is computed from. */
export type OverdueCandidate = IndexedCase & {
  clock: CandidateClock | null;
  /** When the first two handler messages of this incarnation were written (ms), oldest first. */
  messageMs: number[];
};

type CandidateRow = {
  company_id: number;
  case_id: number;
  case_binding: string;
  line_id: number | null;
  category_id: number | null;
  status_id: number | null;
  channel_id: number | null;
  anonymous: boolean | null;
  province_id: number | null;
  city_id: number | null;
  detail_read: boolean;
  filed_at: string;
  changed_at: Date | string;
  has_clock: boolean;
  c_binding: string | null;
  c_filed_at: string | null;
  ack_days: number | null;
  feedback_months: number | null;
  status_id_seen: number | null;
  log_acknowledged_at: string | null;
  log_answered_at: string | null;
  message_ms: number[] | string | null;
};

/** A float8[] as node-postgres (numbers) or PGlite (numbers, or the array's text) hands it over. */
const msList = (value: CandidateRow['message_ms']): number[] => {
  if (value === null) return [];
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
};

/** The index rows of `q`'s scope and filters that are not final and old enough to be late. */
function candidateConditions(q: IndexQuery): SQL[] {
  const conditions = [
    eq(caseIndex.companyId, q.companyId),
    ne(caseIndex.filedAt, ''),
    filedUpTo(caseIndex.filedAt, q.filedUpTo),
    or(isNull(caseIndex.statusId), notInArray(caseIndex.statusId, [...q.finalStatusIds])) as SQL,
  ];
  if (q.staffLineId !== undefined) {
    conditions.push(
      q.staffLineId === null
        ? sql`${caseIndex.lineId} is null`
        : sql`(${caseIndex.lineId} is null or ${caseIndex.lineId} = ${q.staffLineId})`,
    );
  }
  if (q.from) conditions.push(filedFrom(caseIndex.filedAt, q.from));
  if (q.to) conditions.push(filedUpTo(caseIndex.filedAt, q.to));
  if (q.categoryId !== undefined) conditions.push(eq(caseIndex.categoryId, q.categoryId));
  if (q.lineId !== undefined) conditions.push(eq(caseIndex.lineId, q.lineId));
  if (q.statusId !== undefined) conditions.push(eq(caseIndex.statusId, q.statusId));
  return conditions;
}

/**
 * The clock row of the index row's own incarnation (store/case-binding.ts): by binding, or unbound and
 * of the same filing. `when`: only for the rows it is true of (a condition on the index row alone),
 * looked up row by row, the look-up never made for the others (a one-time filter; `offset 0` keeps the
 * planner from folding it into a join, which read every kept row of the company into a hash for a few
 * hundred undecided rows).
 */
const keptClockJoin = (when?: SQL) =>
  when
    ? sql`
      left join lateral (
        select * from case_clock c
         where ${when} and c.company_id = case_index.company_id and c.case_id = case_index.case_id
           and (c.case_binding = case_index.case_binding
                or (c.case_binding is null and c.filed_at = case_index.filed_at))
        offset 0
      ) c on true`
    : sql`
      left join case_clock c
        on c.company_id = case_index.company_id and c.case_id = case_index.case_id
       and (c.case_binding = case_index.case_binding
            or (c.case_binding is null and c.filed_at = case_index.filed_at))`;

/**
 * The first two handler messages of the index row's own incarnation (by binding, or unbound and
 * written after the filing less the allowed clock skew), as `m.message_ms`. `when`: only for the
 * rows it is true of; for the others the lookup is never made (a one-time filter).
 */
const firstMessagesJoin = (when: SQL = sql`true`) => sql`
      left join lateral (
        select array_agg(x.ms order by x.id) as message_ms
          from (select m.id, (extract(epoch from m.created_at) * 1000)::float8 as ms
                  from case_message m
                 where ${when} and m.company_id = case_index.company_id and m.case_id = case_index.case_id
                   and m.author_kind = 'handler'
                   and (m.case_binding = case_index.case_binding
                        or (m.case_binding is null
                            and m.created_at >= (case_index.filed_at || '+07:00')::timestamptz
                                               - make_interval(secs => ${UNBOUND_ROW_GRACE_MS / 1000})))
                 order by m.id
                 limit 2) x
      ) m on true`;

const keptClockColumns = sql`c.case_id is not null as has_clock, c.case_binding as c_binding,
           c.filed_at as c_filed_at, c.ack_days, c.feedback_months, c.status_id_seen,
           c.log_acknowledged_at, c.log_answered_at, m.message_ms`;

const clockOfRow = (row: CandidateRow): CandidateClock | null =>
  row.has_clock
    ? {
        caseBinding: row.c_binding,
        filedAt: row.c_filed_at as string,
        ackDays: Number(row.ack_days),
        feedbackMonths: Number(row.feedback_months),
        statusIdSeen: row.status_id_seen,
        logAcknowledgedAt: row.log_acknowledged_at,
        logAnsweredAt: row.log_answered_at,
      }
    : null;

const indexedRowOf = (row: CandidateRow): IndexedRow => ({
  caseId: Number(row.case_id),
  binding: row.case_binding,
  filedAt: row.filed_at,
  lineId: row.line_id,
  categoryId: row.category_id,
  statusId: row.status_id,
});

const candidateOf = (row: CandidateRow): OverdueCandidate => ({
  companyId: Number(row.company_id),
  ...indexedRowOf(row),
  channelId: row.channel_id,
  anonymous: row.anonymous,
  provinceId: row.province_id === null ? null : Number(row.province_id),
  cityId: row.city_id === null ? null : Number(row.city_id),
  detailRead: row.detail_read,
  changedAt: new Date(row.changed_at),
  clock: clockOfRow(row),
  messageMs: msList(row.message_ms),
});

/**
 * The index rows that may be overdue (not final, old enough, in the scope and filters), each with
 * its kept clock facts and first two handler messages, in ONE statement of joins: thousands of
 * candidates are a few index look-ups each (a list of thousands of ids as one array parameter was
 * compared row by row, which cost half a second at 6,000). What the deadline notices scan.
 */
export async function overdueCandidates(store: Store, q: IndexQuery): Promise<OverdueCandidate[]> {
  const result = (await store.db.execute(sql`
    select case_index.*, ${keptClockColumns}
      from case_index ${keptClockJoin()} ${firstMessagesJoin()}
     where ${and(...candidateConditions(q))}
       -- Answered at the status the index holds: handled, whatever the deadlines or messages (a
       -- message only moves an answer earlier). Most open cases of a long history are such; reading
       -- them made the overdue filter cost seconds at 100,000 cases.
       -- (An answer without an acknowledgement is no event of the clock: clocks/service.ts logEvents.)
       and not (c.case_id is not null and c.log_acknowledged_at is not null and c.log_answered_at is not null
                and c.status_id_seen is not distinct from case_index.status_id)
     order by case_index.filed_at, case_index.case_id`)) as unknown as { rows: CandidateRow[] };
  return result.rows.map(candidateOf);
}

/** An index row as the indexed lists sort, fence and page it (clocks/indexed.ts). */
export type IndexedRow = Pick<
  IndexedCase,
  'caseId' | 'binding' | 'filedAt' | 'lineId' | 'categoryId' | 'statusId'
>;

/** An index row the kept durations cannot decide, with what its clock is computed from. */
export type UndecidedRow = IndexedRow & Pick<OverdueCandidate, 'clock' | 'messageMs'>;

/**
 * The overdue cases of `q` as the kept durations tell them on `today` (WIB day), with the rows they
 * cannot tell (docs/adr/0071-overdue-from-kept-durations.md). The caller refreshes the durations first.
 *
 * - Only reports not answered yet are read, through `case_handling_unanswered_idx`, and every index
 *   row in Baru (an answer read at another status does not hold there: clocks/service.ts): a report
 *   answered by its kept facts stays answered whatever status it moved to, as the log only grows.
 * - `overdue`: facts kept for this incarnation and read at the status the index holds; the running
 *   step (acknowledgement until the first event, then the answer) is past its kept due day.
 * - `undecided`: no facts kept, or read at another status: the caller reads them as before, with
 *   their kept clock row and first two handler messages.
 * A report whose durations could not be derived (refreshDurations logs it) is in neither.
 */
export async function overdueOfIndex(
  store: Store,
  q: IndexQuery & { today: string; newStatusId: number },
): Promise<{ overdue: IndexedRow[]; undecided: UndecidedRow[] }> {
  const undecided = sql`(h.case_id is null or not h.kept
                         or h.status_id_seen is distinct from case_index.status_id)`;
  // Only what the list sorts and fences by (thousands of rows: every column read is parsed).
  const result = (await store.db.execute(sql`
    select case_index.case_id, case_index.case_binding, case_index.filed_at, case_index.line_id,
           case_index.category_id, case_index.status_id, ${undecided} as undecided, ${keptClockColumns}
      from case_index
      left join case_handling h
        on h.company_id = case_index.company_id and h.case_id = case_index.case_id
       and h.ans_on is null and h.case_binding = case_index.case_binding
      ${keptClockJoin(undecided)} ${firstMessagesJoin(undecided)}
     where ${and(...candidateConditions(q))}
       and (h.case_id is not null or case_index.status_id is null
            or case_index.status_id = ${q.newStatusId})
       -- In Baru and answered by facts read in Baru: handled.
       and not (h.case_id is null and c.case_id is not null
                and c.status_id_seen is not distinct from case_index.status_id)
       and (${undecided}
            or (h.ack_on is null and h.ack_due < ${q.today}::date)
            or (h.ack_on is not null and h.ans_due < ${q.today}::date))`)) as unknown as {
    rows: (CandidateRow & { undecided: boolean })[];
  };
  const overdue: IndexedRow[] = [];
  const open: UndecidedRow[] = [];
  for (const row of result.rows) {
    const indexed = indexedRowOf(row);
    if (row.undecided) open.push({ ...indexed, clock: clockOfRow(row), messageMs: msList(row.message_ms) });
    else overdue.push(indexed);
  }
  return { overdue, undecided: open };
}
