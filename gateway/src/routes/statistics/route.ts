/**
 * Statistik (a tab of the dashboard; the administrator's own menu entry): per company and for the
 * scope, reports per month, handling durations and deadlines, anonymous share, channels, outcomes and
 * reporters who came back (docs/product/insights.md). Computed from the case index and the handling
 * clocks; as a file with the date range in its name, never a complaint number.
 */
import {
  type InsightsQuery,
  insightsQuery,
  type StatisticsExportQuery,
  statisticsExportQuery,
  statisticsReply,
} from '@wbs/shared/api/insights';
import type { FastifyInstance } from 'fastify';
import { insightsScopeOf } from '../../insights/scope.ts';
import { statisticsOf } from '../../insights/service.ts';
import { audit } from '../../logging.ts';
import { presentStatistics } from '../../presenters/insights.ts';
import { statisticsCsv, statisticsXlsx } from '../../presenters/statistics-export.ts';
import { routeSchema } from '../../schema.ts';
import { contentDisposition, downloadSchema } from '../cases/files.ts';

const tags = ['insights'];
const policy = 'insights:read' as const;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV = 'text/csv; charset=utf-8';

const SCOPE_NOTE =
  'Scope from the session: company users their company (an analyst, type 4, the cases its case list shows: ' +
  'its line and those not yet routed); partner users (3, 5) one company of their partner, or all of them ' +
  'when `companyId` is omitted; the administrator (type 1) one company of the group or the whole group. ' +
  'A company outside the scope is 404. 503 `busy` while the case index has not swept a company of the ' +
  'scope whole yet.';

export default async function statisticsRoutes(app: FastifyInstance) {
  app.get<{ Querystring: InsightsQuery }>(
    '/statistics',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Statistik penanganan laporan',
        description:
          'Reports filed in the range (filing day, WIB): per month (filed; of them now in a final status), ' +
          'days from filing to the acknowledgement and to the answer (median, 90th percentile by nearest ' +
          'rank, share done by the deadline, as the case detail’s handling clock computes them), anonymous ' +
          'share, channels, outcomes by final status, and reporters who came back (a tracking proof or a ' +
          `message of theirs). ${SCOPE_NOTE}`,
        tags,
        querystring: insightsQuery,
        response: { 200: statisticsReply },
      }),
    },
    async (request) => {
      const { from, to, companyId } = request.query;
      const scope = await insightsScopeOf(request.caller, companyId);
      return presentStatistics({ from, to }, scope, await statisticsOf(request.clocks, scope, { from, to }));
    },
  );

  app.get<{ Querystring: StatisticsExportQuery }>(
    '/statistics/export',
    {
      // A file leaves the product: like every export, a second factor used within ten minutes.
      config: { policy, stepUp: true },
      schema: downloadSchema(
        {
          summary: 'Ekspor statistik (.xlsx, .csv)',
          description:
            'The figures of GET /statistics as one table (section, company, measure, value): `format=xlsx` ' +
            '(default) or `csv` (UTF-8 with a BOM, every cell quoted, a cell starting with = + - @ prefixed ' +
            'with an apostrophe). The file name holds the date range. Step-up. Audited (`export`, resource ' +
            `\`statistics\`). ${SCOPE_NOTE}`,
          tags,
          querystring: statisticsExportQuery,
        },
        [XLSX, 'text/csv'],
      ),
    },
    async (request, reply) => {
      const { from, to, companyId, format } = request.query;
      const scope = await insightsScopeOf(request.caller, companyId);
      const figures = presentStatistics(
        { from, to },
        scope,
        await statisticsOf(request.clocks, scope, { from, to }),
      );
      const body = format === 'csv' ? statisticsCsv(figures) : await statisticsXlsx(figures);
      audit(request, 'export', { resource: 'statistics', companyId: scope.companyId, from, to, format });
      return reply
        .header('content-type', format === 'csv' ? CSV : XLSX)
        .header('content-disposition', contentDisposition(`Statistik WBS ${from} sd ${to}.${format}`))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
