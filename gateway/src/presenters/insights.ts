/**
 * Figures of Peta Laporan and Statistik → the `/api/v1/maps` and `/api/v1/statistics` replies
 * (shared/src/api/insights.ts). Aggregates only: no case id, number or name ever leaves here.
 */
import type { MapCitiesReply, MapProvincesReply, StatisticsReply } from '@wbs/shared/api/insights';
import type { Figures } from '../insights/figures.ts';
import type { InsightsScope } from '../insights/scope.ts';
import type { cityMap, provinceMap, Range, Statistics } from '../insights/service.ts';

const covered = (range: Range, scope: InsightsScope) => ({
  from: range.from,
  to: range.to,
  companyId: scope.companyId,
  companies: scope.companies.map((c) => ({ companyId: c.companyId, companyName: c.companyName })),
});

export function presentProvinceMap(
  range: Range,
  scope: InsightsScope,
  map: Awaited<ReturnType<typeof provinceMap>>,
): MapProvincesReply {
  return { ...covered(range, scope), ...map };
}

export function presentCityMap(
  range: Range,
  scope: InsightsScope,
  map: Awaited<ReturnType<typeof cityMap>>,
): MapCitiesReply {
  return { ...covered(range, scope), ...map };
}

/** A share to four decimals (0.6667), enough for a percentage with two. */
const share = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

function presentFigures(f: Figures): StatisticsReply['overall'] {
  return {
    filed: f.filed,
    closed: f.closed,
    acknowledge: { ...f.acknowledge, withinDeadline: share(f.acknowledge.withinDeadline) },
    answer: { ...f.answer, withinDeadline: share(f.answer.withinDeadline) },
    anonymous: { ...f.anonymous },
    returned: f.returned,
  };
}

export function presentStatistics(range: Range, scope: InsightsScope, s: Statistics): StatisticsReply {
  return {
    ...covered(range, scope),
    overall: presentFigures(s.overall),
    months: s.months.map((m) => ({ ...m })),
    channels: s.channels.map((c) => ({ ...c })),
    outcomes: s.outcomes.map((o) => ({ ...o })),
    companies: s.companies.map((c) => ({
      companyId: c.companyId,
      companyName: c.companyName,
      figures: presentFigures(c.figures),
    })),
  };
}
