/** Access levels (Akses Level) of staff accounts. */
import { optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import { userRoles } from '../../legacy/reference.ts';
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
      const roles = await userRoles(request.legacy);
      return { items: roles.map((r) => presentOption(r.id, r.text)) };
    },
  );
}
