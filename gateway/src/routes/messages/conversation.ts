/**
 * The steps every message route shares once the case is proven to be the caller's: read the
 * conversation for one side (and move that side's "seen" mark), and post with the Idempotency-Key.
 */
import type { ConversationReply, PostMessageReply } from '@wbs/shared/api/messages';
import { format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { noteReturn } from '../../insights/returns.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { recordCaseEventQuietly } from '../../notifications/notifier.ts';
import { presentMessage, type Reader } from '../../presenters/messages.ts';
import type { CaseIdentity } from '../../store/case-binding.ts';
import { type Author, listMessages, markSeen, postMessage, seenOf } from '../../store/messages.ts';
import { type Store, storeCall } from '../../store/plugin.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';

async function conversationOf(store: Store, found: CaseIdentity, reader: Reader, marks: boolean) {
  const ref = store.cases.bind(found);
  const [messages, seen] = await Promise.all([listMessages(store, ref), seenOf(store, ref)]);
  const reply = { messages: messages.map((message) => presentMessage(message, reader, seen)) };
  const last = messages.at(-1);
  if (marks && last) await markSeen(store, ref, reader === 'staff' ? 'handler' : 'reporter', last.id);
  return reply;
}

/**
 * The conversation as `reader` sees it, with `isNew` relative to that side's last visit; then,
 * when `marks` is true, that side has seen everything shown.
 */
export async function readConversation(
  request: FastifyRequest,
  found: CaseIdentity,
  reader: Reader,
  marks: boolean,
): Promise<ConversationReply> {
  return storeCall(request, (store) => conversationOf(store, found, reader, marks));
}

/** Posts `text` as `author` (idempotent with the request's Idempotency-Key); replies with the conversation. */
export async function postToConversation(
  request: FastifyRequest,
  found: LegacyCase,
  author: Author,
  text: string,
): Promise<PostMessageReply> {
  const key = idempotencyKeyOf(request);
  const content = author.kind === 'handler' ? { text, authorName: author.name } : { text };
  const reader = author.kind === 'handler' ? 'staff' : 'reporter';
  const posted = await storeCall(request, async (store) => {
    const ref = store.cases.bind(found);
    const result = await postMessage(store, ref, author, content, {
      key,
      hmacKey: request.server.config.sessionSecret,
    });
    if (result.outcome === 'created' && author.kind === 'reporter') {
      // The case's handlers are told (notifications/notifier.ts); a replayed post was told already.
      await recordCaseEventQuietly(store, request.log, {
        kind: 'reporter-message',
        companyId: ref.companyId,
        caseId: ref.caseId,
        caseBinding: ref.binding,
        lineId: found.caseCaseLineId,
      });
      request.server.notices.deliverSoon();
      // The reporter came back (Statistik's `returned`): the signed-in reporter's message counts too.
      await noteReturn(request.server.store, request.log, found);
    }
    if (result.outcome === 'key-reused' || result.outcome === 'full') return result;
    return { ...result, conversation: await conversationOf(store, found, reader, true) };
  });
  if (posted.outcome === 'key-reused') {
    throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.messageIdempotencyMismatch });
  }
  if (posted.outcome === 'full') {
    const detail = format(TEMPLATE_MESSAGES.conversationFull, { limit: posted.limit });
    throw new ApiProblem('validation', { detail, errors: { text: detail } });
  }
  return { ...posted.conversation, postedId: posted.id };
}
