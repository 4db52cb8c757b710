/** Reference data: regions, units, channels, case lines, user roles, case statuses, categories. */
import * as v from 'valibot';
import {
  idString,
  itemsOf,
  nullableNumber,
  nullableString,
  optionalIdQuery,
  optionSchema,
} from './common.ts';

export const optionsReply = itemsOf(optionSchema);
export type OptionsReply = v.InferOutput<typeof optionsReply>;

export const provinceParams = v.object({ provinceId: idString });
export const cityParams = v.object({ cityId: idString });
export const directorateParams = v.object({ id: idString });

export const caseStatusSchema = v.object({ id: v.number(), name: v.string(), order: v.number() });
export type CaseStatus = v.InferOutput<typeof caseStatusSchema>;
/** A row of the status table; `open: false` = final (the legacy does not list it as open). */
export const caseStatusRowSchema = v.object({ ...caseStatusSchema.entries, open: v.boolean() });
export type CaseStatusRow = v.InferOutput<typeof caseStatusRowSchema>;
export const caseStatusesReply = itemsOf(caseStatusRowSchema);

export const caseCategorySchema = v.object({
  id: v.number(),
  name: v.string(),
  groupId: nullableNumber,
  groupName: nullableString,
});
export type CaseCategory = v.InferOutput<typeof caseCategorySchema>;
export const caseCategoriesReply = itemsOf(caseCategorySchema);

/** `companyId`: guests always get company 1; partner users must name one of their companies. */
export const companyQuery = v.object({ companyId: optionalIdQuery });
export type CompanyQuery = v.InferOutput<typeof companyQuery>;
