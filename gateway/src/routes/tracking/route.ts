/**
 * POST /tracking (Pantau Laporan, public): the reporter's own case by complaint number and case
 * password, with every log note masked in the gateway. The number and password travel only in this
 * POST body; no log line carries the body, and the client address is used only (hashed) as a
 * rate-limit key.
 *
 * An unknown number and a wrong password get the same reply in the same time: every failed lookup is
 * answered no sooner than the configured floor (rounded up to a multiple of it, so even a slow legacy
 * reply does not tell the two apart).
 */
import { caseDetailSchema, type TrackingRequest, trackingRequest } from '@wbs/shared/api/cases';
import type { FastifyInstance } from 'fastify';
import { clockOfCase } from '../../clocks/service.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import { presentCaseDetail, TRACKER_AUDIENCE } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';

export default async function trackingRoutes(app: FastifyInstance) {
  const proveTracker = await trackerProof(app);

  app.post<{ Body: TrackingRequest }>(
    '/tracking',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Pantau Laporan',
        description:
          'Public. The case detail with every log note masked (`**********`, `noteHidden: true`, no author, ' +
          'no log attachment), with its handling clock (`handling`: by when the reporter hears back). Unknown number and wrong password: the same 404 after the same minimum time. ' +
          'Failures are limited per client, and per complaint number with a wait that grows with each failure ' +
          '(429 `rate-limited` with `retry-after`); a lookup that finds the case is never counted, and lookups ' +
          'in parallel wait for each other rather than refuse. The counters are shared with every other tracker route.',
        tags: ['tracking'],
        body: trackingRequest,
        response: { 200: caseDetailSchema },
      }),
    },
    async (request, reply) => {
      const found = await proveTracker(request, reply, 'tracking');
      return presentCaseDetail(found, TRACKER_AUDIENCE, false, await clockOfCase(request.clocks, found));
    },
  );
}
