/**
 * Handling clocks of cases (docs/product/handling.md#handling-clocks), derived from the legacy's case and
 * log dates plus the store's handler messages, never kept in a browser:
 * - a case detail (or the tracker's copy) carries its whole log: its clock is derived from it at once;
 * - a case-list row carries only the current status: the facts read from the log are kept per case in
 *   the store (`case_clock`) and read again only when the row's status has moved since (a case still
 *   in Baru has had no status change: nothing to read).
 * A failing store never fails the case reply: the clock is then null (the overdue filter and the
 * dashboard tile, which are nothing but clocks, answer 503 instead).
 */
import type { CaseStatusRow } from '@wbs/shared/api/reference';
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import {
  addDays,
  type HandlingClock,
  type HandlingDeadlines,
  type HandlingEvent,
  handlingClock,
  handlingFacts,
  normaliseWallTime,
  statusChangeEvents,
  wibToday,
} from '@wbs/shared/handling-clock';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { LegacyCase, LegacyCaseRow } from '../legacy/case-schemas.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { caseStatusTable } from '../legacy/reference.ts';
import type { Caller } from '../policies/caller.ts';
import { loadCaseInScope } from '../policies/case-scope.ts';
import type { BoundCase } from '../store/case-binding.ts';
import type { Store } from '../store/plugin.ts';
import {
  type ClockInputs,
  type ClockRow,
  type ClockRowInput,
  clockInputsOf,
  deadlinesOf,
  saveClockRows,
} from './store.ts';

/** Case details read at once to refresh stale list rows (the legacy is not flooded by one list). */
export const REFRESH_CONCURRENCY = 4;
/**
 * Case details one request reads at the most: a first overdue walk over a long history continues on
 * the next request instead of holding this one (and the legacy) for minutes; until then it is partial.
 */
export const MAX_REFRESH_PER_REQUEST = 200;

/**
 * How long a process reuses what the store said of a case's clock for LIST rows
 * (docs/adr/0034-handling-clock-computation.md): the
 * clocks are day-granular, so a few seconds cost nothing, and the case list is the gateway's hottest
 * path. This process's own writes (clock facts, a handler's message) replace or drop the entry at once;
 * another replica's are seen within this time. Details and tracking always read the store.
 */
const LIST_INPUT_TTL_MS = 5_000;
const LIST_INPUT_MAX_ENTRIES = 50_000;

/** What the store said of one case incarnation (`binding`): a reissued id is another entry. */
/**
 * What the clocks work with, for one request: who asks (to read a case's log in its scope), the store,
 * the group's default deadlines, the app's input cache and the request's log. Made by
 * clocks/plugin.ts (`request.clocks`).
 */
export type ClockContext = {
  caller: Caller;
  store(): Promise<Store>;
  defaults: HandlingDeadlines;
  cache: InputCache;
  log: FastifyBaseLogger;
};

type CachedInputs = { binding: string; row: ClockRow | undefined; messages: string[]; unread: number };
export type InputCache = {
  cases: LRUCache<string, CachedInputs>;
  deadlines: LRUCache<number, { deadlines: HandlingDeadlines | null }>;
};
/** One per app (clocks/plugin.ts). */
export function inputCache(): InputCache {
  // Entries live LIST_INPUT_TTL_MS from when they were read (a hit does not extend them).
  return {
    cases: new LRUCache({ max: LIST_INPUT_MAX_ENTRIES, ttl: LIST_INPUT_TTL_MS }),
    deadlines: new LRUCache({ max: 10_000, ttl: LIST_INPUT_TTL_MS }),
  };
}

const caseKey = (companyId: number, caseId: number) => `${companyId}:${caseId}`;

/** Drops what this process kept of a case's clock (a handler just wrote to the reporter). */
export function forgetClockInputs(ctx: ClockContext, companyId: number, caseId: number): void {
  ctx.cache.cases.delete(caseKey(companyId, caseId));
}

/** Drops this process's copy of a company's deadlines (the administrator just changed them). */
export function forgetCompanyDeadlines(ctx: ClockContext, companyId: number): void {
  ctx.cache.deadlines.delete(companyId);
}

/** clockInputsOf through the short per-process cache: only cases not seen in the last seconds are read. */
async function cachedClockInputs(
  ctx: ClockContext,
  store: Store,
  companyId: number,
  cases: readonly BoundCase[],
): Promise<ClockInputs> {
  const { cache } = ctx;
  const rows = new Map<number, ClockRow>();
  const messages = new Map<number, string[]>();
  const unread = new Map<number, number>();
  const missing: BoundCase[] = [];
  for (const ref of cases) {
    const id = ref.caseId;
    const hit = cache.cases.get(caseKey(companyId, id));
    if (!hit || hit.binding !== ref.binding) {
      missing.push(ref);
      continue;
    }
    if (hit.row) rows.set(id, hit.row);
    if (hit.messages.length) messages.set(id, hit.messages);
    if (hit.unread) unread.set(id, hit.unread);
  }
  const knownDeadlines = cache.deadlines.get(companyId);
  if (missing.length === 0 && knownDeadlines) {
    return { deadlines: knownDeadlines.deadlines, rows, messages, unread };
  }
  const read = await clockInputsOf(store, companyId, missing);
  for (const { caseId: id, binding } of missing) {
    const row = read.rows.get(id);
    const times = read.messages.get(id) ?? [];
    const marks = read.unread.get(id) ?? 0;
    cache.cases.set(caseKey(companyId, id), { binding, row, messages: times, unread: marks });
    if (row) rows.set(id, row);
    if (times.length) messages.set(id, times);
    if (marks) unread.set(id, marks);
  }
  cache.deadlines.set(companyId, { deadlines: read.deadlines });
  return { deadlines: read.deadlines, rows, messages, unread };
}

/** Keeps this process's cache in step with the clock facts it just wrote. */
export function rememberClockRows(ctx: ClockContext, rows: readonly ClockRowInput[]): void {
  const { cache } = ctx;
  for (const row of rows) {
    const hit = cache.cases.get(caseKey(row.companyId, row.caseId));
    if (hit && hit.binding === row.caseBinding) hit.row = { ...row, updatedAt: new Date() };
  }
}

/** A clock row as kept or about to be written (a kept one may still be unbound: case-binding.ts). */
export type ClockFacts = Omit<ClockRow, 'updatedAt'>;

export type LogFacts = { acknowledgedAt: string | null; answeredAt: string | null };

/** The final ids of each status table the reference cache handed out (its tables are frozen, shared). */
const finalIdsOfTable = new WeakMap<readonly CaseStatusRow[], ReadonlySet<number>>();

/** A final status: the legacy does not list it as open (docs/product/handling.md#case-workflow). Unknown
 * table: nothing is final. */
async function finalStatusIds(ctx: ClockContext): Promise<ReadonlySet<number>> {
  return finalStatusIdsOf(ctx.caller.legacy, ctx.log);
}

/** finalStatusIds as any legacy caller reads them (the case-index watcher has no request). */
export async function finalStatusIdsOf(
  legacy: LegacyCaller,
  log: FastifyBaseLogger,
): Promise<ReadonlySet<number>> {
  try {
    const table = await caseStatusTable(legacy);
    let finals = finalIdsOfTable.get(table);
    if (!finals) {
      finals = new Set(table.filter((s) => !s.open).map((s) => s.id));
      finalIdsOfTable.set(table, finals);
    }
    return finals;
  } catch (error) {
    log.warn({ err: { message: (error as Error).message } }, 'clocks: status table unavailable');
    return new Set();
  }
}

/** Acknowledgement and answer as the legacy's activity log alone shows them. */
export function logFactsOf(c: LegacyCase, finals: ReadonlySet<number>): LogFacts {
  const filedAt = normaliseWallTime(c.caseCreated) ?? '';
  const events = statusChangeEvents(
    (c.caselogs ?? []).map((log) => ({
      at: normaliseWallTime(log.caseLogCreated),
      statusId: log.caseLogCaseStatusId,
    })),
    STATUS_NEW_ID,
    (id) => finals.has(id),
  );
  const { acknowledgedAt, answeredAt } = handlingFacts(filedAt, events);
  return { acknowledgedAt, answeredAt };
}

/** The log facts as events again, to be merged with the handler messages. */
function logEvents(facts: LogFacts): HandlingEvent[] {
  if (facts.acknowledgedAt === null) return [];
  const finalAtOnce = facts.answeredAt === facts.acknowledgedAt;
  const events: HandlingEvent[] = [
    { at: facts.acknowledgedAt, kind: finalAtOnce ? 'final-status' : 'status-change' },
  ];
  if (facts.answeredAt !== null && !finalAtOnce) events.push({ at: facts.answeredAt, kind: 'status-change' });
  return events;
}

export function clockOf(row: ClockFacts, messages: readonly string[], today: string): HandlingClock {
  const events = [
    ...logEvents({ acknowledgedAt: row.logAcknowledgedAt, answeredAt: row.logAnsweredAt }),
    ...messages.map((at): HandlingEvent => ({ at, kind: 'message' })),
  ];
  return handlingClock(
    handlingFacts(row.filedAt, events),
    { ackDays: row.ackDays, feedbackMonths: row.feedbackMonths },
    today,
  );
}

/**
 * Clocks already computed for a kept row: the input cache hands out the same row and message objects
 * for its 5 s, in which a busy list would compute the same clocks on every request (they were a tenth
 * of the list's CPU). A new row, new messages or a new day computes afresh.
 */
const rowClocks = new WeakMap<
  ClockFacts,
  { today: string; messages: readonly string[] | undefined; clock: HandlingClock }
>();

/** `clockOf` through `rowClocks`; frozen, as one object then serves every reply that reuses it. */
function rowClock(kept: ClockFacts, messages: readonly string[] | undefined, today: string): HandlingClock {
  const known = rowClocks.get(kept);
  if (known && known.today === today && known.messages === messages) return known.clock;
  const clock = clockOf(kept, messages ?? [], today);
  Object.freeze(clock.acknowledgement);
  Object.freeze(clock.feedback);
  rowClocks.set(kept, { today, messages, clock: Object.freeze(clock) });
  return clock;
}

/** The row to keep for a case: the deadlines already frozen for it, else the company's current ones. */
export function clockRowFor(
  ref: BoundCase,
  filedAt: string,
  statusIdSeen: number | null,
  facts: LogFacts,
  existing: ClockRow | undefined,
  deadlines: HandlingDeadlines,
): ClockRowInput {
  return {
    companyId: ref.companyId,
    caseId: ref.caseId,
    caseBinding: ref.binding,
    filedAt: existing?.filedAt ?? filedAt,
    ackDays: existing?.ackDays ?? deadlines.ackDays,
    feedbackMonths: existing?.feedbackMonths ?? deadlines.feedbackMonths,
    statusIdSeen,
    logAcknowledgedAt: facts.acknowledgedAt,
    logAnsweredAt: facts.answeredAt,
  };
}

async function companyDeadlines(ctx: ClockContext, store: Store, companyId: number) {
  const { defaults } = ctx;
  return (await deadlinesOf(store, [companyId], defaults)).get(companyId) ?? defaults;
}

/** A company's acknowledgement period in days now, or null when the store cannot tell. */
export async function ackDaysOf(ctx: ClockContext, companyId: number): Promise<number | null> {
  try {
    const store = await ctx.store();
    return (await companyDeadlines(ctx, store, companyId)).ackDays;
  } catch (error) {
    ctx.log.warn({ err: { message: (error as Error).message } }, 'clocks: deadlines unavailable');
    return null;
  }
}

/** The clock of one case whose whole log is at hand (detail, tracking), keeping its facts. */
export async function clockOfCase(ctx: ClockContext, c: LegacyCase): Promise<HandlingClock | null> {
  // A filing time the legacy wrote unreadably gives no clock rather than a wrong one.
  if (normaliseWallTime(c.caseCreated) === null) return null;
  try {
    const store = await ctx.store();
    const finals = await finalStatusIds(ctx);
    const filedAt = normaliseWallTime(c.caseCreated) as string;
    const ref = store.cases.bind(c);
    const {
      rows: existing,
      messages,
      deadlines: own,
    } = await clockInputsOf(store, c.caseCompanyId, [ref], false);
    const deadlines = own ?? ctx.defaults;
    const row = clockRowFor(
      ref,
      filedAt,
      c.caseCaseStatusId,
      logFactsOf(c, finals),
      existing.get(c.caseId),
      deadlines,
    );
    // A read of an unchanged case writes nothing (a detail read is a hot path, and already appends
    // its audit record).
    if (!sameFacts(existing.get(c.caseId), row)) {
      await saveClockRows(store, [row]);
      rememberClockRows(ctx, [row]);
    }
    return clockOf(row, messages.get(c.caseId) ?? [], wibToday());
  } catch (error) {
    ctx.log.error({ err: { message: (error as Error).message } }, 'clocks: case clock unavailable');
    return null;
  }
}

/** Whether the kept row already says what was just read from the legacy. */
function sameFacts(kept: ClockRow | undefined, row: ClockRowInput): boolean {
  return (
    kept !== undefined &&
    // A row from before bindings is written once with its binding.
    kept.caseBinding === row.caseBinding &&
    kept.statusIdSeen === row.statusIdSeen &&
    kept.logAcknowledgedAt === row.logAcknowledgedAt &&
    kept.logAnsweredAt === row.logAnsweredAt
  );
}

/**
 * The last filing day that can be late for an acknowledgement period, as of `today`: one date
 * computed per period, not per row (an overdue walk asks it for thousands of rows with a handful of
 * periods).
 */
export function lateFiledBefore(today: string): (ackDays: number) => string {
  const byPeriod = new Map<number, string>();
  return (ackDays) => {
    let day = byPeriod.get(ackDays);
    if (day === undefined) {
      day = addDays(today, -ackDays);
      byPeriod.set(ackDays, day);
    }
    return day;
  };
}

/** Runs `work` over `items`, at most `limit` at once. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

export type RowClocks = {
  clocks: Map<number, HandlingClock>;
  /** Some rows were left without a clock: more stale rows than one request reads. */
  partial: boolean;
  /** Reporter messages no handler has read yet, per row that has any (read with the clocks' inputs). */
  unread: Map<number, number>;
};

export type RowClockMode =
  /** Every row gets its clock (a list page). */
  | 'all'
  /**
   * Only rows that may be overdue get one (the overdue filter and tile over a whole table): a row in a
   * final status has been answered, and a row filed less than its acknowledgement period ago cannot be
   * late yet, so neither costs a read of its log.
   */
  | 'overdue-candidates';

/**
 * Clocks of case-table rows of ONE company (rows of other companies are skipped). Throws when the
 * store fails: the caller decides whether a list goes on without clocks.
 */
export async function clocksOfRows(
  ctx: ClockContext,
  companyId: number,
  rows: readonly LegacyCaseRow[],
  mode: RowClockMode = 'all',
): Promise<RowClocks> {
  const store = await ctx.store();
  const today = wibToday();
  // Rows of this company with a readable filing time, each case once (whatever the legacy repeats).
  const seen = new Set<number>();
  const all = rows.filter((row) => {
    if (row.caseCompanyId !== companyId || seen.has(row.caseId)) return false;
    seen.add(row.caseId);
    return true;
  });
  const own = all.filter((row) => normaliseWallTime(row.caseCreated) !== null);
  const refs = new Map(all.map((row) => [row.caseId, store.cases.bind(row)]));
  const [inputs, finals] = await Promise.all([
    cachedClockInputs(ctx, store, companyId, [...refs.values()]),
    finalStatusIds(ctx),
  ]);
  const { rows: existing, messages, unread } = inputs;
  const deadlines = inputs.deadlines ?? ctx.defaults;
  // A list page clocks every row; an overdue walk only the rows that may be late (RowClockMode).
  let wanted = own;
  if (mode === 'overdue-candidates') {
    const lateCutoff = lateFiledBefore(today);
    wanted = own.filter((row) => {
      if (row.caseCaseStatusId !== null && finals.has(row.caseCaseStatusId)) return false;
      const filedDay = (normaliseWallTime(row.caseCreated) as string).slice(0, 10);
      const ackDays = existing.get(row.caseId)?.ackDays ?? deadlines.ackDays;
      return filedDay < lateCutoff(ackDays);
    });
  }

  const fresh: ClockRowInput[] = [];
  const stale: LegacyCaseRow[] = [];
  for (const row of wanted) {
    const kept = existing.get(row.caseId);
    if (kept && kept.statusIdSeen === row.caseCaseStatusId) continue;
    const filedAt = normaliseWallTime(row.caseCreated) as string;
    // Still in Baru: no status change in the log yet, so nothing to read.
    if (row.caseCaseStatusId === STATUS_NEW_ID || row.caseCaseStatusId === null) {
      const ref = refs.get(row.caseId) as BoundCase;
      fresh.push(clockRowFor(ref, filedAt, row.caseCaseStatusId, noFacts, kept, deadlines));
    } else {
      stale.push(row);
    }
  }
  const partial = stale.length > MAX_REFRESH_PER_REQUEST;
  await eachLimited(stale.slice(0, MAX_REFRESH_PER_REQUEST), REFRESH_CONCURRENCY, async (row) => {
    try {
      const c = await loadCaseInScope(ctx.caller, row.caseId);
      const filedAt = normaliseWallTime(c.caseCreated) ?? (normaliseWallTime(row.caseCreated) as string);
      fresh.push(
        clockRowFor(
          refs.get(row.caseId) as BoundCase,
          filedAt,
          row.caseCaseStatusId,
          logFactsOf(c, finals),
          existing.get(row.caseId),
          deadlines,
        ),
      );
    } catch (error) {
      // One unreadable case leaves its row without a clock, not the list without rows.
      ctx.log.warn(
        { err: { message: (error as Error).message }, caseId: row.caseId },
        'clocks: case log unread',
      );
    }
  });
  await saveClockRows(store, fresh);
  rememberClockRows(ctx, fresh);

  const rowsById = new Map<number, ClockFacts>(existing);
  for (const row of fresh) rowsById.set(row.caseId, row);
  const clocks = new Map<number, HandlingClock>();
  for (const row of wanted) {
    const kept = rowsById.get(row.caseId);
    if (!kept || kept.statusIdSeen !== row.caseCaseStatusId) continue;
    clocks.set(row.caseId, rowClock(kept, messages.get(row.caseId), today));
  }
  return { clocks, partial, unread };
}

export const noFacts: LogFacts = { acknowledgedAt: null, answeredAt: null };

/**
 * Keeps the clock facts of cases whose whole log was read outside any request (the case-index
 * watcher, with its own legacy account): what a later list, overdue filter or tile would otherwise
 * have to read. Only rows that say something new are written. Answers how many were.
 */
export async function keepClockFacts(
  store: Store,
  defaults: HandlingDeadlines,
  finals: ReadonlySet<number>,
  companyId: number,
  cases: readonly LegacyCase[],
): Promise<number> {
  const readable = cases.filter(
    (c) => c.caseCompanyId === companyId && normaliseWallTime(c.caseCreated) !== null,
  );
  if (readable.length === 0) return 0;
  const refs = readable.map((c) => store.cases.bind(c));
  const { rows: existing, deadlines: own } = await clockInputsOf(store, companyId, refs, false);
  const deadlines = own ?? defaults;
  const rows: ClockRowInput[] = [];
  readable.forEach((c, i) => {
    const row = clockRowFor(
      refs[i]!,
      normaliseWallTime(c.caseCreated) as string,
      c.caseCaseStatusId,
      logFactsOf(c, finals),
      existing.get(c.caseId),
      deadlines,
    );
    if (!sameFacts(existing.get(c.caseId), row)) rows.push(row);
  });
  await saveClockRows(store, rows);
  return rows.length;
}
