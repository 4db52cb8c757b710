/**
 * Notices of handlers (docs/product/notifications.md): the bell (GET /notices, POST /notices/read),
 * the Notifikasi preferences (GET/PUT /notice-preferences, the digest's one-click unsubscribe) and the
 * administrator's list of mails that could not be sent (GET /mail/dead-letters, POST …/{id}/retry).
 */
import * as v from 'valibot';
import { MAIL_MODES, NOTICE_KINDS } from '../notices.ts';
import { nullableNumber, wibDateTime } from './common.ts';

export const noticeKind = v.picklist(NOTICE_KINDS);
export const mailMode = v.picklist(MAIL_MODES);

/** One notice on the bell: what happened, where, and the case to open (null: not about one case). */
export const noticeItem = v.object({
  id: v.number(),
  kind: noticeKind,
  companyId: nullableNumber,
  companyName: v.nullable(v.string()),
  caseId: nullableNumber,
  createdAt: wibDateTime,
  read: v.boolean(),
});
export type NoticeItem = v.InferOutput<typeof noticeItem>;

export const noticeListQuery = v.object({
  /** Only notices older than this id (the next page of the bell's list). */
  before: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/), v.transform(Number))),
});

export type NoticeListQuery = v.InferOutput<typeof noticeListQuery>;

export const noticeListReply = v.object({
  items: v.array(noticeItem),
  unread: v.number(),
  /** More notices below the last one (ask again with `before`). */
  more: v.boolean(),
});
export type NoticeListReply = v.InferOutput<typeof noticeListReply>;

const noticeId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
/** Marks notices read: the ones listed, or every notice of the user with `all`. */
export const noticeReadRequest = v.union([
  v.object({ ids: v.pipe(v.array(noticeId), v.minLength(1), v.maxLength(200)) }),
  v.object({ all: v.literal(true) }),
]);
export type NoticeReadRequest = v.InferOutput<typeof noticeReadRequest>;
export const noticeReadReply = v.object({ unread: v.number() });

export const noticePreference = v.object({
  kind: noticeKind,
  mail: mailMode,
  /** A security notice: always mailed at once, whatever is sent. */
  locked: v.boolean(),
});
export const noticePreferencesReply = v.object({
  items: v.array(noticePreference),
  /** Whether the user's account has an e-mail address (without one only the bell shows notices). */
  hasEmail: v.boolean(),
});
export type NoticePreferencesReply = v.InferOutput<typeof noticePreferencesReply>;

export const noticePreferencesRequest = v.object({
  items: v.pipe(
    v.array(v.object({ kind: noticeKind, mail: mailMode })),
    v.minLength(1),
    v.maxLength(NOTICE_KINDS.length),
  ),
});
export type NoticePreferencesRequest = v.InferOutput<typeof noticePreferencesRequest>;

/** The digest's one-click unsubscribe (RFC 8058): the signed token of its List-Unsubscribe link. */
export const digestUnsubscribeQuery = v.object({
  token: v.pipe(v.string(), v.maxLength(200), v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)),
});

/** A job that failed every retry (a mail, mostly): which queue and since when. No address. */
export const deadLetterItem = v.object({
  id: v.string(),
  queue: v.string(),
  createdAt: wibDateTime,
});
export const deadLetterListReply = v.object({ items: v.array(deadLetterItem) });
export const deadLetterParams = v.object({ id: v.pipe(v.string(), v.uuid()) });
export type DeadLetterParams = v.InferOutput<typeof deadLetterParams>;
