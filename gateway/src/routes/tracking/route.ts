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
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { type LegacyCase, legacyCaseSchema } from '../../legacy/case-schemas.ts';
import { audit } from '../../logging.ts';
import { attemptLimiter, backoff, padFailure } from '../../policies/attempt-limits.ts';
import { presentCaseDetail, TRACKER_AUDIENCE } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';

/** The complaint number as the legacy matches it (case-insensitive, no surrounding spaces). */
const normaliseCaseNumber = (value: string) => value.trim().toUpperCase();

/** Legacy answers meaning "no case for this number and password" (its code 0, -1 or a 404). */
const MISSES = new Set(['legacy-warning', 'legacy-error', 'not-found']);

const trackingFailed = () =>
  new ApiProblem('not-found', {
    detail: PROBLEM_MESSAGES.trackingFailed,
    severity: 'warning',
    messages: [PROBLEM_MESSAGES.trackingFailed],
  });

export default async function trackingRoutes(app: FastifyInstance) {
  const settings = app.config.tracking;
  // Per client: a fixed number of lookups per window (enumerating numbers). Per complaint number: a
  // growing wait after a few failures, so guessing one case's password gets slower without end.
  const perClient = await attemptLimiter(app, {
    name: 'tracking',
    maxPerClient: settings.maxPerClient,
    windowSeconds: settings.windowSeconds,
  });
  const perNumber = backoff(app, {
    name: 'tracking-number',
    free: settings.maxPerNumber,
    baseSeconds: settings.backoffBaseSeconds,
    maxSeconds: settings.backoffMaxSeconds,
    memorySeconds: Math.max(settings.windowSeconds, settings.backoffMaxSeconds * 2),
  });

  app.post<{ Body: TrackingRequest }>(
    '/tracking',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Pantau Laporan',
        description:
          'Public. The case detail with every log note masked (`**********`, `noteHidden: true`, no author, ' +
          'no log attachment). Unknown number and wrong password: the same 404 after the same minimum time. ' +
          'Attempts are limited per client, and per complaint number with a wait that grows with each failure ' +
          '(429 `rate-limited` with `retry-after`).',
        tags: ['tracking'],
        body: trackingRequest,
        response: { 200: caseDetailSchema },
      }),
    },
    async (request, reply) => {
      const started = performance.now();
      const caseNumber = normaliseCaseNumber(request.body.caseNumber);
      let attempt: Awaited<ReturnType<typeof perNumber.begin>>;
      try {
        await perClient.consume(request, reply, '');
        attempt = await perNumber.begin(request, reply, caseNumber);
      } catch (error) {
        audit(request, 'tracking', { outcome: 'rate-limited' });
        throw error;
      }
      let found: LegacyCase | null = null;
      try {
        const { data } = await request.legacy.call({
          name: 'WBSCase.track',
          method: 'POST',
          path: '/WBSCase/Whistleblower/byNumber',
          json: { caseNumber, password: request.body.password },
          data: legacyCaseSchema,
          // A signed-in user tracking a case is a tracker too: its own token is never sent along.
          auth: null,
        });
        found = data;
      } catch (error) {
        if (!(error instanceof ApiProblem) || !MISSES.has(error.type)) {
          await attempt.cancel(); // a legacy that is down is nobody's failed guess
          throw error;
        }
      }
      if (!found || normaliseCaseNumber(found.caseNumber) !== caseNumber) {
        await padFailure(started, settings.failureFloorMs);
        audit(request, 'tracking', { outcome: 'not-found' });
        throw trackingFailed();
      }
      // Uncounted, yet the number's back-off stays: the owner's visit must not reset a guesser's.
      await attempt.cancel();
      audit(request, 'tracking', { outcome: 'found' });
      return presentCaseDetail(found, TRACKER_AUDIENCE);
    },
  );
}
