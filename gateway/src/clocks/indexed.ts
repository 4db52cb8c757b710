/**
 * The overdue filter and tile from the case index (docs/adr/0058-case-index-watcher.md), complete
 * however long a company's history: for a company the watcher has swept once, the candidates are the
 * index's cases in the caller's scope that are not final, not answered and old enough to be late. The
 * kept durations (case_handling, docs/adr/0071-overdue-from-kept-durations.md) decide those whose clock
 * facts were read at the status the index holds, in the store; only a candidate whose facts were read at
 * another status (or never) is decided here, and needs its log read (at most MAX_REFRESH_PER_REQUEST
 * per request, as the walk; the watcher keeps most facts fresh between requests). Clocks are computed
 * for the page shown only. Until a company is seeded, overdue.ts walks its table as before.
 *
 * The index lags the legacy by at most one sweep rotation (a status, line or category changed at the
 * legacy) or one poll (a new case); a log read that finds the index behind brings it up to date.
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import {
  addDays,
  type HandlingClock,
  type HandlingDeadlines,
  isOverdue,
  normaliseWallTime,
  wibToday,
  wibWallTime,
} from '@wbs/shared/handling-clock';
import {
  companySeeded,
  type IndexedRow,
  noteCaseChange,
  overdueOfIndex,
  type UndecidedRow,
} from '../case-index/store.ts';
import { ApiProblem } from '../errors.ts';
import type { LegacyCase, LegacyCaseRow } from '../legacy/case-schemas.ts';
import { type CaseTable, caseRowsFiled, companyCase, groupCase } from '../legacy/cases.ts';
import { caseCategories, caseLines, caseStatusTable } from '../legacy/reference.ts';
import type { BoundCase } from '../store/case-binding.ts';
import { refreshDurations } from './durations.ts';
import {
  type ClockContext,
  type ClockFacts,
  clockOf,
  clockRowFor,
  clocksOfRows,
  eachLimited,
  finalStatusIdsOf,
  lateFiledBefore,
  logFactsOf,
  MAX_REFRESH_PER_REQUEST,
  noFacts,
  REFRESH_CONCURRENCY,
  rememberClockRows,
} from './service.ts';
import { type ClockRow, type ClockRowInput, deadlinesOf, saveClockRows } from './store.ts';

/** Whose cases, within one company: an analyst sees its line's cases and those not routed yet. */
export type IndexScope = { companyId: number; staffLineId?: number | null };

/** The list's filters the index can apply (the complaint number and free search it cannot). */
export type IndexFilters = {
  from?: string | undefined;
  to?: string | undefined;
  categoryId?: number | undefined;
  caseLineId?: number | undefined;
  statusId?: number | undefined;
};

export type { IndexedRow };

const inLine = (scope: IndexScope, lineId: number | null) =>
  scope.staffLineId === undefined || lineId === null || lineId === scope.staffLineId;

/** The case an index row names, as the store binds it (made only for the rows a request reads). */
const refOf = (companyId: number, row: IndexedRow): BoundCase => {
  const filedMs = Date.parse(`${row.filedAt}+07:00`);
  return {
    companyId,
    caseId: row.caseId,
    binding: row.binding,
    filedAt: row.filedAt,
    filedMs: Number.isNaN(filedMs) ? null : filedMs,
  };
};

/**
 * A case's whole record as the caller may read it, without a refusal on record: the candidates are in
 * the caller's scope by the index already, and only their facts are used. Null: not (or no longer) a
 * case of the company.
 */
async function caseOfCompany(
  ctx: ClockContext,
  companyId: number,
  caseId: number,
): Promise<LegacyCase | null> {
  const { scope, legacy } = ctx.caller;
  const c =
    scope.kind === 'company' ? await companyCase(legacy, companyId, caseId) : await groupCase(legacy, caseId);
  return c && c.caseId === caseId && c.caseCompanyId === companyId ? c : null;
}

function matches(
  f: IndexFilters,
  facts: { statusId: number | null; lineId: number | null; categoryId: number | null },
) {
  return (
    (f.statusId === undefined || facts.statusId === f.statusId) &&
    (f.caseLineId === undefined || facts.lineId === f.caseLineId) &&
    (f.categoryId === undefined || facts.categoryId === f.categoryId)
  );
}

/**
 * The overdue cases of `scope` matching `filters`, from the index; null when the company is not
 * seeded yet (the caller walks the table instead). `partial`: more candidates needed a log read than
 * one request makes. A failing store is a 503, as on the walk.
 *
 * The kept durations decide every report whose facts were read at the status the index holds, in the
 * store (case-index/store.ts `overdueOfIndex`); only the others are decided here, as the list decides
 * a row: a report in Baru without facts of Baru has none, any other has its log read.
 */
export async function indexedOverdue(
  ctx: ClockContext,
  scope: IndexScope,
  filters: IndexFilters,
): Promise<{ overdue: IndexedRow[]; partial: boolean } | null> {
  const { companyId } = scope;
  const store = await ctx.store().catch((error: unknown) => {
    throw new ApiProblem('store-unavailable', { cause: error });
  });
  try {
    if (!(await companySeeded(store, companyId))) return null;
  } catch (error) {
    throw new ApiProblem('store-unavailable', { cause: error });
  }
  const finals = await finalStatusIdsOf(ctx.caller.legacy, ctx.log);
  const today = wibToday();
  let overdue: IndexedRow[];
  let candidates: UndecidedRow[];
  let deadlines: HandlingDeadlines;
  try {
    // What was written since the last refresh is derived first (usually nothing: the watcher's poll
    // refreshes after it writes, and a message or clock row written since queues only its report).
    await refreshDurations(store, ctx.log);
    ({ overdue, undecided: candidates } = await overdueOfIndex(store, {
      companyId,
      ...(scope.staffLineId === undefined ? {} : { staffLineId: scope.staffLineId }),
      finalStatusIds: [...finals],
      // Nothing filed today can be late: the shortest acknowledgement period is a day.
      filedUpTo: addDays(today, -1),
      from: filters.from,
      to: filters.to,
      categoryId: filters.categoryId,
      lineId: filters.caseLineId,
      statusId: filters.statusId,
      today,
      newStatusId: STATUS_NEW_ID,
    }));
    deadlines =
      candidates.length === 0
        ? ctx.defaults
        : ((await deadlinesOf(store, [companyId], ctx.defaults)).get(companyId) ?? ctx.defaults);
  } catch (error) {
    throw new ApiProblem('store-unavailable', { cause: error });
  }
  if (candidates.length === 0) return { overdue, partial: false };

  const kept = new Map<number, ClockRow>();
  const messages = new Map<number, string[]>();
  for (const row of candidates) {
    if (row.clock)
      kept.set(row.caseId, { ...row.clock, companyId, caseId: row.caseId, updatedAt: new Date(0) });
    if (row.messageMs.length > 0)
      messages.set(
        row.caseId,
        row.messageMs.map((ms) => wibWallTime(ms)),
      );
  }
  const facts = new Map<number, ClockFacts>();
  const current = new Map<number, IndexedRow>();
  const lateCutoff = lateFiledBefore(today);
  const fresh: ClockRowInput[] = [];
  const stale: IndexedRow[] = [];
  for (const row of candidates) {
    const k = kept.get(row.caseId);
    const ackDays = k?.ackDays ?? deadlines.ackDays;
    if (row.filedAt.slice(0, 10) >= lateCutoff(ackDays)) continue;
    current.set(row.caseId, row);
    if (k && k.statusIdSeen === row.statusId) {
      facts.set(row.caseId, k);
    } else if (row.statusId === STATUS_NEW_ID || row.statusId === null) {
      // Still in Baru: no status change in the log yet, so nothing to read.
      const made = clockRowFor(refOf(companyId, row), row.filedAt, row.statusId, noFacts, k, deadlines);
      fresh.push(made);
      facts.set(row.caseId, made);
    } else {
      stale.push(row);
    }
  }
  const partial = stale.length > MAX_REFRESH_PER_REQUEST;
  const behind: { ref: BoundCase; c: LegacyCase }[] = [];
  await eachLimited(stale.slice(0, MAX_REFRESH_PER_REQUEST), REFRESH_CONCURRENCY, async (row) => {
    const ref = refOf(companyId, row);
    try {
      const c = await caseOfCompany(ctx, companyId, row.caseId);
      // Gone, or the legacy issued the id again: the watcher brings the index up to date first.
      if (!c || store.cases.bind(c).binding !== ref.binding) {
        current.delete(row.caseId);
        return;
      }
      const made = clockRowFor(
        ref,
        row.filedAt,
        c.caseCaseStatusId,
        logFactsOf(c, finals),
        kept.get(row.caseId),
        deadlines,
      );
      fresh.push(made);
      facts.set(row.caseId, made);
      const moved =
        c.caseCaseStatusId !== row.statusId ||
        c.caseCaseLineId !== row.lineId ||
        c.caseCaseCategoryId !== row.categoryId;
      if (moved) {
        behind.push({ ref, c });
        current.set(row.caseId, {
          ...row,
          statusId: c.caseCaseStatusId,
          lineId: c.caseCaseLineId,
          categoryId: c.caseCaseCategoryId,
        });
      }
    } catch (error) {
      // One unreadable case goes without a clock, as on the walk.
      ctx.log.warn(
        { err: { message: (error as Error).message }, caseId: row.caseId },
        'clocks: case log unread',
      );
      current.delete(row.caseId);
    }
  });
  try {
    await saveClockRows(store, fresh);
    rememberClockRows(ctx, fresh);
    // The legacy moved ahead of the index: the same facts and events the next sweep would give.
    for (const { ref, c } of behind) {
      await noteCaseChange(store, ref, {
        statusId: c.caseCaseStatusId,
        lineId: c.caseCaseLineId,
        categoryId: c.caseCaseCategoryId,
      });
    }
  } catch (error) {
    throw new ApiProblem('store-unavailable', { cause: error });
  }
  for (const row of current.values()) {
    const f = facts.get(row.caseId);
    if (!f || f.statusIdSeen !== row.statusId) continue;
    if (row.statusId !== null && finals.has(row.statusId)) continue;
    if (!inLine(scope, row.lineId) || !matches(filters, row)) continue;
    if (isOverdue(clockOf(f, messages.get(row.caseId) ?? [], today))) overdue.push(row);
  }
  return { overdue, partial };
}

/** The sorts the index can give (not the complaint number, which it never holds). */
export const INDEX_SORTS = new Set([
  'createdAt',
  '-createdAt',
  'status',
  '-status',
  'categoryName',
  '-categoryName',
  'caseLineName',
  '-caseLineName',
  'companyName',
  '-companyName',
]);

const collator = new Intl.Collator('id');

/** Wall times ('YYYY-MM-DDTHH:mm:ss') in their order: the same as a collation's, without one per pair. */
const byTime = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Overdue cases in the list's order, as the legacy orders its table: by filing time, by status order,
 * by category or line name (no line first), newest first among equals.
 */
export async function sortIndexed<T extends IndexedRow>(
  ctx: ClockContext,
  companyId: number,
  rows: readonly T[],
  sort: string | undefined,
): Promise<T[]> {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  const sign = descending ? -1 : 1;
  const newestFirst = (a: IndexedRow, b: IndexedRow) => byTime(b.filedAt, a.filedAt) || b.caseId - a.caseId;
  let key: ((row: IndexedRow) => string | number | null) | null = null;
  if (field === 'status') {
    const orders = new Map((await caseStatusTable(ctx.caller.legacy)).map((s) => [s.id, s.order]));
    key = (row) => (row.statusId === null ? null : (orders.get(row.statusId) ?? 0));
  } else if (field === 'categoryName') {
    const names = new Map(
      (await caseCategories(ctx.caller.legacy, companyId)).map((c) => [c.caseCategoryId, c.caseCategoryName]),
    );
    key = (row) => (row.categoryId === null ? '' : (names.get(row.categoryId) ?? ''));
  } else if (field === 'caseLineName') {
    const names = new Map((await caseLines(ctx.caller.legacy)).map((l) => [l.caseLineId, l.caseLineName]));
    key = (row) => (row.lineId === null ? null : (names.get(row.lineId) ?? null));
  }
  const compareKeys = (a: string | number | null, b: string | number | null) => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    return typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
  };
  return [...rows].sort((a, b) => {
    if (field === 'createdAt') {
      return sign * (byTime(a.filedAt, b.filedAt) || a.caseId - b.caseId);
    }
    const byKey = key ? sign * compareKeys(key(a), key(b)) : 0;
    return byKey || newestFirst(a, b);
  });
}

/**
 * What one page of an indexed list (the overdue filter, Peta Laporan's area) shows: the table rows of
 * the cases it holds, read from the caller's own table (which keeps the legacy's own scope as a second
 * fence: the days they were filed on, then the detail of any not found there; a case neither shows is
 * left out of the page), with their clocks and unread marks as any case-list page gives them
 * (clocks/service.ts `clocksOfRows`). Clocks and marks are null when the store fails.
 */
export async function indexedPage(
  ctx: ClockContext,
  scope: IndexScope,
  table: CaseTable,
  shown: readonly IndexedRow[],
): Promise<{
  rows: Map<number, LegacyCaseRow>;
  clocks: Map<number, HandlingClock> | null;
  unread: Map<number, number> | null;
}> {
  const rows = new Map<number, LegacyCaseRow>();
  if (shown.length === 0) return { rows, clocks: new Map(), unread: new Map() };
  const store = await ctx.store().catch((error: unknown) => {
    throw new ApiProblem('store-unavailable', { cause: error });
  });
  const days = shown.map((row) => row.filedAt.slice(0, 10)).sort();
  const wanted = new Map(shown.map((row) => [row.caseId, row]));
  const filed = await caseRowsFiled(
    ctx.caller.legacy,
    table,
    scope.companyId,
    days[0]!,
    days[days.length - 1]!,
  );
  for (const row of filed) {
    const want = wanted.get(row.caseId);
    if (want && store.cases.bind(row).binding === want.binding) rows.set(row.caseId, row);
  }
  const missing = shown.filter((row) => !rows.has(row.caseId));
  await eachLimited(missing, REFRESH_CONCURRENCY, async (row) => {
    const c = await caseOfCompany(ctx, scope.companyId, row.caseId).catch(() => null);
    if (!c || store.cases.bind(c).binding !== row.binding || !inLine(scope, c.caseCaseLineId)) return;
    if (normaliseWallTime(c.caseCreated) === null) return;
    rows.set(row.caseId, c);
  });
  try {
    const { clocks, unread } = await clocksOfRows(ctx, scope.companyId, [...rows.values()]);
    return { rows, clocks, unread };
  } catch (error) {
    ctx.log.error({ err: { message: (error as Error).message } }, 'clocks: indexed page without clocks');
    return { rows, clocks: null, unread: null };
  }
}
