/** Case categories: read (anyone, company-scoped) and create/update (type 2, own company). */
import { caseCategoryRequest } from '@wbs/shared/api/case-categories';
import { createdReply, idParams, messageReply } from '@wbs/shared/api/common';
import { caseCategoriesReply, companyQuery } from '@wbs/shared/api/reference';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { categoriesKey, legacyCategories, legacyCategoryGroups } from '../../legacy/categories.ts';
import { ignored } from '../../legacy/schemas.ts';
import { companyForReference, outOfScope, ownCompanyId } from '../../policies/scope.ts';
import { createdId, createdRecord, sendCreated } from '../../presenters/created.ts';
import { presentCaseCategory } from '../../presenters/reference.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['case-categories'];
type Body = v.InferOutput<typeof caseCategoryRequest>;

/** When the company has groups, a group is required and must be one of them (spec section 5). */
async function checkGroup(
  request: FastifyRequest,
  companyId: number,
  groupId: number,
): Promise<number | null> {
  const groups = await legacyCategoryGroups(request, companyId);
  if (groups.length === 0) return groupId > 0 ? groupId : null;
  if (groupId <= 0)
    throw new ApiProblem('validation', { errors: { groupId: FIELD_MESSAGES.categoryGroupRequired } });
  if (!groups.some((g) => g.caseCategoryGroupId === groupId)) {
    throw new ApiProblem('validation', { errors: { groupId: FIELD_MESSAGES.categoryGroupInvalid } });
  }
  return groupId;
}

export default async function caseCategoryRoutes(app: FastifyInstance) {
  app.get<{ Querystring: v.InferOutput<typeof companyQuery> }>(
    '/case-categories',
    {
      config: { policy: 'case-categories:read' },
      schema: routeSchema({
        summary: 'Kategori laporan',
        description:
          'Company from the session; guests get company 1; partner users name one of their companies.',
        tags,
        querystring: companyQuery,
        response: { 200: caseCategoriesReply },
      }),
    },
    async (request) => {
      const companyId = await companyForReference(request, request.query.companyId);
      const categories = await legacyCategories(request, companyId);
      return { items: categories.map(presentCaseCategory) };
    },
  );

  app.post<{ Body: Body }>(
    '/case-categories',
    {
      config: { policy: 'case-categories:manage' },
      schema: routeSchema({
        summary: 'Tambah kategori',
        tags,
        body: caseCategoryRequest,
        response: { 201: createdReply },
      }),
    },
    async (request, reply) => {
      const companyId = ownCompanyId(request);
      const groupId = await checkGroup(request, companyId, request.body.groupId);
      const { messages, data } = await request.legacy.call({
        name: 'CaseCategory.create',
        method: 'POST',
        path: '/CaseCategory',
        json: { caseCategoryName: request.body.name, caseCategoryGroupId: groupId ?? 0, companyId },
        data: createdRecord('caseCategoryId'),
      });
      // The company's list changed: its next read asks the legacy.
      request.server.referenceCache.invalidate(categoriesKey(companyId));
      return sendCreated(request, reply, {
        id: createdId(data, 'caseCategoryId'),
        message: messages[0] ?? '',
      });
    },
  );

  app.put<{ Params: v.InferOutput<typeof idParams>; Body: Body }>(
    '/case-categories/:id',
    {
      config: { policy: 'case-categories:manage' },
      schema: routeSchema({
        summary: 'Ubah kategori',
        tags,
        params: idParams,
        body: caseCategoryRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const companyId = ownCompanyId(request);
      const mine = await legacyCategories(request, companyId);
      if (!mine.some((c) => c.caseCategoryId === request.params.id)) {
        throw outOfScope(request, 'case-category', request.params.id);
      }
      const groupId = await checkGroup(request, companyId, request.body.groupId);
      const { messages } = await request.legacy.call({
        name: 'CaseCategory.update',
        method: 'PUT',
        path: '/CaseCategory',
        json: {
          caseCategoryId: request.params.id,
          caseCategoryName: request.body.name,
          caseCategoryGroupId: groupId ?? 0,
          companyId,
        },
        data: ignored,
      });
      // The company's list changed: its next read asks the legacy.
      request.server.referenceCache.invalidate(categoriesKey(companyId));
      return { message: messages[0] ?? '' };
    },
  );
}
