/**
 * The second-factor step of a sign-in, and the step-up of a full session: a TOTP code, a recovery
 * code or a passkey (docs/product/second-factor.md). Failures are answered after the sign-in's
 * minimum time and slowed like sign-in failures per user and client, with a ceiling per user.
 * Typed codes are also counted per account, across sessions, until a factor is accepted
 * (docs/adr/0074-second-factor-failure-cap.md): the first burst of wrong ones tells the owner, and at
 * SECOND_FACTOR_MAX_FAILURES the session that typed the last one ends and the account's authenticator
 * codes are refused until a recovery code or a passkey is accepted.
 */
import {
  passkeyOptionsReply,
  type SecondFactorVerifyRequest,
  secondFactorStateReply,
  secondFactorVerifyRequest,
} from '@wbs/shared/api/second-factor';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { audit } from '../../logging.ts';
import { padFailure, signInGuard } from '../../policies/attempt-limits.ts';
import { routeSchema } from '../../schema.ts';
import { authenticationOptions, takeChallenge, verifyAuthentication } from '../../second-factor/passkeys.ts';
import { accountOf } from '../../second-factor/plugin.ts';
import { claimAfterFactor } from '../../second-factor/state.ts';
import {
  clearFailures,
  countFailure,
  passkeysOf,
  summaryOf,
  takeTotpStep,
  totpOf,
  usePasskey,
  useRecoveryCode,
} from '../../second-factor/store.ts';
import { totpStep } from '../../second-factor/totp.ts';
import type { Session } from '../../session/plugin.ts';
import { storeCall } from '../../store/plugin.ts';

const tags = ['session'];

/** Why a factor was refused: ops and audit only; the user reads a neutral text (a replay aside). */
type Refusal =
  | 'locked'
  | 'wrong-code'
  | 'replayed-code'
  | 'no-factor'
  | 'no-challenge'
  | 'unknown-passkey'
  | 'used-code';

const sessionOf = (request: FastifyRequest): Session => request.server.sessions.currentOrRefuse(request);

export default async function secondFactorRoutes(app: FastifyInstance) {
  const settings = app.config.signIn;
  const guard = signInGuard(app, { name: 'second-factor', ...settings });
  const maxFailures = app.config.secondFactorMaxFailures;
  // The first burst: the wrong code after which the sign-in's limits start to slow the user.
  const noticeAt = Math.min(settings.freeFailures, maxFailures);

  /** Checks the factor; null when it is good, else why not. */
  async function check(
    request: FastifyRequest,
    session: Session,
    body: SecondFactorVerifyRequest,
  ): Promise<Refusal | null> {
    const account = accountOf(session.user);
    return storeCall(request, async (store) => {
      switch (body.method) {
        case 'totp': {
          const totp = await totpOf(store.db, store, account);
          if (!totp?.confirmed) return 'no-factor';
          const step = await totpStep(totp.secret, body.code, totp.lastStep);
          if (step === null) {
            // Valid but not after the last accepted step: a code used already.
            return (await totpStep(totp.secret, body.code, null)) === null ? 'wrong-code' : 'replayed-code';
          }
          return (await takeTotpStep(store, account, step)) ? null : 'replayed-code';
        }
        case 'recovery':
          return (await useRecoveryCode(store, account, body.code)) ? null : 'used-code';
        case 'passkey': {
          const challenge = await takeChallenge(app.keyStore, session.id, 'authenticate');
          if (challenge === null) return 'no-challenge';
          const passkey = (await passkeysOf(store.db, account)).find(
            (p) => p.credentialId === body.response.id,
          );
          if (!passkey) return 'unknown-passkey';
          const counter = await verifyAuthentication(app.secondFactors.rp, challenge, body.response, passkey);
          if (counter === null) return 'wrong-code';
          return (await usePasskey(store, passkey, counter)) ? null : 'replayed-code';
        }
      }
    });
  }

  app.post(
    '/session/second-factor/challenge',
    {
      config: { policy: 'second-factors:own', secondFactorStep: 'verify' },
      schema: routeSchema({
        summary: 'Tantangan passkey untuk verifikasi dua langkah',
        description:
          'Options for `navigator.credentials.get` listing the account’s passkeys; the challenge is kept ' +
          'five minutes for this session and answers once. 400 `second-factor-failed` when the account ' +
          'has no passkey.',
        tags,
        response: { 200: passkeyOptionsReply },
      }),
    },
    async (request) => {
      const session = sessionOf(request);
      const passkeys = await storeCall(request, (store) => passkeysOf(store.db, accountOf(session.user)));
      if (passkeys.length === 0) {
        throw new ApiProblem('second-factor-failed', { detail: 'Akun ini belum memiliki passkey' });
      }
      const options = await authenticationOptions(app.secondFactors.rp, app.keyStore, session.id, passkeys);
      return { options };
    },
  );

  app.post<{ Body: SecondFactorVerifyRequest }>(
    '/session/second-factor',
    {
      config: { policy: 'second-factors:own', secondFactorStep: 'verify' },
      schema: routeSchema({
        summary: 'Verifikasi dua langkah',
        description:
          'Completes a sign-in whose `secondFactor.status` is `verify`, or renews the step-up of a full ' +
          'session: a TOTP code (each time step once), a recovery code (once) or a passkey assertion (to ' +
          'the last challenge of this session). Re-issues `wbs_session`. A refusal is 400 ' +
          '`second-factor-failed`, answered after the same minimum time; repeated refusals are slowed ' +
          'per user and client and per user (429 `rate-limited` with `retry-after`). Typed codes refused in ' +
          'a row are counted per account until a factor is accepted: the one that reaches ' +
          'SECOND_FACTOR_MAX_FAILURES ends the session (401 `second-factor-locked`, sign in again), and ' +
          'from then on TOTP codes are refused (400 `second-factor-failed`) until a recovery code or a ' +
          'passkey is accepted.',
        tags,
        body: secondFactorVerifyRequest,
        response: { 200: secondFactorStateReply },
      }),
    },
    async (request, reply) => {
      const started = performance.now();
      const session = sessionOf(request);
      const { method } = request.body;
      let attempt: Awaited<ReturnType<typeof guard.begin>>;
      try {
        attempt = await guard.begin(request, reply, `user:${session.user.id}`, false);
      } catch (error) {
        audit(request, 'second-factor-failed', { method, reason: 'rate-limited' });
        throw error;
      }
      const account = accountOf(session.user);
      // A typed code counts against the account before it is checked (a passkey cannot be guessed).
      const typed = method === 'totp' || method === 'recovery';
      let failures = 0;
      let refusal: Refusal | null;
      try {
        if (typed) failures = await storeCall(request, (store) => countFailure(store, account));
        refusal =
          method === 'totp' && failures > maxFailures
            ? 'locked'
            : await check(request, session, request.body);
      } catch (error) {
        await attempt.cancel(); // the store failed: nobody's wrong guess
        throw error;
      }
      if (refusal !== null) {
        audit(request, 'second-factor-failed', { method, reason: refusal, ...(typed ? { failures } : {}) });
        if (failures === noticeAt) app.notices.secondFactorGuessed(session.user);
        await padFailure(started, settings.failureFloorMs);
        if (failures === maxFailures) {
          // The step is closed to whoever typed these: only the password, proven again at a new
          // sign-in, opens another one (where only a recovery code or a passkey is then accepted).
          await app.sessions.end(request, reply);
          audit(request, 'second-factor-locked', { method });
          throw new ApiProblem('second-factor-locked');
        }
        throw new ApiProblem('second-factor-failed', {
          detail:
            refusal === 'locked'
              ? PROBLEM_MESSAGES.totpLocked
              : refusal === 'replayed-code' && method === 'totp'
                ? PROBLEM_MESSAGES.secondFactorReplay
                : PROBLEM_MESSAGES.secondFactorFailed,
        });
      }
      await attempt.succeeded();
      const summary = await storeCall(request, async (store) => {
        await clearFailures(store, account);
        return summaryOf(store.db, account);
      });
      const stepUp = session.factor.s === 'done';
      const next = app.sessions.setFactor(request, reply, claimAfterFactor(summary));
      audit(request, stepUp ? 'step-up' : 'second-factor-verified', { method });
      return { secondFactor: app.secondFactors.state(next) };
    },
  );
}
