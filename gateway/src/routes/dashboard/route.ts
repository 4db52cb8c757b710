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
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import {
  categorySummarySchema,
  companySummarySchema,
  openCasesSchema,
  partnerSummarySchema,
  statusSummarySchema,
} from '../../legacy/dashboard-schemas.ts';
import { assertCompanyInScope, outOfScope, scopeOf } from '../../policies/scope.ts';
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

/** The company whose dashboard the caller reads (see the module comment). */
async function targetOf(request: FastifyRequest, requested: number | undefined): Promise<Target> {
  const scope = scopeOf(request);
  if (scope.kind === 'company') {
    if (requested !== undefined && requested !== scope.companyId) {
      throw outOfScope(request, 'company', requested);
    }
    return { kind: 'company', companyId: scope.companyId };
  }
  if (scope.kind !== 'partner') throw outOfScope(request, 'company', requested ?? null);
  if (requested === undefined) {
    throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
  }
  await assertCompanyInScope(request, requested);
  return { kind: 'partner', partnerId: scope.partnerId, companyId: requested };
}

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
        name: 'PartnerDashboard.summary',
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
      const range = { from, to };
      const DatePeriodRange = toLegacyRange(from, to);
      if (target.kind === 'company') {
        const query = { companyId: target.companyId, DatePeriodRange };
        const [company, statuses, categories] = await Promise.all([
          request.legacy.call({
            name: 'CompanyDashboard.summary',
            method: 'GET',
            path: '/CompanyDashboard/Summary',
            query,
            data: companySummarySchema,
          }),
          request.legacy.call({
            name: 'CompanyDashboard.summaryStatus',
            method: 'GET',
            path: '/CompanyDashboard/SummaryStatus',
            query,
            data: statusSummarySchema,
          }),
          request.legacy.call({
            name: 'CompanyDashboard.summaryCategory',
            method: 'GET',
            path: '/CompanyDashboard/SummaryCategory',
            query,
            data: categorySummarySchema,
          }),
        ]);
        return presentSummary({
          range,
          company: company.data,
          statuses: statuses.data,
          categories: categories.data,
        });
      }
      const query = { partnerId: target.partnerId, companyId: target.companyId, DatePeriodRange };
      const [companies, statuses, categories] = await Promise.all([
        request.legacy.call({
          name: 'PartnerDashboard.summary',
          method: 'GET',
          path: '/PartnerDashboard/Summary',
          query,
          data: partnerSummarySchema,
        }),
        request.legacy.call({
          name: 'PartnerDashboard.summaryStatus',
          method: 'GET',
          path: '/PartnerDashboard/SummaryStatus',
          query,
          data: statusSummarySchema,
        }),
        request.legacy.call({
          name: 'PartnerDashboard.summaryCategory',
          method: 'GET',
          path: '/PartnerDashboard/SummaryCategory',
          query,
          data: categorySummarySchema,
        }),
      ]);
      const company = companies.data.find((row) => row.companyId === target.companyId);
      // In scope (checked above) yet unknown to the partner summary: the legacy no longer has it.
      if (!company) throw new ApiProblem('not-found');
      return presentSummary({ range, company, statuses: statuses.data, categories: categories.data });
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
      const family = target.kind === 'company' ? 'CompanyDashboard' : 'PartnerDashboard';
      // The legacy open-case calls take only companyId (spec section 7).
      const { data } = await request.legacy.call({
        name: `${family}.summaryOpenCases`,
        method: 'GET',
        path: `/${family}/SummaryOpenCases`,
        query: { companyId: target.companyId },
        data: openCasesSchema,
      });
      return presentOpenCases(target.companyId, data);
    },
  );
}
