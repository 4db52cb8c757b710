/** /api/v1/profile: the signed-in whistleblower's own profile (type 6). */
import * as v from 'valibot';
import { profileSchema } from '../forms.ts';

export const profileRequest = profileSchema;
export const profileReply = v.object({ fullName: v.string(), hideIdentity: v.boolean() });
export type ProfileReply = v.InferOutput<typeof profileReply>;
