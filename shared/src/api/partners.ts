/** /api/v1/partners (user type 1). */
import * as v from 'valibot';
import { partnerSchema } from '../forms.ts';
import { itemsOf, nullableString, optionSchema, pageOf } from './common.ts';

export const partnerRequest = partnerSchema;
export type PartnerRequest = v.InferOutput<typeof partnerRequest>;

export const partnerSchemaOut = v.object({
  id: v.number(),
  code: nullableString,
  name: v.string(),
  phone: nullableString,
  address: nullableString,
  provinceId: v.nullable(v.number()),
  provinceName: nullableString,
  cityId: v.nullable(v.number()),
  cityName: nullableString,
  username: nullableString,
  email: nullableString,
});
export type Partner = v.InferOutput<typeof partnerSchemaOut>;

export const partnerReply = partnerSchemaOut;
export const partnerListReply = pageOf(partnerSchemaOut);
export const partnerOptionsReply = itemsOf(optionSchema);

/**
 * Reply of creating an organisation or a staff member: the legacy creates a sign-in account with a
 * random initial password and returns it once; it is shown once to the administrator (docs/product/roles-and-screens.md#master-data).
 */
export const createdAccountReply = v.object({
  /** The new record's id (its URL is in `Location`); null when the legacy did not return one. */
  id: v.nullable(v.number()),
  message: v.string(),
  /** null when the legacy did not return one. */
  initialPassword: nullableString,
});
export type CreatedAccountReply = v.InferOutput<typeof createdAccountReply>;
