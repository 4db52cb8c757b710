/**
 * The scope check of ONE case, shared by every route that names a case id (detail, downloads, the
 * activity log). The case is read with the legacy call of the caller's kind and then checked against
 * the session (never against the request):
 * - types 2 and 4: their own company (`GET /WBSCase/company/{ownCompanyId}/{caseId}`); type 4 only the
 *   cases its own list shows (its case line or none yet, docs/decisions.md #4) — asked of the legacy
 *   staff table itself, so the detail and the list can never disagree, even after the admin moved the
 *   analyst to another line during its session;
 * - types 3 and 5: `GET /WBSCase/partner/{caseId}`, then the case's company must be one of the partner's;
 * - type 6: its own company and only the cases it filed (`caseWhistleblowerId`);
 * - type 1 (scope `all`, read only, decision #37): any case of the group, `GET /WBSCase/partner/{caseId}`;
 * - anyone else (no session): nothing.
 * Anything outside the scope, and a case that does not exist, is the same 404 plus an audit line.
 */
import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ApiProblem } from '../errors.ts';
import { caseRowSchema, type LegacyCase, legacyCaseSchema } from '../legacy/case-schemas.ts';
import { seg } from '../legacy/client.ts';
import { outOfScope, partnerCompanyIds, scopeOf } from './scope.ts';

/** Legacy answers meaning "no such case here": code 0/-1 envelopes and HTTP 404. */
const MISSING = new Set(['not-found', 'legacy-warning', 'legacy-error']);

async function fetchCase(request: FastifyRequest, name: string, path: string): Promise<LegacyCase | null> {
  try {
    const { data } = await request.legacy.call({ name, method: 'GET', path, data: legacyCaseSchema });
    return data;
  } catch (error) {
    if (error instanceof ApiProblem && MISSING.has(error.type)) return null;
    throw error;
  }
}

/** Whether the analyst's own case table lists this case (the legacy applies its line rule). */
async function staffListShows(request: FastifyRequest, legacyCase: LegacyCase): Promise<boolean> {
  const staffId = request.session?.user.staffId;
  if (!staffId) return false;
  const { rows } = await request.legacy.table({
    name: 'WBSCase.staffTable',
    method: 'POST',
    path: `/WBSCase/company/staff/${seg(staffId)}`,
    json: { draw: 1, start: 0, length: 10, caseNumber: legacyCase.caseNumber },
    row: v.object({ caseId: caseRowSchema.entries.caseId }),
  });
  return rows.some((row) => row.caseId === legacyCase.caseId);
}

/**
 * The legacy case `caseId` after every scope check of the caller's session; otherwise throws the
 * 404 `not-found` problem (with a `scope-denied` audit line), whether the case exists or not.
 */
export async function loadCaseInScope(request: FastifyRequest, caseId: number): Promise<LegacyCase> {
  const scope = scopeOf(request);
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    const found = await fetchCase(
      request,
      'WBSCase.companyDetail',
      `/WBSCase/company/${seg(scope.companyId)}/${seg(caseId)}`,
    );
    if (!found || found.caseId !== caseId || found.caseCompanyId !== scope.companyId) {
      throw outOfScope(request, 'case', caseId);
    }
    if (scope.kind === 'whistleblower' && found.caseWhistleblowerId !== scope.whistleblowerId) {
      throw outOfScope(request, 'case', caseId);
    }
    if (scope.kind === 'company' && scope.staffOnly && !(await staffListShows(request, found))) {
      throw outOfScope(request, 'case', caseId);
    }
    return found;
  }
  if (scope.kind === 'all') {
    const found = await fetchCase(request, 'WBSCase.partnerDetail', `/WBSCase/partner/${seg(caseId)}`);
    if (!found || found.caseId !== caseId) throw outOfScope(request, 'case', caseId);
    return found;
  }
  if (scope.kind === 'partner') {
    const found = await fetchCase(request, 'WBSCase.partnerDetail', `/WBSCase/partner/${seg(caseId)}`);
    if (!found || found.caseId !== caseId) throw outOfScope(request, 'case', caseId);
    const companies = await partnerCompanyIds(request, scope.partnerId);
    if (!companies.has(found.caseCompanyId)) throw outOfScope(request, 'case', caseId);
    return found;
  }
  throw outOfScope(request, 'case', caseId);
}
