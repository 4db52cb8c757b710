/** Category groups of a company (company from the session; see companyForReference). */
import { companyQuery, optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { caseCategoryGroups } from '../../legacy/reference.ts';
import { companyForReference } from '../../policies/scope.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

export default async function caseCategoryGroupRoutes(app: FastifyInstance) {
  app.get<{ Querystring: v.InferOutput<typeof companyQuery> }>(
    '/case-category-groups',
    {
      config: { policy: 'case-categories:read' },
      schema: routeSchema({
        summary: 'Grup kategori laporan',
        tags: ['reference'],
        querystring: companyQuery,
        response: { 200: optionsReply },
      }),
    },
    async (request) => {
      const companyId = await companyForReference(request.caller, request.query.companyId);
      const groups = await caseCategoryGroups(request.legacy, companyId);
      return { items: groups.map((g) => presentOption(g.caseCategoryGroupId, g.caseCategoryGroupName)) };
    },
  );
}
