/** Access levels (Akses Level) of staff accounts. */
import { optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { userRoleSchema } from '../../legacy/schemas.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

export default async function userRoleRoutes(app: FastifyInstance) {
  app.get(
    '/user-roles',
    {
      config: { policy: 'user-roles:read' },
      schema: routeSchema({ summary: 'Akses level', tags: ['reference'], response: { 200: optionsReply } }),
    },
    async (request) => {
      const { data } = await request.legacy.call({
        name: 'UserRole.list',
        method: 'GET',
        path: '/UserRole',
        data: v.array(userRoleSchema),
      });
      return { items: data.map((r) => presentOption(r.id, r.text)) };
    },
  );
}
