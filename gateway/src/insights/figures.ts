/**
 * Peta Laporan and Statistik from the index rows (docs/product/insights.md): pure functions, so the
 * rules (small areas, "Tanpa lokasi", durations, deadlines) read in one place. Inputs are the rows of
 * insights/store.ts and reference lists; nothing here reads the legacy or the store.
 */
import { SMALL_AREA_MAX } from '@wbs/shared/api/insights';
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import { type HandlingDeadlines, wibWallTime } from '@wbs/shared/handling-clock';
import { clockOf } from '../clocks/service.ts';
import type { FigureRow } from './store.ts';

/** An area's count as it may be shown: from 5 up (or 0) a number, 1 to 4 never. */
export type AreaCount = { total: number | null; suppressed: boolean };

export const isSmall = (n: number) => n >= 1 && n <= SMALL_AREA_MAX;

export const areaCount = (n: number): AreaCount =>
  isSmall(n) ? { total: null, suppressed: true } : { total: n, suppressed: false };

/** A report's place on the map: unread (detail not read yet), unlocated, or a province and city. */
export type Place =
  | { kind: 'unread' }
  | { kind: 'unlocated' }
  | { kind: 'province'; provinceId: number; cityId: number | null };

/**
 * Where a report counts. Anonymous reports carry no location (the index never keeps one for them);
 * an identified report naming no province, or one the legacy's list does not hold, is "Tanpa lokasi".
 */
export function placeOf(row: FigureRow, provinceIds: ReadonlySet<number>): Place {
  if (!row.detailRead) return { kind: 'unread' };
  if (row.anonymous !== false || row.provinceId === null || !provinceIds.has(row.provinceId)) {
    return { kind: 'unlocated' };
  }
  return { kind: 'province', provinceId: row.provinceId, cityId: row.cityId };
}

export type ProvinceFigures = {
  total: number;
  unread: number;
  unlocated: number;
  byProvince: Map<number, number>;
};

export function provinceFigures(
  rows: readonly FigureRow[],
  provinceIds: ReadonlySet<number>,
): ProvinceFigures {
  const figures: ProvinceFigures = { total: rows.length, unread: 0, unlocated: 0, byProvince: new Map() };
  for (const row of rows) {
    const place = placeOf(row, provinceIds);
    if (place.kind === 'unread') figures.unread += 1;
    else if (place.kind === 'unlocated') figures.unlocated += 1;
    else figures.byProvince.set(place.provinceId, (figures.byProvince.get(place.provinceId) ?? 0) + 1);
  }
  return figures;
}

export type CityFigures = { total: number; unlocated: number; byCity: Map<number, number> };

/** The reports of one province per city; a city the legacy's list lacks counts as naming none. */
export function cityFigures(
  rows: readonly FigureRow[],
  provinceIds: ReadonlySet<number>,
  provinceId: number,
  cityIds: ReadonlySet<number>,
): CityFigures {
  const figures: CityFigures = { total: 0, unlocated: 0, byCity: new Map() };
  for (const row of rows) {
    const place = placeOf(row, provinceIds);
    if (place.kind !== 'province' || place.provinceId !== provinceId) continue;
    figures.total += 1;
    if (place.cityId === null || !cityIds.has(place.cityId)) figures.unlocated += 1;
    else figures.byCity.set(place.cityId, (figures.byCity.get(place.cityId) ?? 0) + 1);
  }
  return figures;
}

/** Whether a report lies in an area of the case list's filters (its place as on the map). */
export function inArea(
  row: FigureRow,
  provinceIds: ReadonlySet<number>,
  area: { provinceId?: number | undefined; cityId?: number | undefined; unlocated?: boolean | undefined },
): boolean {
  const place = placeOf(row, provinceIds);
  if (area.provinceId === undefined && area.cityId === undefined) {
    return area.unlocated === true ? place.kind === 'unlocated' : true;
  }
  if (place.kind !== 'province') return false;
  if (area.provinceId !== undefined && place.provinceId !== area.provinceId) return false;
  if (area.unlocated === true) return place.cityId === null;
  return area.cityId === undefined || place.cityId === area.cityId;
}

export type Duration = {
  measured: number;
  medianDays: number | null;
  p90Days: number | null;
  withinDeadline: number | null;
};

export type Figures = {
  filed: number;
  closed: number;
  acknowledge: Duration;
  answer: Duration;
  anonymous: { anonymous: number; identified: number; unknown: number };
  returned: number;
};

/** Days between two WIB wall times (both read as the same zone), to a tenth. */
export function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}Z`) - Date.parse(`${from}Z`);
  return Math.round((ms / 86_400_000) * 10) / 10;
}

/** The median: the middle value, or the mean of the two middle ones. */
export function median(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const mid = Math.floor(n / 2);
  const value = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value * 10) / 10;
}

/** The 90th percentile by nearest rank: the smallest value at least 90 % of the values do not exceed. */
export function p90(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  return sorted[Math.ceil(0.9 * n) - 1]!;
}

function durationOf(steps: readonly { days: number; met: boolean }[]): Duration {
  const sorted = steps.map((s) => s.days).sort((a, b) => a - b);
  return {
    measured: steps.length,
    medianDays: median(sorted),
    p90Days: p90(sorted),
    withinDeadline: steps.length === 0 ? null : steps.filter((s) => s.met).length / steps.length,
  };
}

export type FigureContext = {
  finals: ReadonlySet<number>;
  /** A company's deadlines in force (for a report in Baru the index holds no clock facts of). */
  deadlines: (companyId: number) => HandlingDeadlines;
  today: string;
};

/**
 * The handling clock of a report as the case detail computes it (clocks/service.ts clockOf: the kept
 * log facts and the handler messages), or null when the index has no facts of it yet (a report past
 * Baru whose log the watcher has not read).
 */
export function clockOfRow(row: FigureRow, ctx: FigureContext) {
  const messages = row.messageMs.map((ms) => wibWallTime(ms));
  const ref = { companyId: row.companyId, caseId: row.caseId, caseBinding: row.binding };
  if (row.clock) return clockOf({ ...ref, ...row.clock }, messages, ctx.today);
  // Still in Baru: no status change in the log yet, so the company's deadlines and the messages only.
  if (row.statusId !== STATUS_NEW_ID && row.statusId !== null) return null;
  const { ackDays, feedbackMonths } = ctx.deadlines(row.companyId);
  return clockOf(
    {
      ...ref,
      filedAt: row.filedAt,
      ackDays,
      feedbackMonths,
      statusIdSeen: row.statusId,
      logAcknowledgedAt: null,
      logAnsweredAt: null,
    },
    messages,
    ctx.today,
  );
}

/** The key figures of a set of reports. */
export function figuresOf(rows: readonly FigureRow[], ctx: FigureContext): Figures {
  const acknowledge: { days: number; met: boolean }[] = [];
  const answer: { days: number; met: boolean }[] = [];
  const anonymous = { anonymous: 0, identified: 0, unknown: 0 };
  let closed = 0;
  let returned = 0;
  for (const row of rows) {
    if (row.statusId !== null && ctx.finals.has(row.statusId)) closed += 1;
    if (row.returned) returned += 1;
    if (!row.detailRead || row.anonymous === null) anonymous.unknown += 1;
    else if (row.anonymous) anonymous.anonymous += 1;
    else anonymous.identified += 1;
    const clock = clockOfRow(row, ctx);
    if (!clock) continue;
    const ack = clock.acknowledgement;
    if (ack.doneAt !== null)
      acknowledge.push({ days: daysBetween(row.filedAt, ack.doneAt), met: ack.state === 'met' });
    const ans = clock.feedback;
    if (ans.doneAt !== null)
      answer.push({ days: daysBetween(row.filedAt, ans.doneAt), met: ans.state === 'met' });
  }
  return {
    filed: rows.length,
    closed,
    acknowledge: durationOf(acknowledge),
    answer: durationOf(answer),
    anonymous,
    returned,
  };
}

/** The calendar months (YYYY-MM) from `from`'s to `to`'s. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (let guard = 0; guard < 1_200; guard++) {
    const month = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    months.push(month);
    if (month >= last) break;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

/** Per month of filing: the reports filed, and of them those now in a final status. */
export function monthlyOf(rows: readonly FigureRow[], from: string, to: string, finals: ReadonlySet<number>) {
  const months = new Map(monthsOf(from, to).map((month) => [month, { month, filed: 0, closed: 0 }]));
  for (const row of rows) {
    const entry = months.get(row.filedAt.slice(0, 7));
    if (!entry) continue;
    entry.filed += 1;
    if (row.statusId !== null && finals.has(row.statusId)) entry.closed += 1;
  }
  return [...months.values()];
}
