/**
 * Peta Laporan and Statistik from what the store counted (docs/product/insights.md, insights/counts.ts):
 * pure functions, so the rules the gateway adds to the counts (small areas, "Tanpa lokasi" for a
 * region the legacy's list lacks, the median's rounding) read in one place, and a report's place for
 * the case list's area filter. Nothing here reads the legacy or the store.
 */
import { SMALL_AREA_MAX } from '@wbs/shared/api/insights';
import type { Breakdowns, FigureCounts, PlaceCounts, StepCounts } from './counts.ts';
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

/**
 * The map's counts from the store's (insights/counts.ts): a province the legacy's list lacks is no
 * place on the map, its reports count as "Tanpa lokasi".
 */
export function provinceFiguresOf(counts: PlaceCounts, provinceIds: ReadonlySet<number>) {
  let total = counts.unread + counts.unlocated;
  let unlocated = counts.unlocated;
  const byProvince = new Map<number, number>();
  for (const [provinceId, n] of counts.byProvince) {
    total += n;
    if (provinceIds.has(provinceId)) byProvince.set(provinceId, n);
    else unlocated += n;
  }
  return { total, unread: counts.unread, unlocated, byProvince };
}

/** A province's counts per city: naming no city, or one the legacy's list lacks, is "Tanpa lokasi". */
export function cityFiguresOf(
  byCityCounted: ReadonlyMap<number | null, number>,
  cityIds: ReadonlySet<number>,
) {
  let total = 0;
  let unlocated = 0;
  const byCity = new Map<number, number>();
  for (const [cityId, n] of byCityCounted) {
    total += n;
    if (cityId === null || !cityIds.has(cityId)) unlocated += n;
    else byCity.set(cityId, n);
  }
  return { total, unlocated, byCity };
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

/** The median from the middle two of the sorted days (insights/counts.ts), to a tenth. */
export function medianOf(step: StepCounts): number | null {
  if (step.measured === 0 || step.lowMiddle === null || step.highMiddle === null) return null;
  const value = step.measured % 2 === 1 ? step.lowMiddle : (step.lowMiddle + step.highMiddle) / 2;
  return Math.round(value * 10) / 10;
}

/**
 * A handling step's figures: how many were measured, the median and the 90th percentile by nearest
 * rank (the smallest value at least 90 % of the values do not exceed) of the days from filing to
 * it, and the share done by the deadline.
 */
export function durationOf(step: StepCounts): Duration {
  return {
    measured: step.measured,
    medianDays: medianOf(step),
    p90Days: step.measured === 0 ? null : step.p90,
    withinDeadline: step.measured === 0 ? null : step.met / step.measured,
  };
}

const NO_STEP: StepCounts = { measured: 0, lowMiddle: null, highMiddle: null, p90: null, met: 0 };

/** The key figures of a set of reports from their counts (none counted: all zero). */
export function figuresOf(counts: FigureCounts | undefined): Figures {
  return {
    filed: counts?.filed ?? 0,
    closed: counts?.closed ?? 0,
    acknowledge: durationOf(counts?.acknowledge ?? NO_STEP),
    answer: durationOf(counts?.answer ?? NO_STEP),
    anonymous: { ...(counts?.anonymous ?? { anonymous: 0, identified: 0, unknown: 0 }) },
    returned: counts?.returned ?? 0,
  };
}

/** The calendar months (YYYY-MM) from `from`'s to `to`'s. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (let guard = 0; guard < 2_400; guard++) {
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
export function monthlyOf(counted: Breakdowns['months'], from: string, to: string) {
  return monthsOf(from, to).map((month) => ({ month, filed: 0, closed: 0, ...counted.get(month) }));
}
