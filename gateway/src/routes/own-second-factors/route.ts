/**
 * The signed-in user's own second factors (docs/product/second-factor.md): enrolment right after the
 * password when the user's type requires a factor and the account has none (the session is then at
 * its `enrol` step), and later management from Keamanan Akun. No route takes a user id: each works on
 * the session's own account. Adding a factor to an account that has one, removing one and new recovery
 * codes need a factor used within ten minutes (step-up, decided from the store: policies/plugin.ts);
 * the last factor of an account that must have one cannot be removed. Each change ends the account's
 * other sessions: one that signed in before gives a factor the account has now at its next sign-in.
 */
import {
  factorAddedReply,
  ownSecondFactorsReply,
  passkeyItem,
  passkeyOptionsReply,
  passkeyParams,
  passkeyRegisterRequest,
  passkeyRenameRequest,
  recoveryCodesReply,
  secondFactorStateReply,
  totpConfirmRequest,
  totpEnrolmentReply,
} from '@wbs/shared/api/second-factor';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { FIELD_MESSAGES, PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { audit } from '../../logging.ts';
import { routeSchema } from '../../schema.ts';
import { registrationOptions, takeChallenge, verifyRegistration } from '../../second-factor/passkeys.ts';
import { accountOf } from '../../second-factor/plugin.ts';
import { newRecoveryCodes } from '../../second-factor/recovery.ts';
import { claimAfterFactor, claimWithFactors, type FactorSummary } from '../../second-factor/state.ts';
import {
  type Account,
  addPasskey,
  confirmTotp,
  factorsOf,
  type PasskeyRow,
  passkeysOf,
  recoveryKey,
  removePasskey,
  removeTotp,
  renamePasskey,
  replaceRecoveryCodes,
  startTotp,
  summaryOf,
  type Tx,
  totpOf,
  withAccountLock,
} from '../../second-factor/store.ts';
import { newTotpSecret, qrSvg, totpStep, totpUri } from '../../second-factor/totp.ts';
import type { Session } from '../../session/plugin.ts';
import { type Store, storeCall } from '../../store/plugin.ts';

const tags = ['second-factors'];
const BASE = '/account/second-factors';
const policy = 'second-factors:own' as const;

const presentPasskey = (p: PasskeyRow): v.InferOutput<typeof passkeyItem> => ({
  id: p.id,
  name: p.name,
  createdAt: wibWallTime(p.createdAt),
  lastUsedAt: p.lastUsedAt ? wibWallTime(p.lastUsedAt) : null,
});

const sessionOf = (request: FastifyRequest): Session => request.server.sessions.currentOrRefuse(request);

export default async function ownSecondFactorRoutes(app: FastifyInstance) {
  const rp = app.secondFactors.rp;

  /**
   * After a factor was added: a first factor brings recovery codes (shown once), and the session is
   * full with a fresh step-up (the factor was just used to enrol it).
   */
  async function factorAdded(
    request: FastifyRequest,
    reply: FastifyReply,
    store: Store,
    account: Account,
    before: FactorSummary,
    method: 'totp' | 'passkey',
  ) {
    let recoveryCodes: string[] | null = null;
    if (before.methods.length === 0) {
      const codes = newRecoveryCodes();
      const key = await recoveryKey(store);
      await store.db.transaction((tx) => replaceRecoveryCodes(tx, key, account, codes.canonical));
      recoveryCodes = codes.shown;
    }
    const next = app.sessions.setFactor(request, reply, claimAfterFactor(await summaryOf(store.db, account)));
    await app.sessions.endOthers(request, 'second-factor-changed');
    audit(request, 'second-factor-enrolled', { method, firstFactor: before.methods.length === 0 });
    return { secondFactor: app.secondFactors.state(next), recoveryCodes };
  }

  /** After a factor was removed: the claim follows what is left; none left means no recovery codes. */
  async function factorRemoved(
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    summary: FactorSummary,
  ) {
    const next = app.sessions.setFactor(request, reply, claimWithFactors(session.factor, summary));
    await app.sessions.endOthers(request, 'second-factor-changed');
    return { secondFactor: app.secondFactors.state(next) };
  }

  /** Removes a factor under the account's lock unless it is the last one of a required account. */
  async function remove(
    request: FastifyRequest,
    session: Session,
    work: (tx: Tx, account: Account) => Promise<boolean>,
  ): Promise<FactorSummary> {
    const account = accountOf(session.user);
    const required = app.secondFactors.required(session.user.userTypeId);
    return storeCall(request, (store) =>
      withAccountLock(store, account, async (tx) => {
        const before = await summaryOf(tx, account);
        if (!(await work(tx, account))) throw new ApiProblem('not-found');
        const after = await summaryOf(tx, account);
        if (required && after.methods.length === 0 && before.methods.length > 0) {
          throw new ApiProblem('last-factor-required'); // rolls the removal back
        }
        if (after.methods.length === 0) await replaceRecoveryCodes(tx, Buffer.alloc(0), account, []);
        return { ...after, recoveryCodesLeft: after.methods.length === 0 ? 0 : after.recoveryCodesLeft };
      }),
    );
  }

  app.get(
    BASE,
    {
      config: { policy, secondFactorStep: 'enrol' },
      schema: routeSchema({
        summary: 'Faktor kedua saya',
        description: 'The session’s own factors: TOTP (whether, since when), passkeys, recovery codes left.',
        tags,
        response: { 200: ownSecondFactorsReply },
      }),
    },
    async (request) => {
      const session = sessionOf(request);
      const account = accountOf(session.user);
      return storeCall(request, async (store) => {
        const { summary, totpSince, passkeys } = await factorsOf(store.db, account);
        return {
          secondFactor: app.secondFactors.state({
            ...session,
            factor: claimWithFactors(session.factor, summary),
          }),
          totp: totpSince ? { createdAt: wibWallTime(totpSince) } : null,
          passkeys: passkeys.map(presentPasskey),
        };
      });
    },
  );

  app.post(
    `${BASE}/totp`,
    {
      config: { policy, secondFactorStep: 'enrol', stepUp: true },
      schema: routeSchema({
        summary: 'Mulai pendaftaran aplikasi autentikator',
        description:
          'A new TOTP secret waiting for its first code (PUT), replacing one still waiting. 409 `conflict` ' +
          'when the account has a confirmed one (remove it first).',
        tags,
        response: { 200: totpEnrolmentReply },
      }),
    },
    async (request) => {
      const session = sessionOf(request);
      const secret = newTotpSecret();
      const started = await storeCall(request, (store) => startTotp(store, accountOf(session.user), secret));
      if (!started) throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.totpExists });
      const otpauthUri = totpUri(secret, session.user.username);
      return { secret, otpauthUri, qrSvg: await qrSvg(otpauthUri) };
    },
  );

  app.put<{ Body: v.InferOutput<typeof totpConfirmRequest> }>(
    `${BASE}/totp`,
    {
      config: { policy, secondFactorStep: 'enrol', stepUp: true },
      schema: routeSchema({
        summary: 'Konfirmasi aplikasi autentikator',
        description:
          'Confirms the waiting secret with a current code. The account’s first factor brings ten ' +
          'recovery codes, shown only in this reply. 400 `second-factor-failed` for a wrong code.',
        tags,
        body: totpConfirmRequest,
        response: { 200: factorAddedReply },
      }),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const account = accountOf(session.user);
      return storeCall(request, async (store) => {
        const totp = await totpOf(store.db, store, account);
        if (!totp || totp.confirmed) {
          throw new ApiProblem('second-factor-failed', { detail: PROBLEM_MESSAGES.enrolmentExpired });
        }
        const step = await totpStep(totp.secret, request.body.code, null);
        if (step === null) {
          audit(request, 'second-factor-failed', { method: 'totp', reason: 'enrolment-code' });
          throw new ApiProblem('second-factor-failed', {
            errors: { code: PROBLEM_MESSAGES.secondFactorFailed },
          });
        }
        const before = await summaryOf(store.db, account);
        if (!(await confirmTotp(store, account, step))) {
          throw new ApiProblem('second-factor-failed', { detail: PROBLEM_MESSAGES.enrolmentExpired });
        }
        return factorAdded(request, reply, store, account, before, 'totp');
      });
    },
  );

  app.delete(
    `${BASE}/totp`,
    {
      config: { policy, stepUp: true },
      schema: routeSchema({
        summary: 'Hapus aplikasi autentikator',
        description:
          '409 `last-factor-required` when it is the last factor of an account that must have one.',
        tags,
        response: { 200: secondFactorStateReply },
      }),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const summary = await remove(request, session, (tx, account) => removeTotp(tx, account));
      audit(request, 'second-factor-removed', { method: 'totp' });
      return factorRemoved(request, reply, session, summary);
    },
  );

  app.post(
    `${BASE}/passkeys/options`,
    {
      config: { policy, secondFactorStep: 'enrol', stepUp: true },
      schema: routeSchema({
        summary: 'Opsi pendaftaran passkey',
        description:
          'Options for `navigator.credentials.create` (the account’s passkeys excluded); the challenge ' +
          'is kept five minutes for this session and answers once.',
        tags,
        response: { 200: passkeyOptionsReply },
      }),
    },
    async (request) => {
      const session = sessionOf(request);
      const account = accountOf(session.user);
      const existing = await storeCall(request, (store) => passkeysOf(store.db, account));
      const options = await registrationOptions(
        rp,
        app.keyStore,
        session.id,
        account,
        session.user.displayName,
        existing,
      );
      return { options };
    },
  );

  app.post<{ Body: v.InferOutput<typeof passkeyRegisterRequest> }>(
    `${BASE}/passkeys`,
    {
      config: { policy, secondFactorStep: 'enrol', stepUp: true },
      schema: routeSchema({
        summary: 'Daftarkan passkey',
        description:
          'Registers the passkey that answers this session’s last registration challenge. The account’s ' +
          'first factor brings ten recovery codes, shown only in this reply. 400 `second-factor-failed` ' +
          'for a response that does not answer the challenge; 409 `conflict` for a passkey registered already.',
        tags,
        body: passkeyRegisterRequest,
        response: { 201: factorAddedReply },
      }),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const account = accountOf(session.user);
      const challenge = await takeChallenge(app.keyStore, session.id, 'register');
      const credential =
        challenge === null ? null : await verifyRegistration(rp, challenge, request.body.response);
      if (!credential) {
        audit(request, 'second-factor-failed', { method: 'passkey', reason: 'registration' });
        throw new ApiProblem('second-factor-failed', { detail: FIELD_MESSAGES.passkeyResponseInvalid });
      }
      const added = await storeCall(request, async (store) => {
        const before = await summaryOf(store.db, account);
        const row = await withAccountLock(store, account, (tx) =>
          addPasskey(tx, account, { ...credential, name: request.body.name }),
        );
        if (!row) throw new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.passkeyExists });
        return factorAdded(request, reply, store, account, before, 'passkey');
      });
      return reply.code(201).send(added);
    },
  );

  app.patch<{
    Params: v.InferOutput<typeof passkeyParams>;
    Body: v.InferOutput<typeof passkeyRenameRequest>;
  }>(
    `${BASE}/passkeys/:id`,
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ubah nama passkey',
        tags,
        params: passkeyParams,
        body: passkeyRenameRequest,
        response: { 200: passkeyItem },
      }),
    },
    async (request) => {
      const session = sessionOf(request);
      const row = await storeCall(request, (store) =>
        renamePasskey(store, accountOf(session.user), request.params.id, request.body.name),
      );
      if (!row) throw new ApiProblem('not-found', { detail: FIELD_MESSAGES.passkeyNotFound });
      return presentPasskey(row);
    },
  );

  app.delete<{ Params: v.InferOutput<typeof passkeyParams> }>(
    `${BASE}/passkeys/:id`,
    {
      config: { policy, stepUp: true },
      schema: routeSchema({
        summary: 'Hapus passkey',
        description:
          'Another user’s passkey id is 404. 409 `last-factor-required` when it is the last factor of an ' +
          'account that must have one.',
        tags,
        params: passkeyParams,
        response: { 200: secondFactorStateReply },
      }),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const summary = await remove(request, session, (tx, account) =>
        removePasskey(tx, account, request.params.id),
      );
      audit(request, 'second-factor-removed', { method: 'passkey' });
      return factorRemoved(request, reply, session, summary);
    },
  );

  app.post(
    `${BASE}/recovery-codes`,
    {
      config: { policy, stepUp: true },
      schema: routeSchema({
        summary: 'Buat kode pemulihan baru',
        description:
          'Ten new recovery codes, shown only in this reply; the old ones stop working. 409 ' +
          '`second-factor-missing` for an account without a factor.',
        tags,
        response: { 200: recoveryCodesReply },
      }),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const account = accountOf(session.user);
      const codes = newRecoveryCodes();
      const summary = await storeCall(request, async (store) => {
        const key = await recoveryKey(store);
        return withAccountLock(store, account, async (tx) => {
          if ((await summaryOf(tx, account)).methods.length === 0) {
            throw new ApiProblem('second-factor-missing');
          }
          await replaceRecoveryCodes(tx, key, account, codes.canonical);
          return summaryOf(tx, account);
        });
      });
      const next = app.sessions.setFactor(request, reply, claimWithFactors(session.factor, summary));
      // A session that knew of the old codes (or of none) must give a factor again.
      await app.sessions.endOthers(request, 'second-factor-changed');
      audit(request, 'recovery-codes-renewed');
      return { secondFactor: app.secondFactors.state(next), recoveryCodes: codes.shown };
    },
  );
}
