/**
 * The anonymous tracker's proof for the store's routes (Pesan, identity-access history): every call
 * carries the complaint number and case password in its POST body and is checked exactly as
 * POST /tracking checks them: the legacy's own number + password lookup, attempt limits per
 * number and per client (the TRACKING_* settings; counters of their own, docs/decisions.md), and
 * every failure answered the same way no sooner than the tracking failure floor.
 *
 * POST /tracking (routes/tracking) still holds its own copy of these steps, left untouched while its
 * limits were being changed in parallel; it can call `trackerProof` instead (with name `tracking`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TrackingRequest } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { type LegacyCase, legacyCaseSchema } from '../legacy/case-schemas.ts';
import { audit } from '../logging.ts';
import { attemptLimiter } from './attempt-limits.ts';

/** Legacy answers meaning "no case for this number and password" (its code 0, -1 or a 404). */
const MISSES = new Set(['legacy-warning', 'legacy-error', 'not-found']);

const normaliseCaseNumber = (value: string) => value.trim().toUpperCase();

export type TrackerProof = (
  request: FastifyRequest,
  reply: FastifyReply,
  event: string,
  /** Number and password from elsewhere than a JSON body (a multipart upload's text parts). */
  proof?: TrackingRequest,
) => Promise<LegacyCase>;

/** One proof per registering plugin, counting attempts under `counters` (its own by default). */
export async function trackerProof(app: FastifyInstance, counters = 'tracking-store'): Promise<TrackerProof> {
  const settings = app.config.tracking;
  const limiter = await attemptLimiter(app, {
    name: counters,
    maxPerSubject: settings.maxPerNumber,
    maxPerClient: settings.maxPerClient,
    windowSeconds: settings.windowSeconds,
  });

  const padFailure = async (started: number) => {
    const floorMs = settings.failureFloorMs;
    if (floorMs <= 0) return;
    const elapsed = performance.now() - started;
    await sleep(Math.max(0, Math.max(1, Math.ceil(elapsed / floorMs)) * floorMs - elapsed));
  };

  return async (request, reply, event, proof = request.body as TrackingRequest) => {
    const started = performance.now();
    const caseNumber = normaliseCaseNumber(proof.caseNumber);
    try {
      await limiter.consume(request, reply, caseNumber);
    } catch (error) {
      audit(request, event, { outcome: 'rate-limited' });
      throw error;
    }
    let found: LegacyCase | null = null;
    try {
      const { data } = await request.legacy.call({
        name: 'WBSCase.track',
        method: 'POST',
        path: '/WBSCase/Whistleblower/byNumber',
        json: { caseNumber, password: proof.password },
        data: legacyCaseSchema,
        auth: null,
      });
      found = data;
    } catch (error) {
      if (!(error instanceof ApiProblem) || !MISSES.has(error.type)) throw error;
    }
    if (!found || normaliseCaseNumber(found.caseNumber) !== caseNumber) {
      await padFailure(started);
      audit(request, event, { outcome: 'not-found' });
      throw new ApiProblem('not-found', {
        detail: PROBLEM_MESSAGES.trackingFailed,
        severity: 'warning',
        messages: [PROBLEM_MESSAGES.trackingFailed],
      });
    }
    audit(request, event, { outcome: 'found' });
    return found;
  };
}
