/**
 * /api/v1/dashboard (user types 2–5): report counts for the Dashboard screen (spec section 2).
 * Company users (2, 4) always get their own company; partner users (3, 5) name one company of their
 * partner, or ask for the per-company overview of the whole partner.
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { optionalIdQuery } from './common.ts';
import { periodEntries, periodOrdered } from './dates.ts';

const rangeQuery = v.object(periodEntries);
const summaryQuery = v.object({ ...periodEntries, companyId: optionalIdQuery });

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`, both days inclusive. */
export const dashboardRangeQuery = v.pipe(
  rangeQuery,
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
);
export type DashboardRangeQuery = v.InferOutput<typeof dashboardRangeQuery>;

/** The range plus `companyId`: required for partner users; company users may only name their own. */
export const dashboardSummaryQuery = v.pipe(
  summaryQuery,
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
);
export type DashboardSummaryQuery = v.InferOutput<typeof dashboardSummaryQuery>;

/** Open cases carry no date range (they are open now, whenever they were filed). */
export const dashboardOpenCasesQuery = v.object({ companyId: optionalIdQuery });
export type DashboardOpenCasesQuery = v.InferOutput<typeof dashboardOpenCasesQuery>;

/** A bar of a one-series chart: a company, a status or a category with its number of reports. */
export const dashboardCountSchema = v.object({ id: v.number(), name: v.string(), total: v.number() });
export type DashboardCount = v.InferOutput<typeof dashboardCountSchema>;

/** GET /dashboard/companies: reports per company of the caller's partner, filed in the range. */
export const dashboardCompaniesReply = v.object({
  from: v.string(),
  to: v.string(),
  total: v.number(),
  items: v.array(dashboardCountSchema),
});
export type DashboardCompaniesReply = v.InferOutput<typeof dashboardCompaniesReply>;

/** GET /dashboard/summary: one company's reports filed in the range, by status and by category. */
export const dashboardSummaryReply = v.object({
  companyId: v.number(),
  companyName: v.string(),
  from: v.string(),
  to: v.string(),
  total: v.number(),
  /** Every status, zeros included, in status order. */
  byStatus: v.array(dashboardCountSchema),
  /** Every category of the company, zeros included. */
  byCategory: v.array(dashboardCountSchema),
});
export type DashboardSummaryReply = v.InferOutput<typeof dashboardSummaryReply>;

/** GET /dashboard/open-cases: unfinished reports now, per category, split by open status. */
export const dashboardOpenCasesReply = v.object({
  companyId: v.number(),
  total: v.number(),
  /** The open statuses (the stack's series), in status order. */
  statuses: v.array(v.object({ id: v.number(), name: v.string() })),
  /** Categories holding at least one open report. */
  categories: v.array(
    v.object({
      id: v.number(),
      name: v.string(),
      total: v.number(),
      /** One entry per open status, in the order of `statuses`. */
      byStatus: v.array(v.object({ statusId: v.number(), total: v.number() })),
    }),
  ),
});
export type DashboardOpenCasesReply = v.InferOutput<typeof dashboardOpenCasesReply>;

/**
 * GET /dashboard/overdue: reports whose running handling step (acknowledgement or feedback) is past
 * its deadline now, per company of the caller's scope (company users: their own; partner users: each
 * company of their partner). `complete: false` when the company's table was too long to read whole.
 */
export const dashboardOverdueReply = v.object({
  /** The WIB day the counts hold for. */
  today: v.string(),
  companies: v.array(
    v.object({
      companyId: v.number(),
      companyName: v.nullable(v.string()),
      overdue: v.number(),
      complete: v.boolean(),
    }),
  ),
});
export type DashboardOverdueReply = v.InferOutput<typeof dashboardOverdueReply>;
