import type { CaseCategory, CaseStatus } from '@wbs/shared/api/reference';
import type * as v from 'valibot';
import type { caseCategorySchema, caseStatusSchema } from '../legacy/schemas.ts';

export function presentCaseStatus(s: v.InferOutput<typeof caseStatusSchema>): CaseStatus {
  return { id: s.caseStatusId, name: s.caseStatusName, order: s.caseStatusOrder };
}

export function presentCaseCategory(c: v.InferOutput<typeof caseCategorySchema>): CaseCategory {
  const group = c.caseCategoryGroup ?? c.caseCategoryCaseCategoryGroup;
  return {
    id: c.caseCategoryId,
    name: c.caseCategoryName,
    groupId:
      c.caseCategoryCaseCategoryGroupId && c.caseCategoryCaseCategoryGroupId > 0
        ? c.caseCategoryCaseCategoryGroupId
        : null,
    groupName: group?.caseCategoryGroupName ?? null,
  };
}
