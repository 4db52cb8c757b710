/**
 * The case-index watcher (docs/adr/0058-case-index-watcher.md): keeps `case_index` in step with the
 * legacy's case tables, which have no webhooks and change through other channels than the gateway
 * too. One poll (`watchOnce`) reads, per company and with the gateway's own legacy account:
 * - the head: the table newest first, one small page; cases the index does not hold are new (paging
 *   on, a few pages at most, while whole pages are new; a longer run resumes at the next poll);
 * - the sweep: one large page of a cursor rotating over the table oldest first, so every row is
 *   compared within ⌈cases / page⌉ polls: status, line and category changes are found there, and
 *   index rows the legacy no longer has are removed.
 * The first full sweep of a company fills its index silently (that is history); after it, a new case
 * is a `case-filed` event, a new line `case-routed`, a new status `status-changed`. A new case's
 * channel and anonymous flag come from its detail (a few per poll; never a name, contact, text or
 * complaint number is kept), and the reporter's province and city as ids (location.ts). Details also
 * give the clock facts (clocks/service.ts keepClockFacts), and a few more are read per poll for cases
 * whose status moved. Rows whose detail was never read (the silent first sweep reads none) are
 * backfilled a few per poll, newest first (docs/adr/0065-insights-from-the-case-index.md).
 *
 * Scheduling is the caller's (the job queue): one call is one bounded poll. A company whose legacy
 * calls fail is logged (ids only) and counted; the others go on.
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import type { HandlingDeadlines } from '@wbs/shared/handling-clock';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { eachLimited, finalStatusIdsOf, keepClockFacts, REFRESH_CONCURRENCY } from '../clocks/service.ts';
import { ApiProblem } from '../errors.ts';
import type { LegacyCase, LegacyCaseRow } from '../legacy/case-schemas.ts';
import { casePage, caseTableOf, companyCase } from '../legacy/cases.ts';
import { companies } from '../legacy/masters.ts';
import { type LegacyCaller, withToken } from '../legacy/plugin.ts';
import type { ServiceAccount } from '../legacy/service-account.ts';
import type { CasePollFigures } from '../metrics.ts';
import type { StoreDb } from '../store/database.ts';
import type { Store } from '../store/plugin.ts';
import { locationOf } from './location.ts';
import {
  type DetailFacts,
  fillDetails,
  indexedCases,
  indexSize,
  type PageOutcome,
  type SeenCase,
  staleClockCases,
  storeNow,
  unreadDetailCases,
  type WatchState,
  watchStates,
  writePage,
} from './store.ts';

export { type NotedChange, noteCaseChange } from './store.ts';

/** What one poll may spend on the legacy. */
export type WatchBudget = {
  /** Rows of a head page (the table newest first). */
  headPageSize: number;
  /** Head pages per company and poll at the most (beyond the first only while whole pages are new). */
  headPages: number;
  /** Rows of the sweep page (the table oldest first, from the company's cursor). */
  sweepPageSize: number;
  /** Case details read per poll for new cases (channel, anonymous flag, clock facts). */
  newCaseDetails: number;
  /** Case details read per poll to refresh stale clock facts. */
  clockRefreshes: number;
  /** Case details read per poll for index rows whose detail was never read (channel, flag, location). */
  detailBackfill: number;
};

export const DEFAULT_WATCH_BUDGET: WatchBudget = {
  headPageSize: 25,
  headPages: 4,
  sweepPageSize: 500,
  newCaseDetails: 25,
  clockRefreshes: 25,
  detailBackfill: 25,
};

/** Companies read per call of the company list (the group has few). */
const COMPANY_PAGE = 500;
const COMPANY_PAGES_MAX = 20;

export type WatchReport = CasePollFigures & {
  /** Whether the company list could be read (if not, nothing else was). */
  listed: boolean;
  /** Companies the legacy lists, and how many of them failed this poll. */
  companies: number;
  failedCompanies: number;
  /** Legacy calls made by this poll (sign-in of the account included). */
  legacyCalls: number;
  /** `case-filed` events written (new cases after a company's first full sweep). */
  newCases: number;
  /** `case-routed` and `status-changed` events written. */
  changes: number;
  events: { filed: number; routed: number; statusChanged: number };
  /** Index rows added (silently while seeding), updated, removed (no longer at the legacy). */
  inserted: number;
  updated: number;
  removed: number;
  /** Clock facts written from case details. */
  clockFacts: number;
  /** Index rows whose detail (channel, flag, location) the backfill read this poll. */
  backfilled: number;
  /** Companies whose first full sweep is done (their index answers the overdue filter and tile). */
  seededCompanies: number;
  /**
   * Every listed company has been swept whole at least once (its index answers the overdue filter and
   * tile); a company that failed this poll still counts when it was seeded before.
   */
  complete: boolean;
  /** Rows in the case index after the poll. */
  indexSize: number;
  /**
   * Seconds since the oldest last full sweep among the listed companies (null before every company
   * finished one): how stale a status, line or category in the index can be at the most.
   */
  oldestSweepAgeSeconds: number | null;
  durationMs: number;
};

export type WatchOptions = {
  /** The legacy outside any request (legacy/plugin.ts backgroundLegacy). */
  legacy: LegacyCaller;
  /** The gateway's own legacy account: every read of a poll is made with its token. */
  account: ServiceAccount;
  store: Store;
  log: FastifyBaseLogger;
  budget?: Partial<WatchBudget>;
  /** The group's default deadlines: with them, details read also keep the cases' clock facts. */
  deadlines?: HandlingDeadlines;
  /** Where the poll's figures go (app.telemetry). */
  metrics?: { casePoll(figures: CasePollFigures): void };
};

/**
 * Where a head run of new cases stopped at its bound, per store and company: the next poll goes on
 * from there. Memory only: another process (or a restart) finds the rest by its sweep instead.
 */
const headResume = new WeakMap<StoreDb, Map<number, number>>();

const NEWEST = [{ column: 'caseCreated', dir: 'desc' }];
const OLDEST = [{ column: 'caseCreated', dir: 'asc' }];

/** The legacy, each call counted (reference lists read through the cache count only when read). */
function counted(legacy: LegacyCaller, tally: { calls: number }): LegacyCaller {
  const once = <T>(work: () => Promise<T>) => {
    tally.calls += 1;
    return work();
  };
  return {
    call: (call) => once(() => legacy.call(call)),
    reference: (key, call) => legacy.cached(key, async () => (await once(() => legacy.call(call))).data),
    cached: (key, load) => legacy.cached(key, load),
    forget: (key) => legacy.forget(key),
    table: (call) => once(() => legacy.table(call)),
    stream: (call) => once(() => legacy.stream(call)),
  };
}

/** Ids and a reason only: a legacy message could quote anything, and the logs never hold case data. */
function reasonOf(error: unknown): Record<string, string | undefined> {
  if (error instanceof ApiProblem) return { reason: error.type };
  // A store error (the only other kind): its text names SQL and ids, never a case's data.
  const e = error as { name?: string; code?: unknown; message?: unknown };
  return {
    reason: e?.name ?? 'unknown',
    code: typeof e?.code === 'string' ? e.code : undefined,
    message: typeof e?.message === 'string' ? e.message.slice(0, 200) : undefined,
  };
}

type Poll = {
  store: Store;
  log: FastifyBaseLogger;
  budget: WatchBudget;
  deadlines: HandlingDeadlines | undefined;
  /** Runs legacy work with the account's token. */
  asAccount<T>(work: (legacy: LegacyCaller) => Promise<T>): Promise<T>;
  /** Details still to spend this poll. */
  details: number;
  refreshes: number;
  backfills: number;
  finals: ReadonlySet<number> | null;
  report: WatchReport;
};

/** The case detail through the account, or null (gone, or another incarnation than `seen`). */
async function detailOf(poll: Poll, companyId: number, seen: SeenCase): Promise<LegacyCase | null> {
  const c = await poll.asAccount((legacy) => companyCase(legacy, companyId, seen.ref.caseId));
  if (!c || poll.store.cases.bind(c).binding !== seen.ref.binding) return null;
  return c;
}

/** What a read detail gives the index: channel, anonymous flag, and the reporter's location if it could be looked up. */
async function detailFactsOf(
  poll: Poll,
  c: LegacyCase,
): Promise<Omit<DetailFacts, 'ref'> & { located: boolean }> {
  const anonymous = c.caseWhistleblowerIsAnonym ?? c.caseAnonym;
  const where = await poll
    .asAccount((legacy) => locationOf(legacy, c, anonymous))
    .catch((error: unknown) => {
      poll.log.warn({ caseId: c.caseId, ...reasonOf(error) }, 'case index: region list unread');
      return null;
    });
  return {
    channelId: c.caseChannelId,
    anonymous,
    provinceId: where?.provinceId ?? null,
    cityId: where?.cityId ?? null,
    located: where !== null,
  };
}

/** The final status ids, read once per poll (empty: unknown, and no clock facts are kept then). */
async function finalsOf(poll: Poll): Promise<ReadonlySet<number>> {
  poll.finals ??= await poll.asAccount((legacy) => finalStatusIdsOf(legacy, poll.log));
  return poll.finals;
}

async function keepClocks(poll: Poll, companyId: number, cases: readonly LegacyCase[]): Promise<void> {
  if (!poll.deadlines || cases.length === 0) return;
  const finals = await finalsOf(poll);
  if (finals.size === 0) return;
  poll.report.clockFacts += await keepClockFacts(poll.store, poll.deadlines, finals, companyId, cases);
}

function addOutcome(report: WatchReport, outcome: PageOutcome): void {
  report.events.filed += outcome.filed;
  report.events.routed += outcome.routed;
  report.events.statusChanged += outcome.statusChanged;
  report.inserted += outcome.inserted;
  report.updated += outcome.updated;
  report.removed += outcome.removed;
}

type PageResult = { outcome: PageOutcome; fresh: number };

/**
 * One page of a company's table into the index: what the index lacks is new (its detail read while
 * the company is seeded and the budget lasts), then one transaction (store.ts writePage).
 */
async function takePage(
  poll: Poll,
  watch: WatchState,
  rows: readonly LegacyCaseRow[],
  readAt: Date,
  extra: Pick<Parameters<typeof writePage>[1], 'sweep' | 'span'>,
): Promise<PageResult> {
  const { store } = poll;
  const companyId = watch.companyId;
  const seen: SeenCase[] = rows.map((row) => ({
    ref: store.cases.bind(row),
    lineId: row.caseCaseLineId,
    categoryId: row.caseCaseCategoryId,
    statusId: row.caseCaseStatusId,
  }));
  const kept = await indexedCases(
    store,
    companyId,
    seen.map((s) => s.ref.caseId),
  );
  const fresh = seen.filter((s) => kept.get(s.ref.caseId)?.binding !== s.ref.binding);
  const details: LegacyCase[] = [];
  if (watch.seeded && fresh.length > 0 && poll.details > 0) {
    const wanted = fresh.slice(0, poll.details);
    poll.details -= wanted.length;
    await eachLimited(wanted, REFRESH_CONCURRENCY, async (s) => {
      const c = await detailOf(poll, companyId, s).catch(() => null);
      if (!c) return;
      const facts = await detailFactsOf(poll, c);
      s.channelId = facts.channelId;
      s.anonymous = facts.anonymous;
      // Without its location the detail counts as unread: the backfill reads it again.
      if (facts.located) {
        s.provinceId = facts.provinceId;
        s.cityId = facts.cityId;
        s.detailRead = true;
      }
      details.push(c);
    });
  }
  const outcome = await writePage(store, { companyId, seen, readAt, ...extra });
  addOutcome(poll.report, outcome);
  // Their whole log was just read: the clock facts come free (a case still in Baru needs none).
  await keepClocks(
    poll,
    companyId,
    details.filter((c) => c.caseCaseStatusId !== STATUS_NEW_ID),
  );
  return { outcome, fresh: fresh.length };
}

/** The head: the newest cases, a small page; more pages only while every case of a page is new. */
async function head(poll: Poll, watch: WatchState, statusMoved: number[]): Promise<void> {
  const { budget, store } = poll;
  const table = caseTableOf({ kind: 'administrator', companyId: watch.companyId });
  const resumes = headResume.get(store.db) ?? new Map<number, number>();
  headResume.set(store.db, resumes);
  let resume = resumes.get(watch.companyId);
  resumes.delete(watch.companyId);
  // While seeding, one page: the sweep is filling the index anyway, and nothing is announced.
  const pages = watch.seeded ? budget.headPages : 1;
  let start = 0;
  for (let n = 0; n < pages; n++) {
    const readAt = await storeNow(store);
    const page = await poll.asAccount((legacy) =>
      casePage(legacy, table, { start, length: budget.headPageSize, order: NEWEST }),
    );
    const rows = page.rows.filter((row) => row.caseCompanyId === watch.companyId);
    const { outcome, fresh } = await takePage(poll, watch, rows, readAt, {});
    statusMoved.push(...outcome.statusMoved);
    const more = page.rows.length === budget.headPageSize && start + budget.headPageSize < page.filtered;
    if (!more) return;
    if (rows.length > 0 && fresh === rows.length) {
      start += budget.headPageSize;
    } else if (resume !== undefined) {
      // The last poll stopped inside a run of new cases; what arrived since sits above it.
      start = resume + fresh;
      resume = undefined;
    } else {
      return;
    }
    if (n + 1 === pages && watch.seeded) resumes.set(watch.companyId, start);
  }
}

/** The sweep: one page of the rotating cursor, oldest first. */
async function sweep(poll: Poll, watch: WatchState, statusMoved: number[]): Promise<void> {
  const { budget, store } = poll;
  const table = caseTableOf({ kind: 'administrator', companyId: watch.companyId });
  const from = watch.sweepStart;
  const readAt = await storeNow(store);
  const page = await poll.asAccount((legacy) =>
    casePage(legacy, table, { start: from, length: budget.sweepPageSize, order: OLDEST }),
  );
  const rows = page.rows.filter((row) => row.caseCompanyId === watch.companyId);
  const wrapped = page.rows.length < budget.sweepPageSize || from + budget.sweepPageSize >= page.filtered;
  const next = wrapped ? 0 : from + budget.sweepPageSize;
  const refs = rows.map((row) => store.cases.bind(row));
  // The page holds every case filed strictly between its first and last filing (the whole table
  // before it when it starts the table, after it when it ends it): index rows there that it lacks
  // are gone. Only for a page of this company's rows with readable times.
  let span: { after: string | null; before: string | null } | undefined;
  if (rows.length > 0 && rows.length === page.rows.length && refs.every((ref) => ref.filedAt !== null)) {
    const times = refs.map((ref) => ref.filedAt as string).sort();
    span = { after: from === 0 ? null : times[0]!, before: wrapped ? null : times[times.length - 1]! };
  }
  const { outcome } = await takePage(poll, watch, rows, readAt, { sweep: { from, next, wrapped }, span });
  statusMoved.push(...outcome.statusMoved);
  if (outcome.seededNow) {
    poll.log.info({ companyId: watch.companyId }, 'case index: company seeded');
  }
}

/** Clock facts of cases whose status moved, then of any whose facts are stale, while the budget lasts. */
async function refreshClocks(poll: Poll, companyId: number, statusMoved: readonly number[]): Promise<void> {
  if (!poll.deadlines || poll.refreshes <= 0) return;
  const finals = await finalsOf(poll);
  if (finals.size === 0) return;
  const skip = [STATUS_NEW_ID, ...finals];
  const stale = await staleClockCases(poll.store, companyId, skip, poll.refreshes + statusMoved.length);
  const wanted = [...new Set([...statusMoved, ...stale])].slice(0, poll.refreshes);
  poll.refreshes -= wanted.length;
  const indexed = await indexedCases(poll.store, companyId, wanted);
  const read: LegacyCase[] = [];
  await eachLimited(wanted, REFRESH_CONCURRENCY, async (caseId) => {
    const row = indexed.get(caseId);
    if (!row) return;
    const c = await poll.asAccount((legacy) => companyCase(legacy, companyId, caseId)).catch(() => null);
    // Another incarnation than the index holds: the sweep will replace the row first.
    if (c && poll.store.cases.bind(c).binding === row.binding) read.push(c);
  });
  await keepClocks(poll, companyId, read);
}

/**
 * Cases whose detail failed to read lately, per store: the backfill skips them for a while so one
 * unreadable case cannot take the budget of every poll (memory only; another process tries anew).
 */
const backfillFailures = new WeakMap<StoreDb, LRUCache<string, true>>();
const BACKFILL_RETRY_MS = 60 * 60_000;

/**
 * Index rows whose detail was never read (the silent first sweep reads none; a detail read while a
 * region list was unreadable), newest first, while the budget lasts: their channel, anonymous flag
 * and location, and the clock facts their log gives.
 */
async function backfillDetails(poll: Poll, companyId: number): Promise<void> {
  if (poll.backfills <= 0) return;
  const failures =
    backfillFailures.get(poll.store.db) ??
    new LRUCache<string, true>({ max: 10_000, ttl: BACKFILL_RETRY_MS });
  backfillFailures.set(poll.store.db, failures);
  const skip: number[] = [];
  for (const key of failures.keys()) {
    const [company, caseId] = key.split(':').map(Number);
    if (company === companyId && caseId !== undefined) skip.push(caseId);
  }
  const rows = await unreadDetailCases(poll.store, companyId, poll.backfills, skip);
  poll.backfills -= rows.length;
  const facts: DetailFacts[] = [];
  const read: LegacyCase[] = [];
  await eachLimited(rows, REFRESH_CONCURRENCY, async (row) => {
    const c = await poll.asAccount((legacy) => companyCase(legacy, companyId, row.caseId)).catch(() => null);
    // Gone or another incarnation: the sweep replaces or removes the row; until then it is skipped.
    const ref = c ? poll.store.cases.bind(c) : null;
    if (!c || !ref || ref.binding !== row.binding) {
      failures.set(`${companyId}:${row.caseId}`, true);
      return;
    }
    const { located, ...fact } = await detailFactsOf(poll, c);
    if (!located) {
      failures.set(`${companyId}:${row.caseId}`, true);
      return;
    }
    facts.push({ ref, ...fact });
    read.push(c);
  });
  poll.report.backfilled += await fillDetails(poll.store, facts);
  await keepClocks(
    poll,
    companyId,
    read.filter((c) => c.caseCaseStatusId !== STATUS_NEW_ID),
  );
}

async function watchCompany(poll: Poll, watch: WatchState): Promise<void> {
  const statusMoved: number[] = [];
  await head(poll, watch, statusMoved);
  await sweep(poll, watch, statusMoved);
  await refreshClocks(poll, watch.companyId, statusMoved);
  // Not in a company's first poll: start-up stays a few table pages (the silent first sweep).
  if (watch.seeded) await backfillDetails(poll, watch.companyId);
}

/** Every company the legacy lists (the group has a few; bounded all the same). */
async function companyIds(poll: Poll): Promise<number[]> {
  const ids = new Set<number>();
  for (let page = 1; page <= COMPANY_PAGES_MAX; page++) {
    const result = await poll.asAccount((legacy) =>
      companies.list(legacy, null, { page, pageSize: COMPANY_PAGE, search: undefined }),
    );
    for (const row of result.rows) ids.add(row.companyId);
    if (result.rows.length < COMPANY_PAGE || page * COMPANY_PAGE >= result.filtered) break;
  }
  return [...ids].sort((a, b) => a - b);
}

/** One poll over every company. Never throws for the legacy's sake: the report says what failed. */
export async function watchOnce(options: WatchOptions): Promise<WatchReport> {
  const started = performance.now();
  const tally = { calls: 0 };
  const legacy = counted(options.legacy, tally);
  const budget = { ...DEFAULT_WATCH_BUDGET, ...options.budget };
  const report: WatchReport = {
    listed: false,
    companies: 0,
    failedCompanies: 0,
    legacyCalls: 0,
    newCases: 0,
    changes: 0,
    events: { filed: 0, routed: 0, statusChanged: 0 },
    inserted: 0,
    updated: 0,
    removed: 0,
    clockFacts: 0,
    backfilled: 0,
    seededCompanies: 0,
    complete: false,
    indexSize: 0,
    oldestSweepAgeSeconds: null,
    durationMs: 0,
  };
  const poll: Poll = {
    store: options.store,
    log: options.log,
    budget,
    deadlines: options.deadlines,
    asAccount: (work) => options.account.run(legacy, (auth) => work(withToken(legacy, auth))),
    details: budget.newCaseDetails,
    refreshes: budget.clockRefreshes,
    backfills: budget.detailBackfill,
    finals: null,
    report,
  };
  let ids: number[] = [];
  try {
    ids = await companyIds(poll);
    report.listed = true;
  } catch (error) {
    options.log.error(reasonOf(error), 'case index: company list unread, nothing polled');
  }
  report.companies = ids.length;
  let failed = 0;
  if (report.listed) {
    const states = await watchStates(options.store);
    for (const companyId of ids) {
      const watch = states.get(companyId) ?? {
        companyId,
        seeded: false,
        sweepStart: 0,
        sweptAt: null,
        polledAt: null,
      };
      try {
        await watchCompany(poll, watch);
      } catch (error) {
        failed += 1;
        options.log.warn({ companyId, ...reasonOf(error) }, 'case index: company not polled');
      }
    }
    const after = await watchStates(options.store);
    const now = Date.now();
    let oldest: number | null = 0;
    for (const companyId of ids) {
      const state = after.get(companyId);
      if (state?.seeded) report.seededCompanies += 1;
      const sweptAt = state?.sweptAt?.getTime();
      if (sweptAt === undefined || oldest === null) oldest = null;
      else oldest = Math.max(oldest, (now - sweptAt) / 1000);
    }
    report.oldestSweepAgeSeconds = ids.length === 0 ? null : oldest;
    report.indexSize = await indexSize(options.store);
  }
  report.failedCompanies = failed;
  report.complete = report.listed && report.seededCompanies === ids.length;
  report.newCases = report.events.filed;
  report.changes = report.events.routed + report.events.statusChanged;
  report.legacyCalls = tally.calls;
  report.durationMs = Math.round(performance.now() - started);
  options.metrics?.casePoll(report);
  // A quiet poll is the common case (one a minute, say): only one that found or missed something is info.
  const eventful =
    report.inserted + report.updated + report.removed + report.backfilled > 0 || failed > 0 || !report.listed;
  options.log[eventful ? 'info' : 'debug'](
    {
      companies: report.companies,
      failedCompanies: report.failedCompanies,
      legacyCalls: report.legacyCalls,
      newCases: report.newCases,
      changes: report.changes,
      inserted: report.inserted,
      removed: report.removed,
      backfilled: report.backfilled,
      complete: report.complete,
      durationMs: report.durationMs,
    },
    'case index: poll done',
  );
  return report;
}
