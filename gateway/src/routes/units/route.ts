/** Directorate and division units (report wizard). */
import { directorateParams, optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { directorates, divisions } from '../../legacy/reference.ts';
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
      const data = await directorates(request.legacy);
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
      const data = await divisions(request.legacy, request.params.id);
      return { items: data.map((u) => presentOption(u.id, u.name)) };
    },
  );
}
