/** Case categories: read (anyone, company-scoped) and create/update (type 2, own company). */
import { caseCategoryRequest } from '@wbs/shared/api/case-categories';
import { createdReply, idParams, messageReply } from '@wbs/shared/api/common';
import { caseCategoriesReply, companyQuery } from '@wbs/shared/api/reference';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import {
  caseCategories,
  caseCategoryGroups,
  createCaseCategory,
  updateCaseCategory,
} from '../../legacy/reference.ts';
import { companyForReference, outOfScope, ownCompanyId } from '../../policies/scope.ts';
import { presentCaseCategory } from '../../presenters/reference.ts';
import { routeSchema } from '../../schema.ts';
import { sendCreated } from '../created.ts';

const tags = ['case-categories'];
type Body = v.InferOutput<typeof caseCategoryRequest>;

/** When the company has groups, a group is required and must be one of them (spec section 5). */
async function checkGroup(
  request: FastifyRequest,
  companyId: number,
  groupId: number,
): Promise<number | null> {
  const groups = await caseCategoryGroups(request.legacy, companyId);
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
      const companyId = await companyForReference(request.caller, request.query.companyId);
      const categories = await caseCategories(request.legacy, companyId);
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
      const companyId = ownCompanyId(request.caller);
      const groupId = await checkGroup(request, companyId, request.body.groupId);
      const { id, messages } = await createCaseCategory(request.legacy, companyId, {
        name: request.body.name,
        groupId,
      });
      return sendCreated(request, reply, { id, message: messages[0] ?? '' });
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
      const companyId = ownCompanyId(request.caller);
      const mine = await caseCategories(request.legacy, companyId);
      if (!mine.some((c) => c.caseCategoryId === request.params.id)) {
        throw outOfScope(request.caller, 'case-category', request.params.id);
      }
      const groupId = await checkGroup(request, companyId, request.body.groupId);
      const { messages } = await updateCaseCategory(request.legacy, companyId, request.params.id, {
        name: request.body.name,
        groupId,
      });
      return { message: messages[0] ?? '' };
    },
  );
}
