/** The gateway's insight routes (docs/product/insights.md), one function each. */
import { type ApiReply, type Download, download, read } from '../api/client.ts';
import type { DateRange } from '../dashboard/model.ts';

export type MapProvincesReply = ApiReply<'get', '/api/v1/maps/provinces'>;
export type MapCitiesReply = ApiReply<'get', '/api/v1/maps/provinces/{provinceId}/cities'>;
export type StatisticsReply = ApiReply<'get', '/api/v1/statistics'>;

/** `from`, `to` and, when one is chosen, `companyId` (none: every company of the caller's scope). */
export const insightsQuery = (range: DateRange, companyId: number) => ({
  from: range.from,
  to: range.to,
  ...(companyId ? { companyId: String(companyId) } : {}),
});

export const mapProvinces = (range: DateRange, companyId: number) =>
  read('/api/v1/maps/provinces', { params: { query: insightsQuery(range, companyId) } });

export const mapCities = (provinceId: number, range: DateRange, companyId: number) =>
  read('/api/v1/maps/provinces/{provinceId}/cities', {
    params: { path: { provinceId: String(provinceId) }, query: insightsQuery(range, companyId) },
  });

export const statistics = (range: DateRange, companyId: number) =>
  read('/api/v1/statistics', { params: { query: insightsQuery(range, companyId) } });

export const statisticsExport = (
  range: DateRange,
  companyId: number,
  format: 'xlsx' | 'csv',
): Promise<Download> =>
  download.GET('/api/v1/statistics/export', {
    params: { query: { ...insightsQuery(range, companyId), format } },
  });
