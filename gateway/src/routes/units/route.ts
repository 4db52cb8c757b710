/** Directorate and division units (report wizard). */
import { directorateParams, optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { seg } from '../../legacy/client.ts';
import { unitSchema } from '../../legacy/schemas.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['reference'];

export default async function unitRoutes(app: FastifyInstance) {
  app.get(
    '/units/directorates',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({ summary: 'Unit direktorat', tags, response: { 200: optionsReply } }),
    },
    async (request) => {
      const data = await request.legacy.reference('unit-directorates', {
        name: 'Unit.directorates',
        method: 'GET',
        path: '/unit/getdirectorate/',
        data: v.array(unitSchema),
      });
      return { items: data.map((u) => presentOption(u.id, u.name)) };
    },
  );

  app.get<{ Params: v.InferOutput<typeof directorateParams> }>(
    '/units/directorates/:id/divisions',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({
        summary: 'Unit divisi',
        tags,
        params: directorateParams,
        response: { 200: optionsReply },
      }),
    },
    async (request) => {
      const data = await request.legacy.reference(`unit-divisions:${request.params.id}`, {
        name: 'Unit.divisions',
        method: 'GET',
        path: `/unit/getdivision/${seg(request.params.id)}`,
        data: v.array(unitSchema),
      });
      return { items: data.map((u) => presentOption(u.id, u.name)) };
    },
  );
}
