/**
 * E-mail notice of a reply, for the reporter (docs/product/notifications.md#pelapor):
 * - the tracker: `POST /tracking/reporter-notices` (ask), `/status`, `/stop`, each proven by number and
 *   password in the body exactly as every tracker route (tracker-proof.ts: the same counters, the same
 *   404 for a wrong password and an unknown number);
 * - the signed-in pelapor (type 6): `/cases/{id}/reporter-notices`, its own cases only (the case scope);
 * - the links of the mails: `POST /reporter-notices/confirm` and `/opt-out`, the token in the body
 *   (the page read it from the URL fragment, which no server and no log ever sees).
 * Asking answers the same 202 whatever came of it (queued, or a limit met), no sooner than the
 * tracking failure floor, so neither the answer nor its time tells anything about the address. No
 * route here, or anywhere, gives the address to staff; the reporter sees it masked.
 */
import type { TrackingRequest } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import { trackerConversationRequest } from '@wbs/shared/api/messages';
import {
  type ReporterNoticeRequest,
  type ReporterNoticeTokenRequest,
  reporterNoticeConfirmReply,
  reporterNoticeRequest,
  reporterNoticeRequestedReply,
  reporterNoticeStatusReply,
  reporterNoticeTokenRequest,
  type TrackerReporterNoticeRequest,
  trackerReporterNoticeRequest,
} from '@wbs/shared/api/reporter-notices';
import { REPORTER_NOTICE_MESSAGES as M } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { caseStatusTable } from '../../legacy/reference.ts';
import { audit } from '../../logging.ts';
import { padFailure } from '../../policies/attempt-limits.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import { reporterNoticeDeps } from '../../reporter-notices/context.ts';
import { requestReporterNotices } from '../../reporter-notices/notify.ts';
import {
  confirmByToken,
  finalStatusIdsOf,
  observeCaseStatus,
  optOutByToken,
  stopForCase,
  subscriptionStatus,
} from '../../reporter-notices/store.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';
import type { ReporterAudience } from '../../store/schema.ts';

const TAGS = ['reporter-notices'];
const NEUTRAL =
  'Selalu 202 dengan teks yang sama, baik tautan konfirmasi diantrekan maupun batas tercapai (satu e-mail ' +
  'konfirmasi per laporan per jam, satu per alamat per hari), dan tidak lebih cepat dari batas waktu ' +
  'kegagalan pelacakan: jawabannya tidak mengungkap apa pun tentang alamat. 503 bila antrean e-mail menolak.';

/** Whether the case's status is final (absent from the legacy's open list); null when unknown. */
async function finalStatus(request: FastifyRequest, found: LegacyCase): Promise<boolean | null> {
  if (found.caseCaseStatusId === null) return null;
  try {
    const table = await caseStatusTable(request.legacy);
    if (!table.some((status) => status.id === found.caseCaseStatusId)) return null;
    return finalStatusIdsOf(table).includes(found.caseCaseStatusId);
  } catch {
    // The status table is not this route's business: the daily clean-up also reads the case index.
    return null;
  }
}

export default async function reporterNoticeRoutes(app: FastifyInstance) {
  const proveTracker = await trackerProof(app);
  const deps = reporterNoticeDeps(app);
  const floorMs = app.config.tracking.failureFloorMs;

  const statusOf = async (request: FastifyRequest, found: LegacyCase) => {
    const final = await finalStatus(request, found);
    return storeCall(request, async (store) => {
      const ref = store.cases.bind(found);
      const now = new Date();
      if (final !== null) await observeCaseStatus(store, ref, final, now);
      return subscriptionStatus(store, ref, now);
    });
  };

  const ask = async (
    request: FastifyRequest,
    reply: FastifyReply,
    found: LegacyCase,
    address: string,
    audience: ReporterAudience,
  ) => {
    const started = performance.now();
    const final = await finalStatus(request, found);
    const outcome = await storeCall(request, async (store) => {
      const result = await requestReporterNotices(deps, store, found, { address, audience });
      if (final !== null) await observeCaseStatus(store, store.cases.bind(found), final, new Date());
      return result;
    });
    if (outcome === 'unavailable') {
      throw new ApiProblem('busy', { detail: M.unavailable, retryAfter: 60 });
    }
    // Queued or limited: one answer, one time.
    await padFailure(started, floorMs);
    return reply.code(202).send({ message: M.requested });
  };

  const stop = async (request: FastifyRequest, found: LegacyCase) => {
    await storeCall(request, (store) => stopForCase(store, store.cases.bind(found)));
    return { confirmed: null, pending: null };
  };

  app.post<{ Body: TrackerReporterNoticeRequest }>(
    '/tracking/reporter-notices',
    {
      config: { policy: 'reporter-notices:use' },
      schema: routeSchema({
        summary: 'Minta pemberitahuan e-mail (Pantau Laporan)',
        description:
          'Public: the tracker, proven by number and password as in POST /tracking (same 404, same attempt ' +
          'limits), asks that an address be told of replies. A confirmation link goes to the address; nothing ' +
          `else is mailed before it is opened. A new address replaces the old one once confirmed. ${NEUTRAL}`,
        tags: TAGS,
        body: trackerReporterNoticeRequest,
        response: { 202: reporterNoticeRequestedReply },
      }),
    },
    async (request, reply) => {
      const found = await proveTracker(request, reply, 'tracking-reporter-notices');
      return ask(request, reply, found, request.body.email, 'tracker');
    },
  );

  app.post<{ Body: TrackingRequest }>(
    '/tracking/reporter-notices/status',
    {
      config: { policy: 'reporter-notices:use' },
      schema: routeSchema({
        summary: 'Status pemberitahuan e-mail (Pantau Laporan)',
        description:
          'Public: the tracked case’s notice addresses, masked (b***@e***.com): the confirmed one and one ' +
          'waiting for its link. Proven by number and password as in POST /tracking.',
        tags: TAGS,
        body: trackerConversationRequest,
        response: { 200: reporterNoticeStatusReply },
      }),
    },
    async (request, reply) =>
      statusOf(request, await proveTracker(request, reply, 'tracking-reporter-notices-status')),
  );

  app.post<{ Body: TrackingRequest }>(
    '/tracking/reporter-notices/stop',
    {
      config: { policy: 'reporter-notices:use' },
      schema: routeSchema({
        summary: 'Berhenti pemberitahuan e-mail (Pantau Laporan)',
        description:
          'Public: deletes every notice address of the tracked case (confirmed and waiting). Proven by number ' +
          'and password as in POST /tracking.',
        tags: TAGS,
        body: trackerConversationRequest,
        response: { 200: reporterNoticeStatusReply },
      }),
    },
    async (request, reply) =>
      stop(request, await proveTracker(request, reply, 'tracking-reporter-notices-stop')),
  );

  app.get<{ Params: IdParams }>(
    '/cases/:id/reporter-notices',
    {
      config: { policy: 'reporter-notices:own' },
      schema: routeSchema({
        summary: 'Status pemberitahuan e-mail',
        description:
          'The signed-in reporter (type 6), own cases only: the notice addresses, masked. No staff route ' +
          'returns them in any form.',
        tags: TAGS,
        params: idParams,
        response: { 200: reporterNoticeStatusReply },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      audit(request, 'reporter-notices-read', { resource: 'case', resourceId: found.caseId });
      return statusOf(request, found);
    },
  );

  app.post<{ Params: IdParams; Body: ReporterNoticeRequest }>(
    '/cases/:id/reporter-notices',
    {
      config: { policy: 'reporter-notices:own' },
      schema: routeSchema({
        summary: 'Minta pemberitahuan e-mail',
        description: `The signed-in reporter (type 6), own cases only, asks that an address be told of replies. ${NEUTRAL}`,
        tags: TAGS,
        params: idParams,
        body: reporterNoticeRequest,
        response: { 202: reporterNoticeRequestedReply },
      }),
    },
    async (request, reply) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      audit(request, 'reporter-notices-ask', { resource: 'case', resourceId: found.caseId });
      return ask(request, reply, found, request.body.email, 'account');
    },
  );

  app.delete<{ Params: IdParams }>(
    '/cases/:id/reporter-notices',
    {
      config: { policy: 'reporter-notices:own' },
      schema: routeSchema({
        summary: 'Berhenti pemberitahuan e-mail',
        description:
          'The signed-in reporter (type 6), own cases only: deletes every notice address of the case.',
        tags: TAGS,
        params: idParams,
        response: { 200: reporterNoticeStatusReply },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      audit(request, 'reporter-notices-stop', { resource: 'case', resourceId: found.caseId });
      return stop(request, found);
    },
  );

  app.post<{ Body: ReporterNoticeTokenRequest }>(
    '/reporter-notices/confirm',
    {
      config: { policy: 'reporter-notices:use' },
      schema: routeSchema({
        summary: 'Konfirmasi alamat pemberitahuan',
        description:
          'Public: the token of a confirmation link (read by the page from the URL fragment). Single use, ' +
          'valid 48 hours; an unknown, used, replaced or expired token is 404 with one text.',
        tags: TAGS,
        body: reporterNoticeTokenRequest,
        response: { 200: reporterNoticeConfirmReply },
      }),
    },
    async (request) => {
      const confirmed = await storeCall(request, (store) =>
        confirmByToken(store, request.body.token, new Date()),
      );
      if (!confirmed) throw new ApiProblem('not-found', { detail: M.confirmFailed });
      return { confirmed: confirmed.masked };
    },
  );

  app.post<{ Body: ReporterNoticeTokenRequest }>(
    '/reporter-notices/opt-out',
    {
      config: { policy: 'reporter-notices:use' },
      schema: routeSchema({
        summary: 'Berhenti pemberitahuan (tautan e-mail)',
        description:
          'Public: the token of the opt-out link every notice carries; deletes that address. The same answer ' +
          'whether or not the token named an address.',
        tags: TAGS,
        body: reporterNoticeTokenRequest,
        response: { 200: reporterNoticeRequestedReply },
      }),
    },
    async (request) => {
      await storeCall(request, (store) => optOutByToken(store, request.body.token));
      return { message: M.optOutDone };
    },
  );
}
