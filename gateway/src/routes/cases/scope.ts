/**
 * Which legacy case table (and export) a caller reads, chosen from the SESSION only (spec §7): the
 * request may narrow the list with filters, never widen it. `companyId` from the query or body is
 * required for partner users (types 3, 5: one company of their partner at a time, as the web sends it)
 * and, for company users, may only name their own company.
 */
import { USER_TYPES } from '@wbs/shared/constants';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { seg } from '../../legacy/client.ts';
import { assertCompanyInScope, outOfScope, scopeOf } from '../../policies/scope.ts';

export type CaseTable = {
  /** Stable call name for the logs. */
  name: string;
  path: string;
  /** The only company whose rows may come back. */
  companyId: number;
};

export type CaseExport = {
  name: string;
  path: string;
  /** Scope fields of the legacy export body. */
  scope: Record<string, number>;
};

/** Partner users name a company of their partner; company users their own one or none. */
async function companyOf(request: FastifyRequest, requested: number | undefined): Promise<number> {
  const scope = scopeOf(request);
  if (scope.kind === 'partner') {
    if (requested === undefined) {
      throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
    }
    await assertCompanyInScope(request, requested);
    return requested;
  }
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    if (requested !== undefined && requested !== scope.companyId) {
      throw outOfScope(request, 'company', requested);
    }
    return scope.companyId;
  }
  throw outOfScope(request, 'company', requested ?? null);
}

export async function caseTableOf(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<CaseTable> {
  const user = request.session?.user;
  const scope = scopeOf(request);
  const companyId = await companyOf(request, requested);
  switch (user?.userTypeId) {
    case USER_TYPES.COMPANY_ADMIN:
      return {
        name: 'WBSCase.companyAdminTable',
        path: `/WBSCase/company/admin/${seg(companyId)}`,
        companyId,
      };
    case USER_TYPES.COMPANY_STAFF:
      if (!user.staffId) throw outOfScope(request, 'staff', null);
      return { name: 'WBSCase.staffTable', path: `/WBSCase/company/staff/${seg(user.staffId)}`, companyId };
    case USER_TYPES.PARTNER:
    case USER_TYPES.PARTNER_STAFF:
      if (scope.kind !== 'partner') throw outOfScope(request, 'partner', null);
      return {
        name: 'WBSCase.partnerTable',
        path: `/WBSCase/partner/${seg(scope.partnerId)}/${seg(companyId)}`,
        companyId,
      };
    case USER_TYPES.WHISTLEBLOWER:
      if (scope.kind !== 'whistleblower') throw outOfScope(request, 'whistleblower', null);
      return {
        name: 'WBSCase.whistleblowerTable',
        path: `/WBSCase/whistleblower/${seg(scope.whistleblowerId)}/${seg(companyId)}`,
        companyId,
      };
    default:
      throw outOfScope(request, 'case', null);
  }
}

export async function caseExportOf(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<CaseExport> {
  const user = request.session?.user;
  const scope = scopeOf(request);
  const companyId = await companyOf(request, requested);
  switch (user?.userTypeId) {
    case USER_TYPES.COMPANY_ADMIN:
      return {
        name: 'WBSCase.companyAdminExport',
        path: '/WBSCase/Company/Admin/Export',
        scope: { caseCompanyId: companyId },
      };
    case USER_TYPES.COMPANY_STAFF:
      if (!user.staffId) throw outOfScope(request, 'staff', null);
      // The staff scope is the analyst's line; the company is sent as well, as a second fence.
      return {
        name: 'WBSCase.staffExport',
        path: '/WBSCase/Company/Staff/Export',
        scope: { companyStaffId: user.staffId, caseCompanyId: companyId },
      };
    case USER_TYPES.PARTNER:
    case USER_TYPES.PARTNER_STAFF:
      if (scope.kind !== 'partner') throw outOfScope(request, 'partner', null);
      return {
        name: 'WBSCase.partnerExport',
        path: '/WBSCase/Partner/Export',
        scope: { partnerId: scope.partnerId, caseCompanyId: companyId },
      };
    default:
      throw outOfScope(request, 'case-export', null);
  }
}
