/** Case statuses, sorted by order (no paging). */
import { caseStatusesReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { caseStatusSchema } from '../../legacy/schemas.ts';
import { presentCaseStatus } from '../../presenters/reference.ts';
import { routeSchema } from '../../schema.ts';

export default async function caseStatusRoutes(app: FastifyInstance) {
  app.get(
    '/case-statuses',
    {
      config: { policy: 'case-statuses:read' },
      schema: routeSchema({
        summary: 'Status laporan',
        tags: ['reference'],
        response: { 200: caseStatusesReply },
      }),
    },
    async (request) => {
      const { data } = await request.legacy.call({
        name: 'CaseStatus.list',
        method: 'GET',
        path: '/CaseStatus',
        data: v.array(caseStatusSchema),
      });
      return { items: data.map(presentCaseStatus).sort((a, b) => a.order - b.order) };
    },
  );
}
