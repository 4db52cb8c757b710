/**
 * Peta Laporan (/admin/maps): reports per province of the reporter and, inside a province, per city or
 * regency, for the caller's scope and the dashboard's range (docs/product/insights.md). Computed from
 * the case index; an area of 1 to 4 reports is never a number and never drilled into.
 */
import {
  type InsightsQuery,
  insightsQuery,
  mapCitiesReply,
  mapProvinceParams,
  mapProvincesReply,
} from '@wbs/shared/api/insights';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { insightsScopeOf } from '../../insights/scope.ts';
import { cityMap, provinceMap } from '../../insights/service.ts';
import { presentCityMap, presentProvinceMap } from '../../presenters/insights.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['insights'];
const policy = 'insights:read' as const;

const SCOPE_NOTE =
  'Scope from the session: company users their company (an analyst, type 4, the cases its case list shows: ' +
  'its line and those not yet routed); partner users (3, 5) one company of their partner, or all of them ' +
  'when `companyId` is omitted; the administrator (type 1) one company of the group or the whole group. ' +
  'A company outside the scope is 404. 503 `busy` while the case index has not swept a company of the ' +
  'scope whole yet.';

export default async function mapRoutes(app: FastifyInstance) {
  app.get<{ Querystring: InsightsQuery }>(
    '/maps/provinces',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Peta Laporan: laporan per provinsi',
        description:
          'Reports filed in the range per province of the reporter, every province of the legacy’s list. ' +
          'A province with 1 to 4 reports has `total: null, suppressed: true` (shown “<5”). `unlocated` ' +
          '(“Tanpa lokasi”): anonymous reports and identified ones naming no province; `unread`: reports ' +
          `whose detail the case index has not read yet. ${SCOPE_NOTE}`,
        tags,
        querystring: insightsQuery,
        response: { 200: mapProvincesReply },
      }),
    },
    async (request) => {
      const { from, to, companyId } = request.query;
      const scope = await insightsScopeOf(request.caller, companyId);
      const map = await provinceMap(request.clocks, scope, { from, to });
      return presentProvinceMap({ from, to }, scope, map);
    },
  );

  app.get<{ Querystring: InsightsQuery; Params: v.InferOutput<typeof mapProvinceParams> }>(
    '/maps/provinces/:provinceId/cities',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Peta Laporan: laporan per kota/kabupaten',
        description:
          'The cities and regencies of one province with at least one report, most first (suppressed ones, ' +
          '1 to 4 reports, last by name). 409 `area-too-small` for a province of 1 to 4 reports; 404 for a ' +
          `province the legacy does not list. ${SCOPE_NOTE}`,
        tags,
        params: mapProvinceParams,
        querystring: insightsQuery,
        response: { 200: mapCitiesReply },
      }),
    },
    async (request) => {
      const { from, to, companyId } = request.query;
      const scope = await insightsScopeOf(request.caller, companyId);
      const map = await cityMap(request.clocks, scope, { from, to }, request.params.provinceId);
      return presentCityMap({ from, to }, scope, map);
    },
  );
}
