/**
 * Pesan: the conversation between the case handlers and the reporter, kept in the gateway's own
 * store (the legacy has no place for it) and never mixed with activity-log notes.
 *
 * - Staff and the signed-in reporter (type 6): `/cases/{id}/messages`, scope-checked by
 *   `loadCaseInScope` like every case route. Whoever may read the case reads; whoever may write
 *   activity logs writes, and the reporter writes on its own cases.
 * - The anonymous tracker: `POST /tracking/conversation` (read) and `POST /tracking/messages`
 *   (write), number and password in the body on every call (tracker-proof.ts).
 * - `GET /cases/message-marks`: which cases of a list page have reporter messages no handler has
 *   read yet.
 */

import type { TrackingRequest } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import {
  conversationReply,
  type MessageMarksQuery,
  messageMarksQuery,
  messageMarksReply,
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
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { subjectOf } from '../../policies/plugin.ts';
import { companyInScope } from '../../policies/scope.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import type { Reader } from '../../presenters/messages.ts';
import { routeSchema } from '../../schema.ts';
import type { Author } from '../../store/messages.ts';
import { unreadFromReporter } from '../../store/messages.ts';
import { storeCall } from '../../store/plugin.ts';
import { caseRefOf, postToConversation, readConversation } from './conversation.ts';

const TAGS = ['messages'];
const IDEMPOTENCY_NOTE =
  'Header opsional `Idempotency-Key` (8–128 karakter A-Z a-z 0-9 _ -): kiriman ulang dengan kunci dan isi ' +
  'yang sama disimpan sekali dan menjawab percakapan yang sama; kunci yang sama dengan isi lain: 409.';

const isReporter = (request: FastifyRequest) => request.session?.user.userTypeId === USER_TYPES.WHISTLEBLOWER;

/** The signed-in caller as a message author: the reporter is never identified in the store. */
function authorOf(request: FastifyRequest): Author {
  const user = request.session?.user;
  if (!user || user.userTypeId === USER_TYPES.WHISTLEBLOWER) return { kind: 'reporter' };
  return { kind: 'handler', userId: user.id, userType: user.userTypeId, name: user.displayName };
}

export default async function messageRoutes(app: FastifyInstance) {
  const proveTracker = await trackerProof(app);

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
      const found = await loadCaseInScope(request, request.params.id);
      const reader: Reader = isReporter(request) ? 'reporter' : 'staff';
      // A reader who cannot answer (type 4/5 without the role) leaves the mark for those who can.
      const marks = reader === 'reporter' || can(subjectOf(request), 'case-messages:write');
      audit(request, 'messages-read', { resource: 'case', resourceId: found.caseId });
      return readConversation(request, caseRefOf(found), reader, marks);
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
      const found = await loadCaseInScope(request, request.params.id);
      const result = await postToConversation(
        request,
        caseRefOf(found),
        authorOf(request),
        request.body.text,
      );
      audit(request, 'message-post', {
        resource: 'case',
        resourceId: found.caseId,
        messageId: result.postedId,
      });
      // A handler's message may acknowledge or answer the report: the list must not show the old clock.
      forgetClockInputs(request, found.caseCompanyId, found.caseId);
      return reply.code(201).send(result);
    },
  );

  app.get<{ Querystring: MessageMarksQuery }>(
    '/cases/message-marks',
    {
      config: { policy: 'case-messages:marks' },
      schema: routeSchema({
        summary: 'Tanda pesan belum dibaca',
        description:
          'For one page of the case list (`caseIds`, at most 100, of one company in the caller’s scope): the ' +
          'cases with messages from the reporter that no handler has read yet. Cases without any are left out.',
        tags: TAGS,
        querystring: messageMarksQuery,
        response: { 200: messageMarksReply },
      }),
    },
    async (request) => {
      const companyId = await companyInScope(request, request.query.companyId);
      const rows = await storeCall(request, (store) =>
        unreadFromReporter(store, companyId, request.query.caseIds),
      );
      return { items: rows.map((row) => ({ caseId: row.caseId, unreadFromReporter: row.unread })) };
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
      return readConversation(request, caseRefOf(found), 'reporter', true);
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
      const result = await postToConversation(
        request,
        caseRefOf(found),
        { kind: 'reporter' },
        request.body.text,
      );
      return reply.code(201).send(result);
    },
  );
}
