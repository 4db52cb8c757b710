/**
 * Limits of the routes that can be guessed at: sign-in (username + password), the current-password
 * check of a password change, tracking (complaint number + password) and forgot-password (e-mail).
 * Counters live in `app.keyStore` (redis.ts): in Redis when configured (shared by every replica and kept
 * across restarts), else in process memory (a restart forgets them).
 *
 * Four building blocks:
 * - `attemptLimiter`: a fixed number of attempts per subject and per client in a window.
 * - `failureLimiter`: failures only, never successes (the tracker's proof): a fixed number per window,
 *   optionally followed by a growing back-off. Each attempt holds a place (one atomic step, so
 *   parallel guesses cannot slip past) until its answer: a failure keeps it as a failure, a success
 *   gives it back. An attempt finding every place held by attempts still running WAITS for them
 *   instead of being refused, so parallel right answers never refuse each other.
 * - `backoff`: a growing wait per key after some free failures. Each attempt is counted BEFORE the
 *   legacy is asked (one atomic increment, so parallel guesses cannot slip past) and a success takes
 *   it back: only failures remain counted.
 * - `signInGuard`: the sign-in design of docs/adr/0008-sign-in-limits-and-device-token.md: back-off per
 * username +
 *   client, a ceiling of failures per username after which unknown devices get one attempt per few
 *   seconds (slowed, never blocked; a browser that signed in as that user before is exempt), and a
 *   cap of failures per client across usernames.
 *
 * Keys are HMACs (keyed with the session secret, the same on every replica) of the subject and of
 * the client address: neither is ever stored or logged in clear.
 */
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignInSettings } from '../config.ts';
import { ApiProblem } from '../errors.ts';

export type AttemptRule = {
  /** Names the counters (`{RATE_LIMIT_NAMESPACE}:{name}:…`) and the log lines. */
  name: string;
  /** Omitted: only the client is counted. */
  maxPerSubject?: number;
  maxPerClient: number;
  windowSeconds: number;
};

export type AttemptLimiter = {
  /** Counts one attempt for this client and subject; throws 429 `rate-limited` when over a limit. */
  consume(request: FastifyRequest, reply: FastifyReply, subject: string): Promise<void>;
};

export type BackoffRule = {
  name: string;
  /** Failures allowed before any wait. */
  free: number;
  /** Wait after the first failure beyond the free ones; doubles with each further failure. */
  baseSeconds: number;
  maxSeconds: number;
  /** How long failures are remembered after the first one. */
  memorySeconds: number;
};

/** One counted attempt: `succeeded()` takes it back and clears the back-off; `cancel()` only uncounts it. */
export type Attempt = { succeeded(): Promise<void>; cancel(): Promise<void> };

export type Backoff = {
  begin(request: FastifyRequest, reply: FastifyReply, key: string): Promise<Attempt>;
};

export type FailureRule = {
  /** Names the counters (`{RATE_LIMIT_NAMESPACE}:{name}:…`) and the log lines. */
  name: string;
  /** Failures (with the attempts still running) allowed before any refusal or wait. */
  free: number;
  /** How long failures are remembered after the first one. */
  memorySeconds: number;
  /**
   * Past `free`: one attempt at a time, each after a wait that starts at `baseSeconds` and doubles with
   * every further failure. Omitted: no attempt until the failures are forgotten.
   */
  backoff?: { baseSeconds: number; maxSeconds: number };
  /**
   * The longest an attempt can hold its place (its bounded legacy call and failure padding). An
   * attempt waiting for places is refused when none was given back for this long.
   */
  holdMs: number;
};

/** A held place: exactly one of the two must be called when the attempt's outcome is known. */
export type Place = {
  /** The attempt failed: its place stays taken, as a failure (the back-off grows). */
  failed(): Promise<void>;
  /** The attempt succeeded, or never reached a verdict (legacy down): the place is given back. */
  release(): Promise<void>;
};

export type FailureLimiter = {
  /** Takes a place for this subject, waiting while others hold them; throws 429 `rate-limited`. */
  take(request: FastifyRequest, reply: FastifyReply, subject: string): Promise<Place>;
};

/** The refusal every limit answers: 429 `rate-limited`, Retry-After and an Indonesian wait. */
export function rateLimited(reply: FastifyReply, waitMs: number): ApiProblem {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.header('retry-after', String(seconds));
  const detail =
    seconds < 60
      ? format(TEMPLATE_MESSAGES.retryInSeconds, { seconds })
      : seconds <= 2 * 3600
        ? format(TEMPLATE_MESSAGES.retryInMinutes, { minutes: Math.ceil(seconds / 60) })
        : format(TEMPLATE_MESSAGES.retryInHours, { hours: Math.ceil(seconds / 3600) });
  return new ApiProblem('rate-limited', { detail });
}

/** Waits until `floorMs` (or the next multiple of it) has passed since `started`: equal-time failures. */
export async function padFailure(started: number, floorMs: number): Promise<void> {
  if (floorMs <= 0) return;
  const elapsed = performance.now() - started;
  const target = Math.max(1, Math.ceil(elapsed / floorMs)) * floorMs;
  // A timer may fire up to a millisecond early by this clock (libuv counts whole milliseconds from the
  // loop's cached time): wait again for what is left, so no failure ever answers before its floor.
  for (let left = target - elapsed; left > 0; left = target - (performance.now() - started)) {
    await sleep(Math.ceil(left));
  }
}

function hasher(app: FastifyInstance, name: string) {
  const secret = app.config.sessionSecret;
  return (kind: string, value: string) =>
    `${name}:${kind}:${createHmac('sha256', secret).update(`${name}:${kind}:${value}`).digest('base64url').slice(0, 32)}`;
}

/** The client address as a limit key: IPv6 clients are counted per /64 (one host holds a whole /64). */
export function clientKey(request: FastifyRequest): string {
  const ip = request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip;
  if (!ip.includes(':')) return ip;
  return ip.split(':').slice(0, 4).join(':');
}

export async function attemptLimiter(app: FastifyInstance, rule: AttemptRule): Promise<AttemptLimiter> {
  const key = hasher(app, rule.name);
  const windowMs = rule.windowSeconds * 1000;
  return {
    async consume(request, reply, subject) {
      const checks = [{ limit: 'perClient', key: key('client', clientKey(request)), max: rule.maxPerClient }];
      if (rule.maxPerSubject !== undefined) {
        checks.push({ limit: 'perSubject', key: key('subject', subject), max: rule.maxPerSubject });
      }
      for (const check of checks) {
        const count = await app.keyStore.incr(check.key, windowMs);
        if (count > check.max) {
          request.log.info({ limiter: rule.name, limit: check.limit }, 'attempt limit reached');
          throw rateLimited(reply, (await app.keyStore.ttl(check.key)) || windowMs);
        }
      }
    },
  };
}

/** How often a waiting attempt looks again whether a place was given back (plus up to as much jitter). */
const PLACE_POLL_MS = 20;
/**
 * The longest an attempt waits for places, in holdMs: several queued attempts behind slow ones still
 * get through, while a connection is never held without end.
 */
const MAX_WAIT_HOLDS = 3;

export function failureLimiter(app: FastifyInstance, rule: FailureRule): FailureLimiter {
  const key = hasher(app, rule.name);
  const memoryMs = rule.memorySeconds * 1000;
  // Outlives every holder: a place is held at most holdMs, plus the wait for another limit's place.
  const pendingTtlMs = rule.holdMs * (MAX_WAIT_HOLDS + 2);
  const backoffRule = rule.backoff;
  const delayMs = (beyond: number) =>
    backoffRule
      ? Math.min(backoffRule.maxSeconds, backoffRule.baseSeconds * 2 ** Math.min(beyond - 1, 30)) * 1000
      : 0;
  return {
    async take(request, reply, subject) {
      const keys = {
        failures: key('f', subject),
        pending: key('p', subject),
        ...(backoffRule ? { slot: key('slot', subject) } : {}),
      };
      const waitUntil = Date.now() + rule.holdMs * MAX_WAIT_HOLDS;
      for (;;) {
        const place = await app.keyStore.takePlace(keys, rule.free, pendingTtlMs);
        if (place.granted) {
          return {
            async failed() {
              // Counted before the place is given up: nobody sees the place free and the failure not yet.
              const failures = await app.keyStore.incr(keys.failures, memoryMs);
              if (keys.slot && failures >= rule.free) {
                await app.keyStore.set(keys.slot, '1', delayMs(failures - rule.free + 1));
              }
              await app.keyStore.decr(keys.pending);
            },
            async release() {
              await app.keyStore.decr(keys.pending);
            },
          };
        }
        // Places held by attempts still running may come back (a right answer gives its place back):
        // wait for them rather than refuse. Only failures already counted refuse at once.
        if (place.pending > 0 && Date.now() < waitUntil) {
          await sleep(PLACE_POLL_MS + Math.random() * PLACE_POLL_MS);
          continue;
        }
        request.log.info({ limiter: rule.name, failures: place.failures }, 'attempt limit reached');
        const waitMs = place.pending > 0 ? 1000 : await app.keyStore.ttl(keys.slot ?? keys.failures);
        throw rateLimited(reply, waitMs || 1000);
      }
    },
  };
}

export function backoff(app: FastifyInstance, rule: BackoffRule): Backoff {
  const key = hasher(app, rule.name);
  const delayMs = (beyond: number) =>
    Math.min(rule.maxSeconds, rule.baseSeconds * 2 ** Math.min(beyond - 1, 30)) * 1000;
  return {
    async begin(request, reply, subject) {
      const countKey = key('n', subject);
      const slotKey = key('slot', subject);
      const count = await app.keyStore.incr(countKey, rule.memorySeconds * 1000);
      // The last free attempt leaves a slot behind that the next one must wait out; each later attempt
      // takes the slot (atomically, so parallel guesses cannot share it) and leaves a longer one.
      const wait = delayMs(count - rule.free + 1);
      if (count === rule.free) await app.keyStore.set(slotKey, '1', wait);
      if (count > rule.free && !(await app.keyStore.setIfAbsent(slotKey, '1', wait))) {
        await app.keyStore.decr(countKey);
        request.log.info({ limiter: rule.name, failures: count - 1 }, 'attempt limit reached');
        throw rateLimited(reply, await app.keyStore.ttl(slotKey));
      }
      return {
        async succeeded() {
          await app.keyStore.del(countKey, slotKey);
        },
        async cancel() {
          await app.keyStore.decr(countKey);
        },
      };
    },
  };
}

export type SignInRule = { name: string } & SignInSettings;

/** The sign-in back-off (free failures, then doubling waits), also used by other password checks. */
export function passwordBackoff(app: FastifyInstance, name: string, settings: SignInSettings): Backoff {
  return backoff(app, {
    name,
    free: settings.freeFailures,
    baseSeconds: settings.delayBaseSeconds,
    maxSeconds: settings.delayMaxSeconds,
    memorySeconds: Math.max(settings.windowSeconds, settings.delayMaxSeconds * 2),
  });
}

export type SignInGuard = {
  /** Throws 429 when this attempt must wait; `knownDevice`: the browser signed in as this user before. */
  begin(
    request: FastifyRequest,
    reply: FastifyReply,
    username: string,
    knownDevice: boolean,
  ): Promise<Attempt>;
};

export function signInGuard(app: FastifyInstance, rule: SignInRule): SignInGuard {
  const key = hasher(app, rule.name);
  const windowMs = rule.windowSeconds * 1000;
  const perUserAndClient = passwordBackoff(app, `${rule.name}-uc`, rule);
  return {
    async begin(request, reply, username, knownDevice) {
      const client = clientKey(request);
      const clientCount = key('client', client);
      const userCount = key('user', username);
      const refused = (limit: string) =>
        request.log.info({ limiter: rule.name, limit }, 'attempt limit reached');

      if ((await app.keyStore.incr(clientCount, windowMs)) > rule.maxFailuresPerClient) {
        await app.keyStore.decr(clientCount);
        refused('perClient');
        throw rateLimited(reply, (await app.keyStore.ttl(clientCount)) || windowMs);
      }
      let pair: Attempt;
      try {
        pair = await perUserAndClient.begin(request, reply, `${username}\u0000${client}`);
      } catch (error) {
        await app.keyStore.decr(clientCount);
        throw error;
      }
      const failures = await app.keyStore.incr(userCount, windowMs);
      if (failures > rule.ceilingPerUsername && !knownDevice) {
        const slot = key('user-slot', username);
        if (!(await app.keyStore.setIfAbsent(slot, '1', rule.ceilingSpacingSeconds * 1000))) {
          await Promise.all([app.keyStore.decr(userCount), app.keyStore.decr(clientCount), pair.cancel()]);
          refused('perUsername');
          throw rateLimited(reply, await app.keyStore.ttl(slot));
        }
      }
      const undo = () => Promise.all([app.keyStore.decr(userCount), app.keyStore.decr(clientCount)]);
      return {
        async succeeded() {
          await Promise.all([undo(), pair.succeeded()]);
        },
        async cancel() {
          await Promise.all([undo(), pair.cancel()]);
        },
      };
    },
  };
}
