/**
 * The scope check of ONE case, shared by every route that names a case id (detail, downloads, the
 * activity log). The case is read with the legacy call of the caller's kind and then checked against
 * the session (never against the request):
 * - types 2 and 4: their own company (`GET /WBSCase/company/{ownCompanyId}/{caseId}`); type 4 only the
 *   cases its own list shows (its case line or none yet, docs/product/roles-and-screens.md#roles-and-scope)
 * — asked of the legacy
 *   staff table itself, so the detail and the list can never disagree, even after the admin moved the
 *   analyst to another line during its session;
 * - types 3 and 5: `GET /WBSCase/partner/{caseId}`, then the case's company must be one of the partner's;
 * - type 6: its own company and only the cases it filed (`caseWhistleblowerId`);
 * - type 1 (scope `all`, read only, docs/product/roles-and-screens.md#administrator): any case of the group,
 * `GET /WBSCase/partner/{caseId}`;
 * - anyone else (no session): nothing.
 * Anything outside the scope, and a case that does not exist, is the same 404 plus an audit line.
 */
import type { LegacyCase } from '../legacy/case-schemas.ts';
import { companyCase, groupCase, staffTableLists } from '../legacy/cases.ts';
import type { Caller } from './caller.ts';
import { partnerCompanyIds } from './scope.ts';

/**
 * The legacy case `caseId` after every scope check of the caller's session; otherwise throws the
 * 404 `not-found` problem (with a `scope-denied` audit line), whether the case exists or not.
 */
export async function loadCaseInScope(caller: Caller, caseId: number): Promise<LegacyCase> {
  const { scope, legacy } = caller;
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    const found = await companyCase(legacy, scope.companyId, caseId);
    if (!found || found.caseId !== caseId || found.caseCompanyId !== scope.companyId) {
      throw caller.denied('case', caseId);
    }
    if (scope.kind === 'whistleblower' && found.caseWhistleblowerId !== scope.whistleblowerId) {
      throw caller.denied('case', caseId);
    }
    if (scope.kind === 'company' && scope.staffOnly) {
      const staffId = caller.user?.staffId;
      if (!staffId || !(await staffTableLists(legacy, staffId, found))) {
        throw caller.denied('case', caseId);
      }
    }
    return found;
  }
  if (scope.kind === 'all') {
    const found = await groupCase(legacy, caseId);
    if (!found || found.caseId !== caseId) throw caller.denied('case', caseId);
    return found;
  }
  if (scope.kind === 'partner') {
    const found = await groupCase(legacy, caseId);
    if (!found || found.caseId !== caseId) throw caller.denied('case', caseId);
    const companies = await partnerCompanyIds(caller, scope.partnerId);
    if (!companies.has(found.caseCompanyId)) throw caller.denied('case', caseId);
    return found;
  }
  throw caller.denied('case', caseId);
}
