/**
 * The disposal register (docs/product/retention.md#register): cases whose retention period ended,
 * entered by the retention scan after it deleted the gateway's own personal data of them, waiting for
 * the officer (type 1) to destroy them at the legacy and mark them here. No complaint number, no
 * reporter data: the officer opens the case at the legacy by its company and case id.
 */
import { type IdParams, idParams, messageReply } from '@wbs/shared/api/common';
import {
  type DisposalDestroyedRequest,
  type DisposalListQuery,
  disposalDestroyedRequest,
  disposalListQuery,
  disposalListReply,
  disposalScanReply,
  disposalSummary,
} from '@wbs/shared/api/retention';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem, notFound } from '../../errors.ts';
import { companyOptions } from '../../legacy/masters.ts';
import { caseStatusTable } from '../../legacy/reference.ts';
import { audit } from '../../logging.ts';
import { presentDisposal, presentScan } from '../../presenters/retention.ts';
import { markDestroyed, registerPage, registerSummary } from '../../retention/store.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';

const tags = ['disposals'];
const DEFAULT_PAGE_SIZE = 25;

/** Company and status names for the register's rows (the store keeps ids only). */
async function namesOf(request: FastifyRequest) {
  const [companies, statuses] = await Promise.all([
    companyOptions(request.legacy, 0),
    caseStatusTable(request.legacy),
  ]);
  return {
    company: new Map(companies.map((c) => [c.companyId, c.companyName])),
    status: new Map(statuses.map((s) => [s.id, s.name])),
  };
}

export default async function disposalRoutes(app: FastifyInstance) {
  app.get<{ Querystring: DisposalListQuery }>(
    '/disposals',
    {
      config: { policy: 'disposals:read' },
      schema: routeSchema({
        summary: 'Register pemusnahan',
        description:
          'Type 1 only. Cases whose retention period ended: `state=waiting` (overdue ones included: ' +
          'waiting more than DISPOSAL_GRACE_DAYS, 30, days) or `destroyed`; absent, every entry. Waiting ' +
          'entries oldest due first, destroyed ones newest first. `summary.waiting` counts every entry ' +
          'not yet destroyed (overdue ones included); `summary.overdue` those of them overdue.',
        tags,
        querystring: disposalListQuery,
        response: { 200: disposalListReply },
      }),
    },
    async (request) => {
      const { state, page = 1, size = DEFAULT_PAGE_SIZE } = request.query;
      const [result, summary] = await storeCall(request, async (store) => [
        await registerPage(store, { state, page, size }),
        await registerSummary(store),
      ]);
      const names =
        result.rows.length > 0 ? await namesOf(request) : { company: new Map(), status: new Map() };
      return { items: result.rows.map((row) => presentDisposal(row, names)), total: result.total, summary };
    },
  );

  app.get(
    '/disposals/summary',
    {
      config: { policy: 'disposals:read' },
      schema: routeSchema({
        summary: 'Ringkasan register pemusnahan',
        description:
          'Type 1 only. Entries not yet marked destroyed (`waiting`, overdue ones included) and those ' +
          'waiting more than 30 days (`overdue`): the landing screen’s warning.',
        tags,
        response: { 200: disposalSummary },
      }),
    },
    async (request) => {
      const { waiting, overdue } = await storeCall(request, (store) => registerSummary(store));
      return { waiting, overdue };
    },
  );

  app.post<{ Params: IdParams; Body: DisposalDestroyedRequest }>(
    '/disposals/:id/destroyed',
    {
      // The officer attests a destruction that cannot be undone: a fresh second factor first.
      config: { policy: 'disposals:manage', stepUp: true },
      schema: routeSchema({
        summary: 'Tandai laporan sudah dimusnahkan',
        description:
          'Type 1 only. The officer attests that the case was destroyed at the legacy, with an optional ' +
          'plain-text note (at most 500 characters). 404 for an unknown entry, 409 `already-destroyed` ' +
          'when it was marked before (the first mark stands). Step-up. Audited (`disposal-destroyed`).',
        tags,
        params: idParams,
        body: disposalDestroyedRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const user = request.session?.user;
      const note = request.body?.note ?? '';
      const result = await storeCall(request, (store) =>
        markDestroyed(store, request.params.id, {
          userId: user?.id ?? 0,
          name: user?.displayName ?? null,
          note: note === '' ? null : note,
        }),
      );
      if (result.outcome === 'missing') throw notFound();
      if (result.outcome !== 'marked') throw new ApiProblem('already-destroyed');
      audit(request, 'disposal-destroyed', {
        disposalId: request.params.id,
        companyId: result.companyId,
        caseId: result.caseId,
        withNote: note !== '',
      });
      return { message: UI_MESSAGES.disposalMarked };
    },
  );

  app.post(
    '/disposals/scan',
    {
      // A scan deletes, for good, the gateway's data of every case past its period: a fresh factor first.
      config: { policy: 'disposals:manage', stepUp: true },
      schema: routeSchema({
        summary: 'Periksa masa retensi sekarang',
        description:
          'Type 1 only. Runs one retention scan now, the same the nightly job runs (01:00 WIB): cases ' +
          'past their retention period lose the gateway’s personal data and enter the register. ' +
          '`purged`: cases whose gateway data was deleted; `registered`: cases entered in the register. ' +
          'One run is bounded; a long backlog continues at the next. Step-up. 409 `scan-running` while another ' +
          'scan runs (on any replica); 503 `legacy-unavailable` when the legacy’s status table cannot be read. Audited (`retention-scan`, and `retention-purged` per case).',
        tags,
        response: { 200: disposalScanReply },
      }),
    },
    async (request) => {
      const user = request.session?.user;
      const report = await storeCall(request, () =>
        request.server.retention.scan({
          legacy: request.legacy,
          by: {
            actor: {
              userId: user?.id ?? 0,
              userType: user?.userTypeId ?? 0,
              role: user?.role ?? null,
              companyId: user?.companyId ?? null,
              partnerId: user?.partnerId ?? null,
            },
            method: request.method,
            route: request.routeOptions.url ?? null,
          },
        }),
      );
      if (!report) throw new ApiProblem('scan-running');
      // Without the legacy's status table nothing could be judged: "0 cases" would tell the officer
      // that nothing is due when nothing was looked at.
      if (!report.finalsKnown) throw new ApiProblem('legacy-unavailable', { cause: 'status table unread' });
      audit(request, 'retention-scan', { purged: report.purged, registered: report.registered });
      return presentScan(report);
    },
  );
}
