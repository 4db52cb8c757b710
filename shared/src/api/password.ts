/** /api/v1/password: change (normal or forced), forgot. Staff resets live with their resources. */
import * as v from 'valibot';
import { changePasswordSchema, forgotPasswordSchema } from '../forms.ts';
import { secondFactorState } from './second-factor.ts';
import { userSchema } from './session.ts';

export const forgotPasswordRequest = forgotPasswordSchema;
export const changePasswordRequest = changePasswordSchema;

export const changePasswordReply = v.object({
  message: v.string(),
  user: userSchema,
  secondFactor: secondFactorState,
});
export type ChangePasswordReply = v.InferOutput<typeof changePasswordReply>;
