/** Authorization lines a case is routed to. */
import { optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import { caseLines } from '../../legacy/reference.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

export default async function caseLineRoutes(app: FastifyInstance) {
  app.get(
    '/case-lines',
    {
      config: { policy: 'case-lines:read' },
      schema: routeSchema({
        summary: 'Jalur otorisasi',
        tags: ['reference'],
        response: { 200: optionsReply },
      }),
    },
    async (request) => {
      const data = await caseLines(request.legacy);
      return { items: data.map((c) => presentOption(c.caseLineId, c.caseLineName)) };
    },
  );
}
