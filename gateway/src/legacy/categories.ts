/** Category and category-group lists of a company (POST /CaseCategory/GetAll, /CaseCategoryGroup/GetAll). */
import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { caseCategoryGroupSchema, caseCategorySchema } from './schemas.ts';

/** Cache key of a company's category list (invalidated by the gateway's category writes). */
export const categoriesKey = (companyId: number) => `case-categories:${companyId}`;

export async function legacyCategories(request: FastifyRequest, companyId: number) {
  return request.legacy.reference(categoriesKey(companyId), {
    name: 'CaseCategory.getAll',
    method: 'POST',
    path: '/CaseCategory/GetAll',
    json: { companyId },
    data: v.array(caseCategorySchema),
  });
}

export async function legacyCategoryGroups(request: FastifyRequest, companyId: number) {
  const { data } = await request.legacy.call({
    name: 'CaseCategoryGroup.getAll',
    method: 'POST',
    path: '/CaseCategoryGroup/GetAll',
    json: { companyId },
    data: v.array(caseCategoryGroupSchema),
  });
  return data;
}
