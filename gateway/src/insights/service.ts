/**
 * The figures of a scope (docs/product/insights.md): counted in the store (insights/counts.ts; the case
 * list's area filter reads the index rows, insights/store.ts) and reference lists (regions, channels,
 * statuses: cached legacy lists, never a per-case read), through the plain clock context of the
 * request (clocks/plugin.ts).
 */

import { STATUS_NEW_ID } from '@wbs/shared/constants';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { type ClockContext, finalStatusIdsOf } from '../clocks/service.ts';
import { ApiProblem } from '../errors.ts';
import { caseStatusTable, channels, cities, provinces } from '../legacy/reference.ts';
import type { Store } from '../store/plugin.ts';
import { breakdownCounts, cityCounts, figureCounts, placeCounts } from './counts.ts';
import {
  areaCount,
  cityFiguresOf,
  type Figures,
  figuresOf,
  inArea,
  isSmall,
  monthlyOf,
  provinceFiguresOf,
} from './figures.ts';
import type { InsightsScope } from './scope.ts';
import { type FigureRow, type FigureScope, figureRows, unseededCompanies } from './store.ts';

export type Range = { from: string; to: string };

/** How long a caller is told to wait while the watcher's first sweep of a company is under way. */
const NOT_READY_RETRY_SECONDS = 60;

async function storeOf(ctx: ClockContext): Promise<Store> {
  return ctx.store().catch((error: unknown) => {
    throw new ApiProblem('store-unavailable', { cause: error });
  });
}

/**
 * Runs `work` on the store once every company of the scope has been swept whole: before, its figures
 * would be short of its history, so 503 `busy` until it has (minutes after the first start).
 */
async function whenSeeded<T>(ctx: ClockContext, scope: FigureScope, work: (store: Store) => Promise<T>) {
  const store = await storeOf(ctx);
  try {
    if ((await unseededCompanies(store, scope.companyIds)).length > 0) {
      throw new ApiProblem('busy', {
        detail: PROBLEM_MESSAGES.insightsNotReady,
        retryAfter: NOT_READY_RETRY_SECONDS,
      });
    }
    return await work(store);
  } catch (error) {
    if (error instanceof ApiProblem) throw error;
    throw new ApiProblem('store-unavailable', { cause: error });
  }
}

/** The index rows of the scope and range (the case list's area filter), once the scope is swept. */
export async function scopeRows(
  ctx: ClockContext,
  scope: FigureScope,
  range: Partial<Range>,
): Promise<FigureRow[]> {
  return whenSeeded(ctx, scope, (store) => figureRows(store, scope, range, false));
}

async function provinceIdsOf(ctx: ClockContext) {
  const list = await provinces(ctx.caller.legacy);
  return { list, ids: new Set(list.map((p) => p.provinceId)) };
}

export async function provinceMap(ctx: ClockContext, scope: InsightsScope, range: Range) {
  const [{ list, ids }, counts] = await Promise.all([
    provinceIdsOf(ctx),
    whenSeeded(ctx, scope, (store) => placeCounts(store, scope, range)),
  ]);
  const figures = provinceFiguresOf(counts, ids);
  return {
    total: figures.total,
    unread: figures.unread,
    unlocated: figures.unlocated,
    provinces: list.map((p) => ({
      provinceId: p.provinceId,
      provinceName: p.provinceName,
      ...areaCount(figures.byProvince.get(p.provinceId) ?? 0),
    })),
  };
}

const tooSmall = () => new ApiProblem('area-too-small', { detail: PROBLEM_MESSAGES.areaTooSmall });

const collator = new Intl.Collator('id');

/** The cities of one province, ranked; 404 for a province the legacy's list lacks, 409 for a small one. */
export async function cityMap(ctx: ClockContext, scope: InsightsScope, range: Range, provinceId: number) {
  const { list } = await provinceIdsOf(ctx);
  const province = list.find((p) => p.provinceId === provinceId);
  if (!province) throw new ApiProblem('not-found');
  const [cityList, byCity] = await Promise.all([
    cities(ctx.caller.legacy, provinceId),
    whenSeeded(ctx, scope, (store) => cityCounts(store, scope, range, provinceId)),
  ]);
  const { total, unlocated, byCity: counted } = cityFiguresOf(byCity, new Set(cityList.map((c) => c.cityId)));
  if (isSmall(total)) throw tooSmall();
  const ranked = cityList
    .map((c) => ({ cityId: c.cityId, cityName: c.cityName, n: counted.get(c.cityId) ?? 0 }))
    .filter((c) => c.n > 0)
    .sort((a, b) => {
      const aSmall = isSmall(a.n);
      const bSmall = isSmall(b.n);
      if (aSmall !== bSmall) return aSmall ? 1 : -1;
      // Suppressed ones by name only: their order must not tell their counts apart.
      if (aSmall) return collator.compare(a.cityName, b.cityName);
      return b.n - a.n || collator.compare(a.cityName, b.cityName);
    });
  return {
    provinceId,
    provinceName: province.provinceName,
    total,
    unlocated,
    cities: ranked.map(({ n, ...c }) => ({ ...c, ...areaCount(n) })),
  };
}

export type AreaFilter = {
  provinceId?: number | undefined;
  cityId?: number | undefined;
  unlocated?: boolean | undefined;
};

export const hasArea = (f: AreaFilter) =>
  f.provinceId !== undefined || f.cityId !== undefined || f.unlocated === true;

/**
 * The index rows of the case list's area filter (the map's links), after the small-area rule: an area
 * (province or city) of 1 to 4 reports in the list's range is 409, as on the map. "Tanpa lokasi" is no
 * area of anyone's and always listed.
 */
export async function areaRows(
  ctx: ClockContext,
  scope: FigureScope,
  range: Partial<Range>,
  area: AreaFilter,
): Promise<FigureRow[]> {
  const [{ ids }, rows] = await Promise.all([provinceIdsOf(ctx), scopeRows(ctx, scope, range)]);
  const matching = rows.filter((row) => inArea(row, ids, area));
  const named = area.provinceId !== undefined || area.cityId !== undefined;
  if (named) {
    // The province's own count decides too: a city of a small province is as small.
    const province =
      area.provinceId === undefined
        ? matching.length
        : rows.filter((row) => inArea(row, ids, { provinceId: area.provinceId })).length;
    if (isSmall(matching.length) || isSmall(province)) throw tooSmall();
  }
  return matching;
}

export type Statistics = {
  overall: Figures;
  months: { month: string; filed: number; closed: number }[];
  channels: { id: number; name: string; total: number }[];
  outcomes: { id: number; name: string; total: number }[];
  companies: { companyId: number; companyName: string; figures: Figures }[];
};

export async function statisticsOf(
  ctx: ClockContext,
  scope: InsightsScope,
  range: Range,
): Promise<Statistics> {
  const legacy = ctx.caller.legacy;
  const finals = await finalStatusIdsOf(legacy, ctx.log);
  const [statusTable, channelList, { figures, breakdowns }] = await Promise.all([
    caseStatusTable(legacy),
    channels(legacy),
    whenSeeded(ctx, scope, async (store) => {
      const figures = () =>
        figureCounts(store, scope, range, {
          finals,
          newStatusId: STATUS_NEW_ID,
          defaults: ctx.defaults,
          log: ctx.log,
        });
      const breakdowns = () => breakdownCounts(store, scope, range, finals);
      // On a PostgreSQL server the two statements run side by side on two of the pool's connections;
      // PGlite has one connection, so there one after the other.
      if (store.engine === 'postgresql') {
        const [f, b] = await Promise.all([figures(), breakdowns()]);
        return { figures: f, breakdowns: b };
      }
      return { figures: await figures(), breakdowns: await breakdowns() };
    }),
  ]);
  return {
    overall: figuresOf(figures.get(null)),
    months: monthlyOf(breakdowns.months, range.from, range.to),
    channels: channelList.map((c) => ({
      id: c.channelId,
      name: c.channelName,
      total: breakdowns.channels.get(c.channelId) ?? 0,
    })),
    outcomes: [...statusTable]
      .filter((s) => finals.has(s.id))
      .sort((a, b) => a.order - b.order)
      .map((s) => ({ id: s.id, name: s.name, total: breakdowns.statuses.get(s.id) ?? 0 })),
    companies: scope.companies.map((c) => ({
      companyId: c.companyId,
      companyName: c.companyName,
      figures: figuresOf(figures.get(c.companyId)),
    })),
  };
}
