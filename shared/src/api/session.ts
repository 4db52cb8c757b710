/** POST/GET/DELETE /api/v1/session. */
import * as v from 'valibot';
import { loginSchema } from '../forms.ts';
import { nullableNumber, nullableString } from './common.ts';

export const loginRequest = loginSchema;

/** The signed-in user as the browser sees it (never the legacy token). */
export const userSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: nullableString,
  displayName: v.string(),
  userTypeId: v.number(),
  userTypeName: v.string(),
  role: nullableNumber,
  partnerId: nullableNumber,
  companyId: nullableNumber,
  caseLineId: nullableNumber,
  whistleblowerId: nullableNumber,
  staffId: nullableNumber,
});
export type User = v.InferOutput<typeof userSchema>;

export const sessionReply = v.object({ user: userSchema });
export type SessionReply = v.InferOutput<typeof sessionReply>;

export const passwordChangeRequiredReply = v.object({ passwordChangeRequired: v.literal(true) });

export const loginReply = v.union([sessionReply, passwordChangeRequiredReply]);
export type LoginReply = v.InferOutput<typeof loginReply>;
