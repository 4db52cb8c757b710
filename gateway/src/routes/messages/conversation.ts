/**
 * The steps every message route shares once the case is proven to be the caller's: read the
 * conversation for one side (and move that side's "seen" mark), and post with the Idempotency-Key.
 */
import type { ConversationReply, PostMessageReply } from '@wbs/shared/api/messages';
import { format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { presentMessage, type Reader } from '../../presenters/messages.ts';
import {
  type Author,
  type CaseRef,
  listMessages,
  MAX_MESSAGES_PER_CASE,
  markSeen,
  postMessage,
  seenOf,
} from '../../store/messages.ts';
import { storeCall } from '../../store/plugin.ts';
import { idempotencyKeyOf } from '../../uploads/idempotency.ts';

export const caseRefOf = (found: LegacyCase): CaseRef => ({
  companyId: found.caseCompanyId,
  caseId: found.caseId,
});

/**
 * The conversation as `reader` sees it, with `isNew` relative to that side's last visit; then,
 * when `marks` is true, that side has seen everything shown.
 */
export async function readConversation(
  request: FastifyRequest,
  ref: CaseRef,
  reader: Reader,
  marks: boolean,
): Promise<ConversationReply> {
  return storeCall(request, async (store) => {
    const [messages, seen] = await Promise.all([listMessages(store, ref), seenOf(store, ref)]);
    const reply = { messages: messages.map((message) => presentMessage(message, reader, seen)) };
    const last = messages.at(-1);
    if (marks && last) await markSeen(store, ref, reader === 'staff' ? 'handler' : 'reporter', last.id);
    return reply;
  });
}

/** Posts `text` as `author` (idempotent with the request's Idempotency-Key); replies with the conversation. */
export async function postToConversation(
  request: FastifyRequest,
  ref: CaseRef,
  author: Author,
  text: string,
): Promise<PostMessageReply> {
  const key = idempotencyKeyOf(request);
  const content = author.kind === 'handler' ? { text, authorName: author.name } : { text };
  const result = await storeCall(request, (store) =>
    postMessage(store, ref, author, content, {
      key,
      hmacKey: request.server.config.sessionSecret,
    }),
  );
  if (result.outcome === 'key-reused') {
    throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.messageIdempotencyMismatch });
  }
  if (result.outcome === 'full') {
    const detail = format(TEMPLATE_MESSAGES.conversationFull, { limit: MAX_MESSAGES_PER_CASE });
    throw new ApiProblem('validation', { errors: { text: detail } });
  }
  const reader = author.kind === 'handler' ? 'staff' : 'reporter';
  const conversation = await readConversation(request, ref, reader, true);
  return { ...conversation, postedId: result.id };
}
