/**
 * Peta Laporan (/admin/maps) and Statistik (a tab of the dashboard): aggregate figures of the caller's
 * scope, computed by the gateway from the case index and the handling clocks, never in the browser
 * (docs/product/insights.md).
 *
 * Scope, from the session only: company users (2, 4) their company (an analyst, type 4, the cases its
 * case list shows: its own line and those not yet routed); partner users (3, 5) one company of their
 * partner, or all of them when `companyId` is omitted; the administrator (type 1) one company of the
 * group, or the whole group when omitted. A company outside the scope is 404, like everywhere.
 *
 * Small numbers: an area with 1 to 4 reports is never given as a number (`total: null`,
 * `suppressed: true`, shown "<5") and cannot be drilled into (409 `area-too-small`).
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { idString, optionalIdQuery } from './common.ts';
import { periodEntries, periodOrdered } from './dates.ts';

/** Areas holding this many reports or fewer (but at least one) are shown as "<5", never counted. */
export const SMALL_AREA_MAX = 4;

/** `?from&to` (both days inclusive, the filing day) and the optional `companyId` (see the scope above). */
export const insightsQuery = v.pipe(
  v.object({ ...periodEntries, companyId: optionalIdQuery }),
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
);
export type InsightsQuery = v.InferOutput<typeof insightsQuery>;

/** The companies the figures cover (one, or every company of the partner or group). */
const coveredSchema = v.object({
  /** The company asked for, or null for all companies of the caller's partner or the group. */
  companyId: v.nullable(v.number()),
  companies: v.array(v.object({ companyId: v.number(), companyName: v.string() })),
});

/** An area's count: a number from 5 up or 0; null with `suppressed` for 1 to 4 reports. */
const areaCount = {
  total: v.nullable(v.number()),
  suppressed: v.boolean(),
};

/** GET /maps/provinces: reports filed in the range per province of the reporter. */
export const mapProvincesReply = v.object({
  from: v.string(),
  to: v.string(),
  ...coveredSchema.entries,
  /** Every report of the scope filed in the range (as the dashboard counts them). */
  total: v.number(),
  /** Every province of the legacy's list, zeros included, in the list's order. */
  provinces: v.array(v.object({ provinceId: v.number(), provinceName: v.string(), ...areaCount })),
  /** "Tanpa lokasi": anonymous reports and identified reports that name no province. */
  unlocated: v.number(),
  /** Reports whose location the gateway has not read from the legacy yet (counted in no area). */
  unread: v.number(),
});
export type MapProvincesReply = v.InferOutput<typeof mapProvincesReply>;

export const mapProvinceParams = v.object({ provinceId: idString });

/** GET /maps/provinces/{provinceId}/cities: the cities and regencies of one province, ranked. */
export const mapCitiesReply = v.object({
  from: v.string(),
  to: v.string(),
  ...coveredSchema.entries,
  provinceId: v.number(),
  provinceName: v.string(),
  /** The province's reports (never small: a small province is 409 `area-too-small`). */
  total: v.number(),
  /** Cities with at least one report, most first (suppressed ones last, by name). */
  cities: v.array(v.object({ cityId: v.number(), cityName: v.string(), ...areaCount })),
  /** Reports of the province that name no city. */
  unlocated: v.number(),
});
export type MapCitiesReply = v.InferOutput<typeof mapCitiesReply>;

/** Days from filing to a handling step, over the reports that completed it in the range. */
const durationSchema = v.object({
  /** Reports filed in the range that completed the step. */
  measured: v.number(),
  medianDays: v.nullable(v.number()),
  p90Days: v.nullable(v.number()),
  /** Share (0–1) of the measured reports that completed it by its deadline; null when none measured. */
  withinDeadline: v.nullable(v.number()),
});

const labelledCount = v.object({ id: v.number(), name: v.string(), total: v.number() });

/** The key figures of one company (or of the whole scope). */
const figuresSchema = v.object({
  filed: v.number(),
  closed: v.number(),
  acknowledge: durationSchema,
  answer: durationSchema,
  /** Reports filed anonymously / with an identity / not read yet. */
  anonymous: v.object({ anonymous: v.number(), identified: v.number(), unknown: v.number() }),
  /** Reports whose reporter came back after filing (tracked it or wrote a message), of `filed`. */
  returned: v.number(),
});

/** GET /statistics: the Statistik tab. */
export const statisticsReply = v.object({
  from: v.string(),
  to: v.string(),
  ...coveredSchema.entries,
  /** Figures of the whole scope. */
  overall: figuresSchema,
  /** Per calendar month (WIB) of the range: reports filed and reports that reached a final status. */
  months: v.array(v.object({ month: v.string(), filed: v.number(), closed: v.number() })),
  /** Reports filed in the range per channel, every channel, zeros included. */
  channels: v.array(labelledCount),
  /** Reports filed in the range that are now in a final status, per final status. */
  outcomes: v.array(labelledCount),
  /** Per company of the scope (one row when one company is asked for). */
  companies: v.array(v.object({ companyId: v.number(), companyName: v.string(), figures: figuresSchema })),
});
export type StatisticsReply = v.InferOutput<typeof statisticsReply>;

/** GET /statistics/export?format=xlsx|csv plus the insights query: the same figures as a file. */
export const statisticsExportQuery = v.pipe(
  v.object({
    ...periodEntries,
    companyId: optionalIdQuery,
    format: v.optional(v.picklist(['xlsx', 'csv'], 'Format tidak valid'), 'xlsx'),
  }),
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
);
export type StatisticsExportQuery = v.InferOutput<typeof statisticsExportQuery>;
