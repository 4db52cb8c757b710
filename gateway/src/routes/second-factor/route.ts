/**
 * The second-factor step of a sign-in, and the step-up of a full session: a TOTP code, a recovery
 * code or a passkey (docs/product/second-factor.md). Failures are answered after the sign-in's
 * minimum time and slowed like sign-in failures per user and client, with a ceiling per user.
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
          'per user and client and per user (429 `rate-limited` with `retry-after`).',
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
      let refusal: Refusal | null;
      try {
        refusal = await check(request, session, request.body);
      } catch (error) {
        await attempt.cancel(); // the store failed: nobody's wrong guess
        throw error;
      }
      if (refusal !== null) {
        audit(request, 'second-factor-failed', { method, reason: refusal });
        await padFailure(started, settings.failureFloorMs);
        throw new ApiProblem('second-factor-failed', {
          detail:
            refusal === 'replayed-code' && method === 'totp'
              ? PROBLEM_MESSAGES.secondFactorReplay
              : PROBLEM_MESSAGES.secondFactorFailed,
        });
      }
      await attempt.succeeded();
      const summary = await storeCall(request, (store) => summaryOf(store.db, accountOf(session.user)));
      const stepUp = session.factor.s === 'done';
      const next = app.sessions.setFactor(request, reply, claimAfterFactor(summary));
      audit(request, stepUp ? 'step-up' : 'second-factor-verified', { method });
      return { secondFactor: app.secondFactors.state(next) };
    },
  );
}
