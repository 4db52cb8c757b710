/**
 * The pure parts of Peta Laporan and Statistik: which boundary is which legacy province, the colour
 * of an area, its text ("<5" for a small one), the links to the case list and the file names. No
 * React, no DOM: unit-tested in model.test.ts.
 */
import { isoToDisplay, isSupportedIsoDate, toIsoDate } from '@wbs/shared/dates';
import { type DateRange, defaultRange } from '../dashboard/model.ts';

/** An area's count as the gateway gives it: a number (0 or from 5 up), or suppressed (1 to 4). */
export type AreaCount = { total: number | null; suppressed: boolean };

/** What an area shows: never the number of a small one. */
export const areaText = (area: AreaCount): string =>
  area.suppressed || area.total === null ? '<5' : String(area.total);

/** Only an area with a number (from 5 up) can be drilled into or listed. */
export const isOpenable = (area: AreaCount): boolean => !area.suppressed && (area.total ?? 0) > 0;

/** Boundary properties as the bundled TopoJSON carries them. */
export type BoundaryProperties = { KODE_PROV: string; PROVINSI: string };

/**
 * Codes the boundary file gives more than one province: the provinces split from Papua in 2022
 * carry their parent's code there (its README), so these are matched by name.
 */
const SHARED_CODES = new Set([91, 92]);

const normalName = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/**
 * The legacy province id of a boundary: its statistics-bureau code (the legacy's ids are the same
 * codes), except for the Papua codes the file shares, matched by name; null when nothing matches.
 */
export function provinceIdOf(
  properties: BoundaryProperties,
  provinces: readonly { provinceId: number; provinceName: string }[],
): number | null {
  const code = Number(properties.KODE_PROV);
  if (!SHARED_CODES.has(code)) return provinces.some((p) => p.provinceId === code) ? code : null;
  const name = normalName(properties.PROVINSI);
  return provinces.find((p) => normalName(p.provinceName) === name)?.provinceId ?? null;
}

/** Fill of an area with no report, of a small one ("<5") and the blues of the counted ones. */
export const MAP_COLORS = {
  none: '#f1f4f8',
  small: '#cfd9e6',
  unknown: '#ffffff',
  border: '#5b6678',
  steps: ['#9ec3e6', '#5a9bd5', '#2f6fb3', '#1d4f94', '#0f2f5c'],
} as const;

/** Upper bounds of the colour steps of counted areas (from 5 up), about even up to the largest. */
export function colorSteps(max: number): number[] {
  const steps = MAP_COLORS.steps.length;
  if (max < 5) return [];
  const bounds: number[] = [];
  for (let i = 1; i <= steps; i++) {
    const bound = Math.round(5 + ((max - 5) * i) / steps);
    if (bounds.length === 0 || bound > (bounds[bounds.length - 1] ?? 0)) bounds.push(bound);
  }
  return bounds;
}

/** The fill of an area, given the steps of the screen's largest count. */
export function areaColor(area: AreaCount | undefined, steps: readonly number[]): string {
  if (!area) return MAP_COLORS.unknown;
  if (area.suppressed) return MAP_COLORS.small;
  const total = area.total ?? 0;
  if (total === 0) return MAP_COLORS.none;
  const index = steps.findIndex((bound) => total <= bound);
  return MAP_COLORS.steps[index < 0 ? MAP_COLORS.steps.length - 1 : index] ?? MAP_COLORS.steps[0];
}

/** The legend of the counted steps: '5–12', '13–20', … */
export function stepLabels(steps: readonly number[]): { label: string; color: string }[] {
  return steps.map((bound, i) => {
    const low = i === 0 ? 5 : (steps[i - 1] ?? 4) + 1;
    return {
      label: low === bound ? String(bound) : `${low}–${bound}`,
      color: MAP_COLORS.steps[i] ?? MAP_COLORS.steps[0],
    };
  });
}

export type CaseArea = { provinceId: number; cityId?: number } | { provinceId?: number; unlocated: true };

/**
 * The case list of an area over the screen's period (the list may not look past today, so a period
 * reaching into the future stops at today; one wholly in the future is not passed) and, when one is
 * chosen, the company.
 */
export function caseAreaHref(
  area: CaseArea,
  range: DateRange,
  companyId: number,
  today: string = toIsoDate(new Date()),
): string {
  const params = new URLSearchParams();
  if (area.provinceId) params.set('province', String(area.provinceId));
  if ('cityId' in area && area.cityId) params.set('city', String(area.cityId));
  if ('unlocated' in area && area.unlocated) params.set('unlocated', '1');
  if (companyId) params.set('company', String(companyId));
  if (range.from <= today) {
    params.set('from', range.from);
    params.set('to', range.to < today ? range.to : today);
  }
  return `/admin/case?${params.toString()}`;
}

/** What Peta Laporan shows: the period and, drilled into, one province (0: the provinces). */
export type MapView = { range: DateRange; provinceId: number };

/**
 * Peta Laporan's view as its address carries it (`?from=&to=&province=`): the browser's Back returns
 * from a province to the map, and a reload or a copied link opens the same view. An area id and a
 * period are no reporter's data. A period that is not two dates in order is the default one; an id
 * that is not a positive integer is the provinces.
 */
export function mapViewOf(search: string, today: Date = new Date()): MapView {
  const params = new URLSearchParams(search);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const range =
    isSupportedIsoDate(from) && isSupportedIsoDate(to) && from <= to ? { from, to } : defaultRange(today);
  const id = Number(params.get('province') ?? '');
  return { range, provinceId: Number.isSafeInteger(id) && id > 0 ? id : 0 };
}

/** The address of a view of Peta Laporan (absolute: the screen lives under the nested /admin routes). */
export function mapViewHref(view: MapView): string {
  const params = new URLSearchParams({ from: view.range.from, to: view.range.to });
  if (view.provinceId) params.set('province', String(view.provinceId));
  return `~/admin/maps?${params.toString()}`;
}

/**
 * 'Peta Laporan - PDAM Tirta Pakuan - 01-05-2026 sd 31-05-2026.png': the screen, the part, the
 * scope and the period; characters file systems refuse become '-'.
 */
export function insightFileName(
  parts: readonly (string | null | undefined)[],
  range: DateRange,
  ext: string,
) {
  const name = [...parts, `${isoToDisplay(range.from)} sd ${isoToDisplay(range.to)}`]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(' - ')
    .replace(/[\\/:*?"<>|]/g, '-');
  return `${name}.${ext}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'Mei', 'Jun', 'Jul', 'Agu', 'Sep', 'Okt', 'Nov', 'Des'];

/** '2026-05' → 'Mei 2026'. */
export function monthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return `${MONTHS[Number(match[2]) - 1] ?? match[2]} ${match[1]}`;
}
