/**
 * Whose figures a caller reads (shared/src/api/insights.ts), from the session only: company users
 * their company (an analyst only the cases its case list shows: its line and those not routed yet),
 * partner users one company of their partner or all of them, the administrator one company of the
 * group or all of it. A company outside the scope is 404 + audit, as everywhere.
 */
import { USER_TYPES } from '@wbs/shared/constants';
import { companyOptions } from '../legacy/masters.ts';
import type { Caller, CompanyOption } from '../policies/caller.ts';
import { partnerCompanies } from '../policies/scope.ts';
import type { FigureScope } from './store.ts';

export type InsightsScope = FigureScope & {
  /** The company asked for, or null for all of the partner's or the group's. */
  companyId: number | null;
  companies: CompanyOption[];
};

/** Every company of the group with its name (the legacy's drop-down, reused briefly). */
async function groupCompanies(caller: Caller): Promise<CompanyOption[]> {
  return caller.legacy.cached('insights:group-companies', () => companyOptions(caller.legacy, 0));
}

export async function insightsScopeOf(caller: Caller, requested: number | undefined): Promise<InsightsScope> {
  const { scope, user } = caller;
  const pick = (all: CompanyOption[]): InsightsScope => {
    const sorted = [...all].sort((a, b) => a.companyId - b.companyId);
    if (requested === undefined) {
      return { companyId: null, companies: sorted, companyIds: sorted.map((c) => c.companyId) };
    }
    const one = sorted.find((c) => c.companyId === requested);
    if (!one) throw caller.denied('company', requested);
    return { companyId: requested, companies: [one], companyIds: [requested] };
  };
  if (scope.kind === 'partner') return pick(await partnerCompanies(caller, scope.partnerId));
  if (scope.kind === 'all') return pick(await groupCompanies(caller));
  if (scope.kind === 'company') {
    if (requested !== undefined && requested !== scope.companyId) throw caller.denied('company', requested);
    const name =
      (await groupCompanies(caller).catch(() => [])).find((c) => c.companyId === scope.companyId)
        ?.companyName ?? '';
    const own = { companyId: scope.companyId, companyName: name };
    const figures: InsightsScope = {
      companyId: scope.companyId,
      companies: [own],
      companyIds: [scope.companyId],
    };
    // The analyst's case list: its line and the cases not routed yet (routes/cases/scope.ts indexScopeOf).
    if (user?.userTypeId === USER_TYPES.COMPANY_STAFF) figures.staffLineId = user.caseLineId ?? null;
    return figures;
  }
  throw caller.denied('company', requested ?? null);
}
