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
import { setTimeout as sleep } from 'node:timers/promises';
import { caseDetailSchema, type TrackingRequest, trackingRequest } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { type LegacyCase, legacyCaseSchema } from '../../legacy/case-schemas.ts';
import { audit } from '../../logging.ts';
import { attemptLimiter } from '../../policies/attempt-limits.ts';
import { presentCaseDetail, TRACKER_AUDIENCE } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';

/** The complaint number as the legacy matches it (case-insensitive, no surrounding spaces). */
const normaliseCaseNumber = (value: string) => value.trim().toUpperCase();

/** Legacy answers meaning "no case for this number and password" (its code 0, -1 or a 404). */
const MISSES = new Set(['legacy-warning', 'legacy-error', 'not-found']);

/** Waits until `floorMs` (or the next multiple of it) has passed since `started`. */
async function padFailure(started: number, floorMs: number): Promise<void> {
  if (floorMs <= 0) return;
  const elapsed = performance.now() - started;
  const target = Math.max(1, Math.ceil(elapsed / floorMs)) * floorMs;
  await sleep(Math.max(0, target - elapsed));
}

const trackingFailed = () =>
  new ApiProblem('not-found', {
    detail: PROBLEM_MESSAGES.trackingFailed,
    severity: 'warning',
    messages: [PROBLEM_MESSAGES.trackingFailed],
  });

export default async function trackingRoutes(app: FastifyInstance) {
  const settings = app.config.tracking;
  const limiter = await attemptLimiter(app, {
    name: 'tracking',
    maxPerSubject: settings.maxPerNumber,
    maxPerClient: settings.maxPerClient,
    windowSeconds: settings.windowSeconds,
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
          'Attempts are limited per complaint number and per client (429 `rate-limited` with `retry-after`).',
        tags: ['tracking'],
        body: trackingRequest,
        response: { 200: caseDetailSchema },
      }),
    },
    async (request, reply) => {
      const started = performance.now();
      const caseNumber = normaliseCaseNumber(request.body.caseNumber);
      try {
        await limiter.consume(request, reply, caseNumber);
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
        if (!(error instanceof ApiProblem) || !MISSES.has(error.type)) throw error;
      }
      if (!found || normaliseCaseNumber(found.caseNumber) !== caseNumber) {
        await padFailure(started, settings.failureFloorMs);
        audit(request, 'tracking', { outcome: 'not-found' });
        throw trackingFailed();
      }
      audit(request, 'tracking', { outcome: 'found' });
      return presentCaseDetail(found, TRACKER_AUDIENCE);
    },
  );
}
