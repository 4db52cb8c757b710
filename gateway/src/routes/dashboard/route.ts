/**
 * Dashboard counts (spec section 2 "Dashboard screen"; legacy `PartnerDashboard/*` and
 * `CompanyDashboard/*`), for user types 2–5 (`dashboard:read`). The company always comes from the
 * session: company users (2, 4) get their own and a different `companyId` is a scope miss (404 +
 * audit); partner users (3, 5) must name one company of their partner. Partner users are answered
 * from the partner endpoints, company users from the company endpoints, as the legacy UI does.
 */
import {
  type DashboardOpenCasesQuery,
  type DashboardOverdueReply,
  type DashboardRangeQuery,
  type DashboardSummaryQuery,
  dashboardCompaniesReply,
  dashboardOpenCasesQuery,
  dashboardOpenCasesReply,
  dashboardOverdueReply,
  dashboardRangeQuery,
  dashboardSummaryQuery,
  dashboardSummaryReply,
} from '@wbs/shared/api/dashboard';
import { toLegacyRange } from '@wbs/shared/dates';
import { wibToday } from '@wbs/shared/handling-clock';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { indexedOverdue } from '../../clocks/indexed.ts';
import { overdueOf } from '../../clocks/overdue.ts';
import { ApiProblem } from '../../errors.ts';
import { casePage, walkCaseTable } from '../../legacy/cases.ts';
import {
  companySummary,
  type DashboardTarget,
  openCaseCounts,
  partnerCompanyCounts,
} from '../../legacy/dashboards.ts';
import { companyInScope, outOfScope, partnerCompanies, scopeOf } from '../../policies/scope.ts';
import { presentCompanies, presentOpenCases, presentSummary } from '../../presenters/dashboard.ts';
import { routeSchema } from '../../schema.ts';
import { caseEndpointsOf, indexScopeOf } from '../cases/scope.ts';

const tags = ['dashboard'];
const policy = 'dashboard:read' as const;

/** The caller's own partner; company users asking for the partner overview are out of scope. */
function partnerOf(request: FastifyRequest): number {
  const scope = scopeOf(request.caller);
  if (scope.kind !== 'partner') throw outOfScope(request.caller, 'partner-dashboard', null);
  return scope.partnerId;
}

/** The company whose dashboard the caller reads, and which legacy endpoint family answers for it. */
async function targetOf(request: FastifyRequest, requested: number | undefined): Promise<DashboardTarget> {
  const companyId = await companyInScope(request.caller, requested);
  const scope = scopeOf(request.caller);
  return scope.kind === 'partner'
    ? { kind: 'partner', partnerId: scope.partnerId, companyId }
    : { kind: 'company', companyId };
}

/** How long one table's overdue count is reused (a dashboard is opened often, the walk is not cheap). */
const OVERDUE_CACHE_MS = 30_000;
const OVERDUE_CACHE_MAX = 1_000;
type OverdueCount = DashboardOverdueReply['companies'][number];
/** Counts by table and day; a miss walks the table (its walk is the fetch context), concurrent misses share it. */
type OverdueCache = LRUCache<string, OverdueCount, () => Promise<OverdueCount>>;

/**
 * Overdue count of one company's table as the caller sees it (the table path holds the whole scope):
 * from the case index once the watcher has swept the company (complete), else by walking the table.
 */
async function overdueCountOf(
  request: FastifyRequest,
  cache: OverdueCache,
  companyId: number,
  companyName: string | null,
): Promise<OverdueCount> {
  const endpoints = await caseEndpointsOf(request, companyId);
  const { table } = endpoints;
  const key = `${table.path}|${wibToday()}`;
  const walkCount = async (): Promise<OverdueCount> => {
    const scope = indexScopeOf(request, endpoints);
    const indexed = scope ? await indexedOverdue(request.clocks, scope, {}) : null;
    if (indexed) {
      // The name as the table gives it (one row), for company users whose reply names no company.
      const name =
        companyName ??
        (await casePage(request.legacy, table, { start: 0, length: 1 })).rows[0]?.caseCompany?.companyName ??
        null;
      return { companyId, companyName: name, overdue: indexed.overdue.length, complete: !indexed.partial };
    }
    const walk = await walkCaseTable(
      request.legacy,
      table,
      companyId,
      { rangeDate: toLegacyRange('2000-01-01', wibToday()) },
      [{ column: 'caseCreated', dir: 'asc' }],
    );
    const { overdue, partial } = await overdueOf(request.clocks, companyId, walk.rows);
    return {
      companyId,
      companyName: companyName ?? walk.rows[0]?.caseCompany?.companyName ?? null,
      overdue: overdue.length,
      complete: walk.complete && !partial,
    };
  };
  return (await cache.fetch(key, { context: walkCount })) as OverdueCount;
}

export default async function dashboardRoutes(app: FastifyInstance) {
  const overdueCache: OverdueCache = new LRUCache({
    max: OVERDUE_CACHE_MAX,
    ttl: OVERDUE_CACHE_MS,
    fetchMethod: (_key, _stale, { context }) => context(),
  });

  app.get(
    '/dashboard/overdue',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Pengaduan yang melewati tenggat',
        description:
          'Reports whose running handling step (acknowledgement, default 7 days after filing; feedback, ' +
          'default 3 months) is past its deadline today (WIB), per company: company users their own ' +
          '(analysts: their own case table), partner users every company of their partner. Counts are ' +
          'reused for 30 s.',
        tags,
        response: { 200: dashboardOverdueReply },
      }),
    },
    async (request) => {
      const scope = scopeOf(request.caller);
      const companies =
        scope.kind === 'partner'
          ? (await partnerCompanies(request.caller, scope.partnerId)).map((c) => ({
              id: c.companyId,
              name: c.companyName as string | null,
            }))
          : [{ id: await companyInScope(request.caller, undefined), name: null }];
      const counts = [];
      // One company after the other: a partner's walk must not flood the legacy.
      for (const company of companies) {
        counts.push(await overdueCountOf(request, overdueCache, company.id, company.name));
      }
      return { today: wibToday(), companies: counts };
    },
  );

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
      return presentCompanies(
        { from, to },
        await partnerCompanyCounts(request.legacy, partnerId, { from, to }),
      );
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
      const { company, statuses, categories } = await companySummary(request.legacy, target, { from, to });
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
      return presentOpenCases(target.companyId, await openCaseCounts(request.legacy, target));
    },
  );
}
