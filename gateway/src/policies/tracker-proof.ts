/**
 * The anonymous tracker's proof: the complaint number and case password in a POST body, checked by
 * the legacy's own number + password lookup. POST /tracking and every tracker route of the store
 * (Pesan, identity-access history, added evidence) go through this one function, so they share one
 * set of counters: a guesser gains nothing by spreading guesses over several routes.
 *
 * Only FAILURES are counted, never a lookup that found the case: the tracked view loads the case,
 * the conversation and the identity history at once, and a reporter reading and answering messages
 * must never be refused because of its own right answers (docs/adr/0002-tracking-attempt-limits.md).
 * - Per client: a fixed number of failures per window (enumerating numbers).
 * - Per complaint number: a growing wait after a few failures (guessing one case's password gets
 *   slower without end); the owner's successful visit does not reset a guesser's back-off.
 * - Every failure (unknown number, wrong password, any legacy refusal) is the same 404 answered no
 *   sooner than the tracking failure floor, so neither the reply nor its timing tells them apart.
 * Each lookup holds a place in both counters until the legacy answered (failureLimiter), so a burst of
 * parallel guesses gets no further than the same guesses one after the other; a lookup finding the
 * places held by lookups still running waits for them instead of being refused.
 */
import type { TrackingRequest } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { noteReturn } from '../insights/returns.ts';
import type { LegacyCase } from '../legacy/case-schemas.ts';
import { trackedCase } from '../legacy/cases.ts';
import { audit } from '../logging.ts';
import { clientKey, failureLimiter, type Place, padFailure } from './attempt-limits.ts';

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
  // A lookup holds its places through its legacy call (bounded) and the failure padding.
  const holdMs = app.config.legacyTimeoutMs + settings.failureFloorMs;
  const perClient = failureLimiter(app, {
    name: 'tracking-client',
    free: settings.maxPerClient,
    memorySeconds: settings.windowSeconds,
    holdMs,
  });
  const perNumber = failureLimiter(app, {
    name: 'tracking-number',
    free: settings.maxPerNumber,
    memorySeconds: Math.max(settings.windowSeconds, settings.backoffMaxSeconds * 2),
    backoff: { baseSeconds: settings.backoffBaseSeconds, maxSeconds: settings.backoffMaxSeconds },
    holdMs,
  });

  return async (request, reply, event, proof = request.body as TrackingRequest) => {
    const started = performance.now();
    const caseNumber = normaliseCaseNumber(proof.caseNumber);
    let client: Place | undefined;
    let number: Place;
    try {
      client = await perClient.take(request, reply, clientKey(request));
      number = await perNumber.take(request, reply, caseNumber);
    } catch (error) {
      // A guess refused at its number counts against its client like a failed one: hammering a
      // number under back-off uses up the client's allowance as it always did.
      await client?.failed();
      audit(request, event, { outcome: 'rate-limited' });
      throw error;
    }
    const places = [client, number];
    let found: LegacyCase | null;
    try {
      found = await trackedCase(request.legacy, caseNumber, proof.password);
    } catch (error) {
      // A legacy that is down is nobody's failed guess.
      await Promise.all(places.map((place) => place.release()));
      throw error;
    }
    if (!found || normaliseCaseNumber(found.caseNumber) !== caseNumber) {
      // The places turn into failures only when the 404 leaves: a guess waiting for them learns
      // nothing earlier than the guesser does (the floor hides the legacy's own timing).
      await padFailure(started, settings.failureFloorMs);
      await Promise.all(places.map((place) => place.failed()));
      audit(request, event, { outcome: 'not-found' });
      throw trackingFailed();
    }
    // Given back, yet the number's back-off stays: the owner's visit must not reset a guesser's.
    await Promise.all(places.map((place) => place.release()));
    audit(request, event, { outcome: 'found' });
    // The reporter came back (Statistik's `returned`): a fact of the case, never of the client.
    await noteReturn(app.store, request.log, found);
    return found;
  };
}
