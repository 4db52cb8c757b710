/**
 * Dashboard counts (spec section 2 "Dashboard screen"; legacy `PartnerDashboard/*` and
 * `CompanyDashboard/*`), for user types 2–5 (`dashboard:read`). The company always comes from the
 * session: company users (2, 4) get their own and a different `companyId` is a scope miss (404 +
 * audit); partner users (3, 5) must name one company of their partner. Partner users are answered
 * from the partner endpoints, company users from the company endpoints, as the legacy UI does.
 */
import {
  type DashboardOpenCasesQuery,
  type DashboardRangeQuery,
  type DashboardSummaryQuery,
  dashboardCompaniesReply,
  dashboardOpenCasesQuery,
  dashboardOpenCasesReply,
  dashboardRangeQuery,
  dashboardSummaryQuery,
  dashboardSummaryReply,
} from '@wbs/shared/api/dashboard';
import { toLegacyRange } from '@wbs/shared/dates';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import {
  categorySummarySchema,
  companySummarySchema,
  openCasesSchema,
  partnerSummarySchema,
  statusSummarySchema,
} from '../../legacy/dashboard-schemas.ts';
import { companyInScope, outOfScope, scopeOf } from '../../policies/scope.ts';
import { presentCompanies, presentOpenCases, presentSummary } from '../../presenters/dashboard.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['dashboard'];
const policy = 'dashboard:read' as const;

/** Whose dashboard is read: which legacy endpoint family answers, and for which company. */
type Target =
  | { kind: 'company'; companyId: number }
  | { kind: 'partner'; partnerId: number; companyId: number };

/** The caller's own partner; company users asking for the partner overview are out of scope. */
function partnerOf(request: FastifyRequest): number {
  const scope = scopeOf(request);
  if (scope.kind !== 'partner') throw outOfScope(request, 'partner-dashboard', null);
  return scope.partnerId;
}

/** The company whose dashboard the caller reads, and which legacy endpoint family answers for it. */
async function targetOf(request: FastifyRequest, requested: number | undefined): Promise<Target> {
  const companyId = await companyInScope(request, requested);
  const scope = scopeOf(request);
  return scope.kind === 'partner'
    ? { kind: 'partner', partnerId: scope.partnerId, companyId }
    : { kind: 'company', companyId };
}

/** Company users are answered from the company endpoints, partner users from the partner ones. */
const familyOf = (target: Target) => (target.kind === 'company' ? 'CompanyDashboard' : 'PartnerDashboard');

export default async function dashboardRoutes(app: FastifyInstance) {
  app.get<{ Querystring: DashboardRangeQuery }>(
    '/dashboard/companies',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Jumlah pengaduan per perusahaan',
        description:
          'Partner users (types 3, 5) only: reports filed from `from` to `to` (both days inclusive) per ' +
          'company of their partner. Company users get 404.',
        tags,
        querystring: dashboardRangeQuery,
        response: { 200: dashboardCompaniesReply },
      }),
    },
    async (request) => {
      const partnerId = partnerOf(request);
      const { from, to } = request.query;
      const { data } = await request.legacy.call({
        name: 'PartnerDashboard.Summary',
        method: 'GET',
        path: '/PartnerDashboard/Summary',
        query: { partnerId, companyId: 0, DatePeriodRange: toLegacyRange(from, to) },
        data: partnerSummarySchema,
      });
      return presentCompanies({ from, to }, data);
    },
  );

  app.get<{ Querystring: DashboardSummaryQuery }>(
    '/dashboard/summary',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ringkasan pengaduan perusahaan',
        description:
          'Reports of one company filed from `from` to `to`: total, per status (every status, in ' +
          'status order) and per category (every category of the company). `companyId` is required ' +
          'for partner users (one of their companies); company users get their own company.',
        tags,
        querystring: dashboardSummaryQuery,
        response: { 200: dashboardSummaryReply },
      }),
    },
    async (request) => {
      const { from, to, companyId } = request.query;
      const target = await targetOf(request, companyId);
      const DatePeriodRange = toLegacyRange(from, to);
      const family = familyOf(target);
      const query =
        target.kind === 'company'
          ? { companyId: target.companyId, DatePeriodRange }
          : { partnerId: target.partnerId, companyId: target.companyId, DatePeriodRange };
      const summary = <T>(call: string, data: v.GenericSchema<unknown, T>) =>
        request.legacy
          .call({ name: `${family}.${call}`, method: 'GET', path: `/${family}/${call}`, query, data })
          .then((reply) => reply.data);
      // The company's own summary: one row of the company family, its row of the partner's list.
      const ownRow =
        target.kind === 'company'
          ? summary('Summary', companySummarySchema)
          : summary('Summary', partnerSummarySchema).then((rows) =>
              rows.find((row) => row.companyId === target.companyId),
            );
      const [company, statuses, categories] = await Promise.all([
        ownRow,
        summary('SummaryStatus', statusSummarySchema),
        summary('SummaryCategory', categorySummarySchema),
      ]);
      // In scope (checked above) yet unknown to the partner summary: the legacy no longer has it.
      if (!company) throw new ApiProblem('not-found');
      return presentSummary({ range: { from, to }, company, statuses, categories });
    },
  );

  app.get<{ Querystring: DashboardOpenCasesQuery }>(
    '/dashboard/open-cases',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Pengaduan yang belum selesai per kategori',
        description:
          'Reports of one company not in a final status, whenever filed: per category holding any, ' +
          'split by open status. `companyId` as for /dashboard/summary.',
        tags,
        querystring: dashboardOpenCasesQuery,
        response: { 200: dashboardOpenCasesReply },
      }),
    },
    async (request) => {
      const target = await targetOf(request, request.query.companyId);
      const family = familyOf(target);
      // The legacy open-case calls take only companyId (spec section 7).
      const { data } = await request.legacy.call({
        name: `${family}.SummaryOpenCases`,
        method: 'GET',
        path: `/${family}/SummaryOpenCases`,
        query: { companyId: target.companyId },
        data: openCasesSchema,
      });
      return presentOpenCases(target.companyId, data);
    },
  );
}
