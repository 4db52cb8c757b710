/** The gateway's insight routes (docs/product/insights.md), one function each. */
import type { MapCitiesReply, MapProvincesReply, StatisticsReply } from '@wbs/shared/api/insights';
import { type Download, download, type Query, read } from '../api/client.ts';
import type { DateRange } from '../dashboard/model.ts';

/** `from`, `to` and, when one is chosen, `companyId` (none: every company of the caller's scope). */
export const insightsQuery = (range: DateRange, companyId: number) => ({
  from: range.from,
  to: range.to,
  ...(companyId ? { companyId: String(companyId) } : {}),
});

// The routes' types come from the API document once it lists them; until then the contract's.
type AnyGet = Parameters<typeof read>[0];
type AnyInit = Parameters<typeof read>[1];

export const mapProvinces = (range: DateRange, companyId: number): Query<MapProvincesReply> =>
  read(
    '/api/v1/maps/provinces' as AnyGet,
    {
      params: { query: insightsQuery(range, companyId) },
    } as AnyInit,
  ) as unknown as Query<MapProvincesReply>;

export const mapCities = (provinceId: number, range: DateRange, companyId: number): Query<MapCitiesReply> =>
  read(
    '/api/v1/maps/provinces/{provinceId}/cities' as AnyGet,
    {
      params: { path: { provinceId: String(provinceId) }, query: insightsQuery(range, companyId) },
    } as AnyInit,
  ) as unknown as Query<MapCitiesReply>;

export const statistics = (range: DateRange, companyId: number): Query<StatisticsReply> =>
  read(
    '/api/v1/statistics' as AnyGet,
    {
      params: { query: insightsQuery(range, companyId) },
    } as AnyInit,
  ) as unknown as Query<StatisticsReply>;

export const statisticsExport = (
  range: DateRange,
  companyId: number,
  format: 'xlsx' | 'csv',
): Promise<Download> =>
  download.GET(
    '/api/v1/statistics/export' as AnyGet,
    {
      params: { query: { ...insightsQuery(range, companyId), format } },
    } as AnyInit,
  );
