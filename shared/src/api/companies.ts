/** /api/v1/companies (user type 1; options also for types 3 and 5, scoped to their partner). */
import * as v from 'valibot';
import { companySchema } from '../forms.ts';
import { itemsOf, nullableString, optionSchema, pageOf } from './common.ts';

export const companyRequest = companySchema;
export type CompanyRequest = v.InferOutput<typeof companyRequest>;

export const companySchemaOut = v.object({
  id: v.number(),
  code: nullableString,
  name: v.string(),
  phone: nullableString,
  address: nullableString,
  provinceId: v.nullable(v.number()),
  provinceName: nullableString,
  cityId: v.nullable(v.number()),
  cityName: nullableString,
  partnerId: v.nullable(v.number()),
  partnerName: nullableString,
  username: nullableString,
  email: nullableString,
});
export type Company = v.InferOutput<typeof companySchemaOut>;

export const companyReply = companySchemaOut;
export const companyListReply = pageOf(companySchemaOut);
export const companyOptionsReply = itemsOf(optionSchema);
