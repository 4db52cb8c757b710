/**
 * Dashboard counts at the legacy: the partner family (PartnerDashboard/*) for partner users and the
 * company family (CompanyDashboard/*) for company users, as the legacy UI asks them.
 */
import { toLegacyRange } from '@wbs/shared/dates';
import type * as v from 'valibot';
import {
  categorySummarySchema,
  companySummarySchema,
  openCasesSchema,
  partnerSummarySchema,
  statusSummarySchema,
} from './dashboard-schemas.ts';
import type { LegacyCaller } from './plugin.ts';

/** Whose dashboard is read: which endpoint family answers, and for which company. */
export type DashboardTarget =
  | { kind: 'company'; companyId: number }
  | { kind: 'partner'; partnerId: number; companyId: number };

export type Range = { from: string; to: string };

const familyOf = (target: DashboardTarget) =>
  target.kind === 'company' ? 'CompanyDashboard' : 'PartnerDashboard';

/** Reports filed in `range` per company of a partner. */
export async function partnerCompanyCounts(legacy: LegacyCaller, partnerId: number, range: Range) {
  const { data } = await legacy.call({
    name: 'PartnerDashboard.Summary',
    method: 'GET',
    path: '/PartnerDashboard/Summary',
    query: { partnerId, companyId: 0, DatePeriodRange: toLegacyRange(range.from, range.to) },
    data: partnerSummarySchema,
  });
  return data;
}

/**
 * One company's summary of `range`: its own row (undefined when the partner family no longer lists it),
 * its counts per status and per category.
 */
export async function companySummary(legacy: LegacyCaller, target: DashboardTarget, range: Range) {
  const DatePeriodRange = toLegacyRange(range.from, range.to);
  const family = familyOf(target);
  const query =
    target.kind === 'company'
      ? { companyId: target.companyId, DatePeriodRange }
      : { partnerId: target.partnerId, companyId: target.companyId, DatePeriodRange };
  const summary = <T>(call: string, data: v.GenericSchema<unknown, T>) =>
    legacy
      .call({ name: `${family}.${call}`, method: 'GET', path: `/${family}/${call}`, query, data })
      .then((reply) => reply.data);
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
  return { company, statuses, categories };
}

/** A company's reports not in a final status, per category and open status (the call takes only the company). */
export async function openCaseCounts(legacy: LegacyCaller, target: DashboardTarget) {
  const family = familyOf(target);
  const { data } = await legacy.call({
    name: `${family}.SummaryOpenCases`,
    method: 'GET',
    path: `/${family}/SummaryOpenCases`,
    query: { companyId: target.companyId },
    data: openCasesSchema,
  });
  return data;
}
