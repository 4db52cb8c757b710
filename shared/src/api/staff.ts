/** /api/v1/partner-staff (type 3, own partner) and /api/v1/analysts (type 2, own company). */
import * as v from 'valibot';
import { analystSchema, partnerStaffSchema } from '../forms.ts';
import { nullableNumber, nullableString, pageOf } from './common.ts';

export const partnerStaffRequest = partnerStaffSchema;
export type PartnerStaffRequest = v.InferOutput<typeof partnerStaffRequest>;
export const analystRequest = analystSchema;
export type AnalystRequest = v.InferOutput<typeof analystRequest>;

const staffFields = {
  id: v.number(),
  fullName: v.string(),
  username: nullableString,
  email: nullableString,
  roleId: nullableNumber,
  roleName: nullableString,
  initialPassword: v.boolean(),
  /** Shown only while the staff member still has the initial password. */
  password: nullableString,
};

export const partnerStaffSchemaOut = v.object(staffFields);
export type PartnerStaff = v.InferOutput<typeof partnerStaffSchemaOut>;
export const partnerStaffListReply = pageOf(partnerStaffSchemaOut);

export const analystSchemaOut = v.object({
  ...staffFields,
  caseLineId: nullableNumber,
  caseLineName: nullableString,
});
export type Analyst = v.InferOutput<typeof analystSchemaOut>;
export const analystListReply = pageOf(analystSchemaOut);
