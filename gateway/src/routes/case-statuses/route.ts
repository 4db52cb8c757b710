/** Case statuses, sorted by order (no paging), each marked open or final. */
import { caseStatusesReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import { caseStatusTable } from '../../legacy/reference.ts';
import { routeSchema } from '../../schema.ts';

export default async function caseStatusRoutes(app: FastifyInstance) {
  app.get(
    '/case-statuses',
    {
      config: { policy: 'case-statuses:read' },
      schema: routeSchema({
        summary: 'Status laporan',
        description: '`open: false` menandai status akhir (tidak ada di daftar status terbuka legacy).',
        tags: ['reference'],
        response: { 200: caseStatusesReply },
      }),
    },
    async (request) => ({ items: await caseStatusTable(request.legacy) }),
  );
}
