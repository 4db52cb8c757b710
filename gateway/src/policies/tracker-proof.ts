/**
 * The anonymous tracker's proof: the complaint number and case password in a POST body, checked by
 * the legacy's own number + password lookup. POST /tracking and every tracker route of the store
 * (Pesan, identity-access history, added evidence) go through this one function, so they share one
 * set of counters: a guesser gains nothing by spreading guesses over several routes.
 *
 * - Per client: a fixed number of lookups per window (enumerating numbers).
 * - Per complaint number: a growing wait after a few failures (guessing one case's password gets
 *   slower without end); the owner's successful visit does not reset a guesser's back-off.
 * - Every failure (unknown number, wrong password, any legacy refusal) is the same 404 answered no
 *   sooner than the tracking failure floor, so neither the reply nor its timing tells them apart.
 */
import type { TrackingRequest } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { type LegacyCase, legacyCaseSchema } from '../legacy/case-schemas.ts';
import { audit } from '../logging.ts';
import { type Attempt, attemptLimiter, backoff, padFailure } from './attempt-limits.ts';

/** Legacy answers meaning "no case for this number and password" (its code 0, -1 or a 404). */
const MISSES = new Set(['legacy-warning', 'legacy-error', 'not-found']);

/** The complaint number as the legacy matches it (case-insensitive, no surrounding spaces). */
const normaliseCaseNumber = (value: string) => value.trim().toUpperCase();

const trackingFailed = () =>
  new ApiProblem('not-found', {
    detail: PROBLEM_MESSAGES.trackingFailed,
    severity: 'warning',
    messages: [PROBLEM_MESSAGES.trackingFailed],
  });

export type TrackerProof = (
  request: FastifyRequest,
  reply: FastifyReply,
  /** The audit event naming the route (`tracking`, `tracking-messages`…). */
  event: string,
  /** Number and password from elsewhere than a JSON body (a multipart upload's text parts). */
  proof?: TrackingRequest,
) => Promise<LegacyCase>;

/** Builds the proof; each registering plugin gets one, all counting in the same counters. */
export async function trackerProof(app: FastifyInstance): Promise<TrackerProof> {
  const settings = app.config.tracking;
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

  return async (request, reply, event, proof = request.body as TrackingRequest) => {
    const started = performance.now();
    const caseNumber = normaliseCaseNumber(proof.caseNumber);
    let attempt: Attempt;
    try {
      await perClient.consume(request, reply, '');
      attempt = await perNumber.begin(request, reply, caseNumber);
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
      audit(request, event, { outcome: 'not-found' });
      throw trackingFailed();
    }
    // Uncounted, yet the number's back-off stays: the owner's visit must not reset a guesser's.
    await attempt.cancel();
    audit(request, event, { outcome: 'found' });
    return found;
  };
}
