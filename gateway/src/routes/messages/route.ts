/**
 * Pesan: the conversation between the case handlers and the reporter, kept in the gateway's own
 * store (the legacy has no place for it) and never mixed with activity-log notes.
 *
 * - Staff and the signed-in reporter (type 6): `/cases/{id}/messages`, scope-checked by
 *   `loadCaseInScope` like every case route. Whoever may read the case reads; whoever may write
 *   activity logs writes, and the reporter writes on its own cases.
 * - The anonymous tracker: `POST /tracking/conversation` (read) and `POST /tracking/messages`
 *   (write), number and password in the body on every call (tracker-proof.ts).
 * The case list carries each row's unread marks itself (`unreadFromReporter`), so they follow the
 * list's scope exactly.
 */

import type { TrackingRequest } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import {
  conversationReply,
  type PostMessageRequest,
  postMessageReply,
  postMessageRequest,
  type TrackerPostMessageRequest,
  trackerConversationRequest,
  trackerPostMessageRequest,
} from '@wbs/shared/api/messages';
import { USER_TYPES } from '@wbs/shared/constants';
import { can } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forgetClockInputs } from '../../clocks/service.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { floodLimiter } from '../../policies/flood-limits.ts';
import { subjectOf } from '../../policies/plugin.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import type { Reader } from '../../presenters/messages.ts';
import { reporterNoticeDeps } from '../../reporter-notices/context.ts';
import { noteHandlerMessage } from '../../reporter-notices/notify.ts';
import { routeSchema } from '../../schema.ts';
import type { Author } from '../../store/messages.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { postToConversation, readConversation } from './conversation.ts';

const TAGS = ['messages'];
const IDEMPOTENCY_NOTE =
  'Header opsional `Idempotency-Key` (8–128 karakter A-Z a-z 0-9 _ -): kiriman ulang dengan kunci dan isi ' +
  'yang sama disimpan sekali dan menjawab percakapan yang sama; kunci yang sama dengan isi lain: 409. ' +
  'Batas kiriman per klien, per laporan dan pihak (pelapor atau penanganan), dan untuk semua: 429 dengan ' +
  '`Retry-After`; tiap pihak paling banyak 500 pesan per laporan (400).';

const isReporter = (request: FastifyRequest) => request.session?.user.userTypeId === USER_TYPES.WHISTLEBLOWER;

/** The signed-in caller as a message author: the reporter is never identified in the store. */
function authorOf(request: FastifyRequest): Author {
  const user = request.session?.user;
  if (!user || user.userTypeId === USER_TYPES.WHISTLEBLOWER) return { kind: 'reporter' };
  return { kind: 'handler', userId: user.id, userType: user.userTypeId, name: user.displayName };
}

/** What the per-case flood counter counts: one side of one case incarnation (HMAC'd by the limiter). */
const floodSubject = (found: LegacyCase, side: Author['kind']) =>
  `${found.caseCompanyId}|${found.caseId}|${found.caseNumber}|${side}`;

export default async function messageRoutes(app: FastifyInstance) {
  const proveTracker = await trackerProof(app);
  const flood = await floodLimiter(app, { name: 'messages', ...app.config.messages });
  const reporterNotices = reporterNoticeDeps(app);

  app.get<{ Params: IdParams }>(
    '/cases/:id/messages',
    {
      config: { policy: 'case-messages:read' },
      schema: routeSchema({
        summary: 'Pesan laporan',
        description:
          'The conversation of a case in the caller’s scope, oldest first. Staff see each handler’s name and ' +
          'role; the reporter (type 6, own cases) sees every handler as “Tim Penanganan WBS”. `isNew` marks ' +
          'what the caller’s side has not seen; reading clears it (for staff: only those who may write).',
        tags: TAGS,
        params: idParams,
        response: { 200: conversationReply },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      const reader: Reader = isReporter(request) ? 'reporter' : 'staff';
      // A reader who cannot answer (type 4/5 without the role) leaves the mark for those who can.
      const marks = reader === 'reporter' || can(subjectOf(request), 'case-messages:write');
      audit(request, 'messages-read', { resource: 'case', resourceId: found.caseId });
      const conversation = await readConversation(request, found, reader, marks);
      // A handler's read clears the case list's unread mark: the list must not show the old one.
      if (marks && reader === 'staff') forgetClockInputs(request.clocks, found.caseCompanyId, found.caseId);
      return conversation;
    },
  );

  app.post<{ Params: IdParams; Body: PostMessageRequest }>(
    '/cases/:id/messages',
    {
      config: { policy: 'case-messages:write' },
      schema: routeSchema({
        idempotent: true,
        summary: 'Kirim pesan',
        description: `Handlers who may write activity logs, and the reporter (type 6) on its own cases. ${IDEMPOTENCY_NOTE}`,
        tags: TAGS,
        params: idParams,
        body: postMessageRequest,
        response: { 201: postMessageReply },
      }),
    },
    async (request, reply) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      const author = authorOf(request);
      await flood.consume(request, reply, idempotencyKeyOf(request), floodSubject(found, author.kind));
      const result = await postToConversation(request, found, author, request.body.text);
      audit(request, 'message-post', {
        resource: 'case',
        resourceId: found.caseId,
        messageId: result.postedId,
      });
      // A handler's message may acknowledge or answer the report, a reporter's adds an unread mark: the
      // list must not show the old clock or mark.
      forgetClockInputs(request.clocks, found.caseCompanyId, found.caseId);
      // A reply the reporter can read: their e-mail notice, if they asked for one. Not awaited, and it
      // never throws: the handler's post neither waits for nor fails with it.
      if (author.kind === 'handler') void noteHandlerMessage(reporterNotices, found, result.postedId);
      return reply.code(201).send(result);
    },
  );

  app.post<{ Body: TrackingRequest }>(
    '/tracking/conversation',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Pesan laporan (Pantau Laporan)',
        description:
          'Public: the conversation of the tracked case, proven by number and password as in POST /tracking ' +
          '(same 404 after the same minimum time, attempt limits with 429). Handlers appear as “Tim Penanganan ' +
          'WBS”; `isNew` marks replies new since the last visit, which this call then clears.',
        tags: TAGS,
        body: trackerConversationRequest,
        response: { 200: conversationReply },
      }),
    },
    async (request, reply) => {
      const found = await proveTracker(request, reply, 'tracking-conversation');
      return readConversation(request, found, 'reporter', true);
    },
  );

  app.post<{ Body: TrackerPostMessageRequest }>(
    '/tracking/messages',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        idempotent: true,
        summary: 'Kirim pesan (Pantau Laporan)',
        description: `Public: the tracker answers, proven by number and password as in POST /tracking. ${IDEMPOTENCY_NOTE}`,
        tags: TAGS,
        body: trackerPostMessageRequest,
        response: { 201: postMessageReply },
      }),
    },
    async (request, reply) => {
      const found = await proveTracker(request, reply, 'tracking-message');
      await flood.consume(request, reply, idempotencyKeyOf(request), floodSubject(found, 'reporter'));
      const result = await postToConversation(request, found, { kind: 'reporter' }, request.body.text);
      forgetClockInputs(request.clocks, found.caseCompanyId, found.caseId);
      return reply.code(201).send(result);
    },
  );
}
