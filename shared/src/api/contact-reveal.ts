/**
 * POST /api/v1/cases/{id}/contact-reveal: a handler allowed to write activity logs states why it
 * needs a hidden reporter's e-mail and phone and gets them in clear (docs/decisions.md, "Anonymity").
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { nullableString } from './common.ts';

export const REVEAL_REASON_MIN = 10;
export const REVEAL_REASON_MAX = 500;

export const contactRevealRequest = v.object({
  reason: v.optional(
    v.pipe(
      v.string(M.revealReasonRequired),
      v.trim(),
      v.nonEmpty(M.revealReasonRequired),
      v.minLength(REVEAL_REASON_MIN, M.revealReasonMin),
      v.maxLength(REVEAL_REASON_MAX, M.max500),
    ),
    '',
  ),
});
export type ContactRevealRequest = v.InferOutput<typeof contactRevealRequest>;

export const contactRevealReply = v.object({ email: nullableString, phone: nullableString });
export type ContactRevealReply = v.InferOutput<typeof contactRevealReply>;
