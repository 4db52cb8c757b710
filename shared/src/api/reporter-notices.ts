/**
 * A reporter's e-mail notice of a reply (docs/product/notifications.md#pelapor):
 * - the tracker, number and password in the POST body as on every tracker route:
 *   `/tracking/reporter-notices` (ask), `/tracking/reporter-notices/status`, `/tracking/reporter-notices/stop`;
 * - the signed-in pelapor (type 6) on its own case: `/cases/{id}/reporter-notices` (GET, POST, DELETE);
 * - whoever holds a link from a mail: `/reporter-notices/confirm` and `/reporter-notices/opt-out`, the
 *   link's token in the body (the page read it from the URL fragment, which never reaches a server).
 */
import * as v from 'valibot';
import { REPORTER_NOTICE_MESSAGES as M } from '../messages.ts';
import { trackingRequest } from './cases.ts';

/** RFC 5321's limit on a whole address (a forward-path of 256 minus its angle brackets). */
export const NOTICE_ADDRESS_MAX = 254;
const LOCAL_MAX = 64;

/** Anything that could end a mail header line or hide in one: C0 and C1 controls, DEL, line separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** The local part as HTML's `type=email` takes it (atext, dot-separated), ASCII only. */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** A top-level domain: letters, or an IDN one in its ASCII (punycode) form. */
const TLD = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/**
 * One plain mailbox `local@domain.tld`, strictly: ASCII only, no quotes, comments, brackets, commas,
 * spaces or controls, no IP literal, at most 254 characters. Anything a mail header could read as a
 * second address, a second header or a display name fails (docs/adr/0061-reporter-mail-notices.md).
 */
export function isNoticeAddress(value: string): boolean {
  if (value.length === 0 || value.length > NOTICE_ADDRESS_MAX || CONTROL.test(value)) return false;
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (local.length > LOCAL_MAX || !LOCAL.test(local)) return false;
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TLD.test(labels.at(-1) ?? '');
}

export const noticeAddress = v.optional(
  v.pipe(
    v.string(M.emailRequired),
    // Before the trim, which would quietly drop a trailing CR LF: a line break anywhere is refused.
    v.check((value) => !CONTROL.test(value), M.emailInvalid),
    v.trim(),
    v.nonEmpty(M.emailRequired),
    v.maxLength(NOTICE_ADDRESS_MAX, M.emailInvalid),
    // The pipe goes on after a failed action: one message per refusal, not the same one twice.
    v.check(
      (value) => value === '' || value.length > NOTICE_ADDRESS_MAX || isNoticeAddress(value),
      M.emailInvalid,
    ),
  ),
  '',
);

/** The tracker asks for notices: its proof and the address. */
export const trackerReporterNoticeRequest = v.object({ ...trackingRequest.entries, email: noticeAddress });
export type TrackerReporterNoticeRequest = v.InferOutput<typeof trackerReporterNoticeRequest>;

/** The pelapor asks for notices on its own case. */
export const reporterNoticeRequest = v.object({ email: noticeAddress });
export type ReporterNoticeRequest = v.InferOutput<typeof reporterNoticeRequest>;

/** A link's token: 32 random bytes, base64url (43 characters). */
export const NOTICE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const reporterNoticeTokenRequest = v.object({
  token: v.optional(
    v.pipe(
      v.string(M.tokenInvalid),
      v.trim(),
      v.nonEmpty(M.tokenInvalid),
      v.regex(NOTICE_TOKEN_PATTERN, M.tokenInvalid),
    ),
    '',
  ),
});
export type ReporterNoticeTokenRequest = v.InferOutput<typeof reporterNoticeTokenRequest>;

/** The same answer whatever happened (a mail sent, a limit met): nothing to learn about an address. */
export const reporterNoticeRequestedReply = v.object({ message: v.string() });
export type ReporterNoticeRequestedReply = v.InferOutput<typeof reporterNoticeRequestedReply>;

/** What the reporter's own view shows: masked addresses only (b***@e***.com), never the address. */
export const reporterNoticeStatusReply = v.object({
  /** The confirmed address notices go to, masked; null when none. */
  confirmed: v.nullable(v.string()),
  /** An address waiting for its confirmation link to be opened, masked; null when none. */
  pending: v.nullable(v.string()),
});
export type ReporterNoticeStatusReply = v.InferOutput<typeof reporterNoticeStatusReply>;

/** A confirmation link was opened: the address (masked) that notices now go to. */
export const reporterNoticeConfirmReply = v.object({ confirmed: v.string() });
export type ReporterNoticeConfirmReply = v.InferOutput<typeof reporterNoticeConfirmReply>;
