/**
 * Which legacy case table and export a caller reads, chosen from the SESSION only (spec §7): the
 * request may narrow the list with filters, never widen it. The company comes from
 * `companyInScope` (partner users name one of their companies, the administrator any company of
 * the group; company users get their own).
 */
import { USER_TYPES } from '@wbs/shared/constants';
import type { FastifyRequest } from 'fastify';
import type { IndexScope } from '../../clocks/indexed.ts';
import {
  type CaseExport,
  type CaseReader,
  type CaseTable,
  caseExportOf,
  caseTableOf,
} from '../../legacy/cases.ts';
import { companyInScope, outOfScope, scopeOf } from '../../policies/scope.ts';

export type CaseEndpoints = {
  /** The only company whose rows may come back. */
  companyId: number;
  table: CaseTable;
  /** Null for readers with no export (the administrator, the signed-in whistleblower). */
  export: CaseExport | null;
  /** Who reads the table, as the legacy tells readers apart. */
  reader: CaseReader;
};

/** The session as a reader of case tables; anything else is outside every table (404 + audit). */
function readerOf(request: FastifyRequest, companyId: number): CaseReader {
  const user = request.session?.user;
  const scope = scopeOf(request.caller);
  switch (user?.userTypeId) {
    case USER_TYPES.COMPANY_ADMIN:
      return { kind: 'company-admin', companyId };
    case USER_TYPES.COMPANY_STAFF:
      if (!user.staffId) throw outOfScope(request.caller, 'staff', null);
      return { kind: 'company-staff', staffId: user.staffId, companyId };
    case USER_TYPES.PARTNER:
    case USER_TYPES.PARTNER_STAFF:
      if (scope.kind !== 'partner') throw outOfScope(request.caller, 'partner', null);
      return { kind: 'partner', partnerId: scope.partnerId, companyId };
    case USER_TYPES.ADMINISTRATOR:
      // Read only (docs/product/roles-and-screens.md#administrator): the legacy's company table of the
      // chosen company; no export.
      return { kind: 'administrator', companyId };
    case USER_TYPES.WHISTLEBLOWER:
      if (scope.kind !== 'whistleblower') throw outOfScope(request.caller, 'whistleblower', null);
      return { kind: 'whistleblower', whistleblowerId: scope.whistleblowerId, companyId };
    default:
      throw outOfScope(request.caller, 'case', null);
  }
}

export async function caseEndpointsOf(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<CaseEndpoints> {
  const companyId = await companyInScope(request.caller, requested);
  const reader = readerOf(request, companyId);
  return { companyId, table: caseTableOf(reader), export: caseExportOf(reader), reader };
}

/**
 * The reader's scope within its company as the case index applies it (clocks/indexed.ts), or null
 * for the pelapor, whose own cases the index does not tell apart. An analyst sees the cases of its
 * line and those not routed yet, as the legacy's staff table does; its line is the session's (a
 * change of line through the gateway ends the analyst's sessions).
 */
export function indexScopeOf(request: FastifyRequest, endpoints: CaseEndpoints): IndexScope | null {
  const { reader, companyId } = endpoints;
  if (reader.kind === 'whistleblower') return null;
  if (reader.kind === 'company-staff')
    return { companyId, staffLineId: request.session?.user.caseLineId ?? null };
  return { companyId };
}
