/**
 * Statistik and Peta Laporan computed the straightforward way, in JavaScript over one row per report
 * (insights/store.ts figureRows) through the case detail's own clock (clocks/service.ts clockOf): the
 * way the gateway counted before the figures moved into SQL (insights/counts.ts), kept as the oracle
 * the SQL is compared with on generated reports (insights/counts.test.ts).
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import { type HandlingDeadlines, wibWallTime } from '@wbs/shared/handling-clock';
import { clockOf } from '../clocks/service.ts';
import { type Duration, type Figures, monthsOf, placeOf } from '../insights/figures.ts';
import type { FigureRow } from '../insights/store.ts';

export function provinceFigures(rows: readonly FigureRow[], provinceIds: ReadonlySet<number>) {
  const figures = { total: rows.length, unread: 0, unlocated: 0, byProvince: new Map<number, number>() };
  for (const row of rows) {
    const place = placeOf(row, provinceIds);
    if (place.kind === 'unread') figures.unread += 1;
    else if (place.kind === 'unlocated') figures.unlocated += 1;
    else figures.byProvince.set(place.provinceId, (figures.byProvince.get(place.provinceId) ?? 0) + 1);
  }
  return figures;
}

/** The reports of one province per city; a city the legacy's list lacks counts as naming none. */
export function cityFigures(
  rows: readonly FigureRow[],
  provinceIds: ReadonlySet<number>,
  provinceId: number,
  cityIds: ReadonlySet<number>,
) {
  const figures = { total: 0, unlocated: 0, byCity: new Map<number, number>() };
  for (const row of rows) {
    const place = placeOf(row, provinceIds);
    if (place.kind !== 'province' || place.provinceId !== provinceId) continue;
    figures.total += 1;
    if (place.cityId === null || !cityIds.has(place.cityId)) figures.unlocated += 1;
    else figures.byCity.set(place.cityId, (figures.byCity.get(place.cityId) ?? 0) + 1);
  }
  return figures;
}

/** Days between two WIB wall times (both read as the same zone), to a tenth. */
export function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}Z`) - Date.parse(`${from}Z`);
  return Math.round((ms / 86_400_000) * 10) / 10;
}

function median(sorted: readonly number[]): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const mid = Math.floor(n / 2);
  const value = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value * 10) / 10;
}

function p90(sorted: readonly number[]): number | null {
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
  deadlines: (companyId: number) => HandlingDeadlines;
  today: string;
};

/** The handling clock of a report as the case detail computes it, or null when the index has no facts. */
export function clockOfRow(row: FigureRow, ctx: FigureContext) {
  const messages = row.messageMs.map((ms) => wibWallTime(ms));
  const ref = { companyId: row.companyId, caseId: row.caseId, caseBinding: row.binding };
  if (row.clock) return clockOf({ ...ref, ...row.clock }, messages, ctx.today);
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
