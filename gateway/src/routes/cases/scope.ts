/**
 * Which legacy case table and export a caller reads, chosen from the SESSION only (spec §7): the
 * request may narrow the list with filters, never widen it. The company comes from
 * `companyInScope` (partner users name one of their companies, the administrator any company of
 * the group; company users get their own).
 */
import { USER_TYPES } from '@wbs/shared/constants';
import type { FastifyRequest } from 'fastify';
import { seg } from '../../legacy/client.ts';
import { companyInScope, outOfScope, scopeOf } from '../../policies/scope.ts';

type LegacyEndpoint = {
  /** Stable call name for the logs. */
  name: string;
  path: string;
};

export type CaseEndpoints = {
  /** The only company whose rows may come back. */
  companyId: number;
  table: LegacyEndpoint;
  /** Scope fields go into the legacy export body; null for the signed-in whistleblower (no export). */
  export: (LegacyEndpoint & { scope: Record<string, number> }) | null;
};

export async function caseEndpointsOf(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<CaseEndpoints> {
  const user = request.session?.user;
  const scope = scopeOf(request);
  const companyId = await companyInScope(request, requested);
  switch (user?.userTypeId) {
    case USER_TYPES.COMPANY_ADMIN:
      return {
        companyId,
        table: { name: 'WBSCase.companyAdminTable', path: `/WBSCase/company/admin/${seg(companyId)}` },
        export: {
          name: 'WBSCase.companyAdminExport',
          path: '/WBSCase/Company/Admin/Export',
          scope: { caseCompanyId: companyId },
        },
      };
    case USER_TYPES.COMPANY_STAFF:
      if (!user.staffId) throw outOfScope(request, 'staff', null);
      return {
        companyId,
        table: { name: 'WBSCase.staffTable', path: `/WBSCase/company/staff/${seg(user.staffId)}` },
        // The staff scope is the analyst's line; the company is sent as well, as a second fence.
        export: {
          name: 'WBSCase.staffExport',
          path: '/WBSCase/Company/Staff/Export',
          scope: { companyStaffId: user.staffId, caseCompanyId: companyId },
        },
      };
    case USER_TYPES.PARTNER:
    case USER_TYPES.PARTNER_STAFF:
      if (scope.kind !== 'partner') throw outOfScope(request, 'partner', null);
      return {
        companyId,
        table: {
          name: 'WBSCase.partnerTable',
          path: `/WBSCase/partner/${seg(scope.partnerId)}/${seg(companyId)}`,
        },
        export: {
          name: 'WBSCase.partnerExport',
          path: '/WBSCase/Partner/Export',
          scope: { partnerId: scope.partnerId, caseCompanyId: companyId },
        },
      };
    case USER_TYPES.ADMINISTRATOR:
      // Read only (decision #37): the legacy's company table of the chosen company; no export.
      return {
        companyId,
        table: { name: 'WBSCase.companyAdminTable', path: `/WBSCase/company/admin/${seg(companyId)}` },
        export: null,
      };
    case USER_TYPES.WHISTLEBLOWER:
      if (scope.kind !== 'whistleblower') throw outOfScope(request, 'whistleblower', null);
      return {
        companyId,
        table: {
          name: 'WBSCase.whistleblowerTable',
          path: `/WBSCase/whistleblower/${seg(scope.whistleblowerId)}/${seg(companyId)}`,
        },
        export: null,
      };
    default:
      throw outOfScope(request, 'case', null);
  }
}
