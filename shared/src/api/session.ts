/** POST/GET/DELETE /api/v1/session. */
import * as v from 'valibot';
import { loginSchema } from '../forms.ts';
import { nullableNumber, nullableString } from './common.ts';
import { secondFactorState } from './second-factor.ts';

/**
 * `deviceToken`: what the last successful sign-in in this browser answered (kept in local storage).
 * It exempts the browser from the slowing a username under attack gets (docs/adr/0008-sign-in-limits-and-device-token.md).
 */
export const loginRequest = v.object({
  ...loginSchema.entries,
  deviceToken: v.optional(v.pipe(v.string(), v.maxLength(4096))),
});

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

/**
 * GET /session: who is signed in. A signed-out visitor is an ordinary answer (`user: null`), not an
 * error; `passwordChangeRequired` says a forced change of an initial password is pending.
 */
export const sessionStateReply = v.object({
  user: v.nullable(userSchema),
  passwordChangeRequired: v.boolean(),
  /** Null when signed out; `status` other than `done` while the second-factor step is pending. */
  secondFactor: v.nullable(secondFactorState),
});
export type SessionStateReply = v.InferOutput<typeof sessionStateReply>;

export const passwordChangeRequiredReply = v.object({ passwordChangeRequired: v.literal(true) });

/** The password was right: a session started, in the second-factor state `secondFactor.status`. */
export const signedInReply = v.object({
  user: userSchema,
  deviceToken: v.optional(v.string()),
  secondFactor: secondFactorState,
});

export const loginReply = v.union([signedInReply, passwordChangeRequiredReply]);
export type LoginReply = v.InferOutput<typeof loginReply>;
