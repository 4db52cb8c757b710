/** POST /api/v1/case-categories, PUT /api/v1/case-categories/{id} (type 2, own company). */
import type * as v from 'valibot';
import { caseCategorySchema } from '../forms.ts';

export const caseCategoryRequest = caseCategorySchema;
export type CaseCategoryRequest = v.InferOutput<typeof caseCategoryRequest>;
