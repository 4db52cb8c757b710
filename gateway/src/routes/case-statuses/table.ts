/** The legacy's status table with each status marked open or final, sorted by order. */
import type { CaseStatusRow } from '@wbs/shared/api/reference';
import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { caseStatusSchema } from '../../legacy/schemas.ts';
import { presentCaseStatus } from '../../presenters/reference.ts';

const statusList = v.array(caseStatusSchema);

/**
 * Final = absent from the legacy's open-status list (GET /CaseStatus/Open), the list its dashboards
 * count unfinished cases by: the gateway holds no status meaning of its own (decision #29).
 */
export function loadStatusTable(request: FastifyRequest): Promise<readonly CaseStatusRow[]> {
  return request.server.referenceCache.get('case-statuses', () => fetchStatusTable(request));
}

async function fetchStatusTable(request: FastifyRequest): Promise<CaseStatusRow[]> {
  const [all, open] = await Promise.all([
    request.legacy.call({ name: 'CaseStatus.list', method: 'GET', path: '/CaseStatus', data: statusList }),
    request.legacy.call({
      name: 'CaseStatus.open',
      method: 'GET',
      path: '/CaseStatus/Open',
      data: statusList,
    }),
  ]);
  const openIds = new Set(open.data.map((s) => s.caseStatusId));
  return all.data
    .map((s) => ({ ...presentCaseStatus(s), open: openIds.has(s.caseStatusId) }))
    .sort((a, b) => a.order - b.order);
}
