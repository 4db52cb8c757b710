/**
 * The pure parts of the Dashboard screen (spec section 2 and the chart constants of section 9): label
 * cutting, chart sizes, value ticks, the shapes nivo draws, the date-range filter, file names and
 * links to the case list. No React, no DOM: unit-tested in model.test.ts.
 */
import type { DashboardCount, DashboardOpenCasesReply } from '@wbs/shared/api/dashboard';
import { CHART_LABEL_MAX } from '@wbs/shared/constants';
import {
  currentMonthRange,
  displayToIso,
  type IsoDate,
  isoToDisplay,
  isSupportedIsoDate,
  toIsoDate,
} from '@wbs/shared/dates';
import { FIELD_MESSAGES } from '@wbs/shared/messages';

export type DateRange = { from: IsoDate; to: IsoDate };

/** Spec §9: chart category labels are cut at 25 characters plus '...'. */
export function truncateLabel(text: string, max: number = CHART_LABEL_MAX): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}...` : trimmed;
}

/** Spec §9: bar thickness 30 or 50 — 50 for the few bars of the per-company chart, 30 elsewhere. */
export const BAR_THICKNESS = { regular: 30, wide: 50 } as const;
/** Share of each band left empty between bars (nivo `padding`). */
export const BAR_PADDING = 0.3;

export type ChartMargin = { top: number; right: number; bottom: number; left: number };

/** Below this chart width (phones) labels and totals are drawn smaller to leave room for the bars. */
export const COMPACT_CHART_WIDTH = 520;

/** Chart font size: 12 px, 11 px on compact charts. */
export const chartFontSize = (compact: boolean) => (compact ? 11 : 12);

/**
 * Margins of a horizontal bar chart: the left one fits the longest (cut) label, so the bars start
 * right after it; the right one leaves room for the total written after each bar. The label column
 * is sized from an average glyph width of the chart font, without measuring text.
 */
export function chartMargin(labels: readonly string[], compact = false): ChartMargin {
  const longest = labels.reduce((max, label) => Math.max(max, label.length), 0);
  const charPx = compact ? 6 : 6.6;
  return {
    top: 8,
    right: compact ? 28 : 40,
    bottom: 36,
    left: Math.ceil(Math.max(4, longest) * charPx) + (compact ? 10 : 16),
  };
}

/** Height that makes every bar exactly `thickness` pixels thick (bands of thickness / (1 − padding)). */
export function chartHeight(bars: number, thickness: number, margin: ChartMargin): number {
  const band = thickness / (1 - BAR_PADDING);
  return Math.round(Math.max(1, bars) * band + margin.top + margin.bottom);
}

/** Whole-number ticks from 0 to a round top ≥ max, about five of them (counts are never fractional). */
export function valueTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return ticks;
}

/** One bar (or one stack) as nivo reads it: `key` indexes it, the other fields are the series. */
export type BarRow = { key: string; label: string; name: string; total: number } & Record<
  string,
  string | number
>;

export type Series = { key: string; name: string; color: string };

export type ChartModel = {
  rows: BarRow[];
  series: Series[];
  /** Largest bar (or stack) length. */
  max: number;
  total: number;
};

/** Single-series bars use the brand blue (brand.600: white text on it is above 7:1). */
export const BRAND_BAR_COLOR = '#1d4f94';

/**
 * Colours of the status stacks: Okabe–Ito first (told apart with common colour-vision deficiencies),
 * then further distinct hues; a stack never needs more than the open statuses.
 */
export const STATUS_COLORS = [
  '#1d4f94',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#6a3d9a',
  '#f0c419',
  '#7f7f7f',
  '#0b7a75',
  '#a6761d',
  '#b15928',
] as const;

const TOTAL_KEY = 'total';

/** A one-series chart (per company, per status, per category). */
export function countChart(items: readonly DashboardCount[]): ChartModel {
  const rows = items.map((item) => ({
    key: String(item.id),
    label: truncateLabel(item.name),
    name: item.name,
    total: item.total,
  }));
  return {
    rows,
    series: [{ key: TOTAL_KEY, name: 'Jumlah', color: BRAND_BAR_COLOR }],
    max: Math.max(0, ...items.map((item) => item.total)),
    total: items.reduce((sum, item) => sum + item.total, 0),
  };
}

export const statusSeriesKey = (statusId: number) => `s${statusId}`;

/** The open-cases chart: one stack per category, one segment per open status. */
export function openCasesChart(reply: DashboardOpenCasesReply): ChartModel {
  const series = reply.statuses.map((status, index) => ({
    key: statusSeriesKey(status.id),
    name: status.name,
    color: STATUS_COLORS[index % STATUS_COLORS.length] ?? BRAND_BAR_COLOR,
  }));
  const rows = reply.categories.map((category) => {
    const row: BarRow = {
      key: String(category.id),
      label: truncateLabel(category.name),
      name: category.name,
      total: category.total,
    };
    for (const cell of category.byStatus) row[statusSeriesKey(cell.statusId)] = cell.total;
    return row;
  });
  return {
    rows,
    series,
    max: Math.max(0, ...reply.categories.map((category) => category.total)),
    total: reply.total,
  };
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textColorOn(hex: string): '#000000' | '#ffffff' {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return '#000000';
  const channel = (part: string) => {
    const c = Number.parseInt(part, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [, r = '0', g = '0', b = '0'] = match;
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  // Contrast with white is (1.05)/(L+0.05), with black (L+0.05)/0.05: equal at L ≈ 0.179.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** Spec §9: the dashboard's default range is the current month, first to last day. */
export function defaultRange(today: Date = new Date()): DateRange {
  return currentMonthRange(today);
}

export type RangeDraft = { from: string; to: string };
export type RangeCheck =
  | { ok: true; range: DateRange }
  | { ok: false; errors: Partial<Record<keyof RangeDraft, string>> };

/** Validates the DD/MM/YYYY texts of the filter with the gateway's own messages. */
export function checkRange(draft: RangeDraft): RangeCheck {
  const errors: Partial<Record<keyof RangeDraft, string>> = {};
  const from = displayToIso(draft.from);
  const to = displayToIso(draft.to);
  if (!draft.from.trim()) errors.from = FIELD_MESSAGES.dateFromRequired;
  else if (!from) errors.from = FIELD_MESSAGES.dateInvalid;
  if (!draft.to.trim()) errors.to = FIELD_MESSAGES.dateToRequired;
  else if (!to) errors.to = FIELD_MESSAGES.dateInvalid;
  // The API's one date rule (docs/product/handling.md#dates), said here before the gateway has to.
  if (from && !isSupportedIsoDate(from)) errors.from = FIELD_MESSAGES.dateOutOfRange;
  if (to && !isSupportedIsoDate(to)) errors.to = FIELD_MESSAGES.dateOutOfRange;
  if (!from || !to || errors.from || errors.to) return { ok: false, errors };
  if (from > to) return { ok: false, errors: { from: FIELD_MESSAGES.dateRangeInvalid } };
  return { ok: true, range: { from, to } };
}

export const draftOf = (range: DateRange): RangeDraft => ({
  from: isoToDisplay(range.from),
  to: isoToDisplay(range.to),
});

/** 'Periode 01/05/2026 – 31/05/2026'. */
export const periodText = (range: DateRange) =>
  `Periode ${isoToDisplay(range.from)} – ${isoToDisplay(range.to)}`;

/**
 * Spec §9: chart export file names start 'Partner -' (partner users) or 'Perusahaan -' (company
 * users), then the chart, the company and the period; characters file systems refuse become '-'.
 */
export function chartFileName(input: {
  partnerView: boolean;
  chart: string;
  companyName?: string | null;
  range: DateRange;
}): string {
  const parts = [
    input.partnerView ? 'Partner' : 'Perusahaan',
    input.chart,
    input.companyName ?? '',
    `${isoToDisplay(input.range.from)} sd ${isoToDisplay(input.range.to)}`,
  ].filter((part) => part.trim() !== '');
  const name = parts.join(' - ').replace(/[\\/:*?"<>|]/g, '-');
  return `${name}.png`;
}

/**
 * Spec §2: a bar opens the case list filtered by its category or status, over the chart's period so
 * the list shows the cases the bar counted. The case list may not look past today (spec §9), so a
 * period reaching into the future stops at today there; a period wholly in the future is not passed.
 */
export function caseListHref(
  filter: 'category' | 'status',
  id: number | string,
  range?: DateRange,
  today: string = toIsoDate(new Date()),
): string {
  const params = new URLSearchParams({ [filter]: String(id) });
  if (range && range.from <= today) {
    params.set('from', range.from);
    params.set('to', range.to < today ? range.to : today);
  }
  return `/admin/case?${params.toString()}`;
}

/** The query of a dashboard call: the period when it has one; `companyId` only when one is chosen. */
export function dashboardQuery(input: {
  range: DateRange;
  companyId?: number | undefined;
}): DateRange & { companyId?: string };
export function dashboardQuery(input: { companyId?: number | undefined }): { companyId?: string };
export function dashboardQuery(input: { range?: DateRange; companyId?: number | undefined }) {
  return {
    ...(input.range ? { from: input.range.from, to: input.range.to } : {}),
    ...(input.companyId ? { companyId: String(input.companyId) } : {}),
  };
}
