/**
 * Pesan (messages between the case handlers and the reporter) and the reporter's identity-access
 * history, `/api/v1/cases/{id}/messages`, `/cases/{id}/identity-access`
 * and the tracker's `/tracking/conversation`, `/tracking/messages`, `/tracking/identity-access`
 * (complaint number and password in the POST body, never in a URL).
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { trackingRequest } from './cases.ts';
import { nullableString, wibDateTime } from './common.ts';

export const MESSAGE_MAX_LENGTH = 4000;
/** At most this many case ids per unread-marks request (one page of the case list). */
export const MESSAGE_MARKS_MAX_CASES = 100;

export const messageText = v.pipe(
  v.string(M.messageRequired),
  v.trim(),
  v.nonEmpty(M.messageRequired),
  v.maxLength(MESSAGE_MAX_LENGTH, M.messageTooLong),
);

export const postMessageRequest = v.object({ text: messageText });
export type PostMessageRequest = v.InferOutput<typeof postMessageRequest>;

/** The tracker proves number and password on every call. */
export const trackerConversationRequest = trackingRequest;
export const trackerPostMessageRequest = v.object({ ...trackingRequest.entries, text: messageText });
export type TrackerPostMessageRequest = v.InferOutput<typeof trackerPostMessageRequest>;

export const messageSchema = v.object({
  id: v.number(),
  /** Who wrote it: a handler (staff) or the reporter. */
  from: v.picklist(['handler', 'reporter']),
  /**
   * Shown as the author: the reporter always reads "Tim Penanganan WBS" for any handler; staff read
   * the handler's name; the reporter is "Pelapor" for everyone.
   */
  authorLabel: v.string(),
  /** The handler's user type name (staff only; null for the reporter's view and reporter messages). */
  authorRole: nullableString,
  text: v.string(),
  createdAt: wibDateTime,
  /** Unread by this reader's side: reporter messages no handler has read, or replies new to the reporter. */
  isNew: v.boolean(),
});
export type Message = v.InferOutput<typeof messageSchema>;

/** A case's conversation, oldest first (newest last). */
export const conversationReply = v.object({ messages: v.array(messageSchema) });
export type ConversationReply = v.InferOutput<typeof conversationReply>;

/** Reply of a post: the whole conversation (the new message last) and the new message's id. */
export const postMessageReply = v.object({ ...conversationReply.entries, postedId: v.number() });
export type PostMessageReply = v.InferOutput<typeof postMessageReply>;

export const identityAccessEntry = v.object({
  accessedAt: wibDateTime,
  /** The reader's role (user type name), never a name. */
  role: v.string(),
  kind: v.picklist(['case-read', 'contact-reveal']),
});

export const identityAccessReply = v.object({
  /** False for an anonymous report: there is no identity to open, and no history. */
  identified: v.boolean(),
  entries: v.array(identityAccessEntry),
});
export type IdentityAccessReply = v.InferOutput<typeof identityAccessReply>;
