/**
 * The user's own factors through the gateway: passkeys (a deterministic software authenticator,
 * scripts/support/passkey.ts, checked by the real @simplewebauthn/server), several per account, named,
 * renamed and removed; replays and foreign credentials refused; nobody reaches another user's factors.
 * A change of factors is decided by what the store holds, whatever an older session's cookie lists,
 * and ends the account's other sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softwarePasskey } from '../../../../scripts/support/passkey.ts';
import { buildTestApp, demoAccount, ORIGIN, type TestApp } from '../../test/helpers.ts';
import {
  type Agent,
  agent,
  enrolTotp,
  passwordSignIn,
  totpCode,
  withFactorClaim,
} from '../../test/second-factor.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    SECOND_FACTOR_TYPES: '1,2,3,4,5',
    PUBLIC_URL: ORIGIN,
    SIGNIN_FAILURE_FLOOR_MS: '20',
  });
});
afterAll(async () => t.close());

const signIn = (username: string) => passwordSignIn(t.app, username, demoAccount(username).password);
const problem = (res: { json(): unknown }) => (res.json() as { type: string }).type.split('/').pop();

/**
 * Registers `key`. `insist`: as an authenticator that ignores the excluded list would (a real one
 * refuses, as the software one does), so the gateway's own duplicate check is what answers.
 */
async function register(a: Agent, key: ReturnType<typeof softwarePasskey>, name: string, insist = false) {
  const options = await a.call('POST', '/account/second-factors/passkeys/options');
  expect(options.statusCode, options.body).toBe(200);
  const asked = options.json().options;
  const response = key.register(insist ? { ...asked, excludeCredentials: [] } : asked);
  return a.call('POST', '/account/second-factors/passkeys', { name, response });
}

/** An assertion by `key` to the session's challenge, whether or not the options list it. */
const forced = (key: ReturnType<typeof softwarePasskey>, options: Record<string, unknown>) =>
  key.authenticate({ ...options, allowCredentials: [] });

async function assertWith(a: Agent, key: ReturnType<typeof softwarePasskey>) {
  const challenge = await a.call('POST', '/session/second-factor/challenge');
  expect(challenge.statusCode, challenge.body).toBe(200);
  const response = key.authenticate(challenge.json().options);
  return { response, res: await a.call('POST', '/session/second-factor', { method: 'passkey', response }) };
}

describe('passkeys', () => {
  const laptop = softwarePasskey('holding', { origin: ORIGIN });
  const phone = softwarePasskey('holding:phone', { origin: ORIGIN });

  it('enrols a first passkey with recovery codes, then a second one named, and lists both', async () => {
    const { agent: a, reply } = await signIn('holding');
    expect(reply.secondFactor.status).toBe('enrol');
    const first = await register(a, laptop, 'Laptop kantor');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().recoveryCodes).toHaveLength(10);
    expect(first.json().secondFactor).toMatchObject({ status: 'done', methods: ['passkey'] });
    // The account has a factor now, used just now: a second passkey needs no new prompt.
    const second = await register(a, phone, '  Ponsel  ');
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().recoveryCodes).toBeNull();
    // The same authenticator twice is one passkey.
    const again = await register(a, phone, 'Ponsel lagi', true);
    expect(again.statusCode).toBe(409);
    const list = await a.call('GET', '/account/second-factors');
    expect(list.json().passkeys.map((p: { name: string }) => p.name)).toEqual(['Laptop kantor', 'Ponsel']);
    expect(list.json().totp).toBeNull();
  });

  it('signs in with either passkey; a replayed or foreign-origin assertion is refused', async () => {
    const { agent: a, reply } = await signIn('holding');
    expect(reply.secondFactor).toMatchObject({ status: 'verify', methods: ['passkey'] });
    const { response, res } = await assertWith(a, phone);
    expect(res.statusCode, res.body).toBe(200);
    const b = (await signIn('holding')).agent;
    // The challenge was taken: the same assertion again answers nothing.
    const replay = await b.call('POST', '/session/second-factor', { method: 'passkey', response });
    expect(replay.statusCode).toBe(400);
    const elsewhere = softwarePasskey('holding', { origin: 'https://phishing.example' });
    const challenge = await b.call('POST', '/session/second-factor/challenge');
    const foreign = await b.call('POST', '/session/second-factor', {
      method: 'passkey',
      response: elsewhere.authenticate(challenge.json().options),
    });
    expect(foreign.statusCode).toBe(400);
    expect((await b.call('GET', '/notices')).statusCode).toBe(401);
    expect((await assertWith(b, laptop)).res.statusCode).toBe(200);
    expect((await b.call('GET', '/notices')).statusCode).toBe(200);
    const reasons = t.logs.filter((l) => l.event === 'second-factor-failed').map((l) => l.reason);
    expect(reasons).toEqual(expect.arrayContaining(['no-challenge', 'wrong-code']));
  });

  it('refuses another account’s passkey, and never reaches another user’s factors', async () => {
    const other = await signIn('staff.holding');
    expect(other.reply.secondFactor.status).toBe('enrol');
    expect(
      (await register(other.agent, softwarePasskey('staff.holding', { origin: ORIGIN }), 'Kunci')).statusCode,
    ).toBe(201);
    // The holding's passkey answering staff.holding's challenge: not one of its passkeys.
    const next = (await signIn('staff.holding')).agent;
    const challenge = await next.call('POST', '/session/second-factor/challenge');
    const wrong = await next.call('POST', '/session/second-factor', {
      method: 'passkey',
      response: forced(laptop, challenge.json().options),
    });
    expect(wrong.statusCode).toBe(400);
    expect(t.logs.some((l) => l.event === 'second-factor-failed' && l.reason === 'unknown-passkey')).toBe(
      true,
    );

    const holding = (await signIn('holding')).agent;
    expect((await assertWith(holding, laptop)).res.statusCode).toBe(200);
    const ids = (await holding.call('GET', '/account/second-factors'))
      .json()
      .passkeys.map((p: { id: string }) => p.id);
    const staff = (await signIn('staff.holding')).agent;
    expect(
      (await assertWith(staff, softwarePasskey('staff.holding', { origin: ORIGIN }))).res.statusCode,
    ).toBe(200);
    expect((await staff.call('DELETE', `/account/second-factors/passkeys/${ids[0]}`)).statusCode).toBe(404);
    expect(
      (await staff.call('PATCH', `/account/second-factors/passkeys/${ids[0]}`, { name: 'milikku' }))
        .statusCode,
    ).toBe(404);
    expect((await holding.call('GET', '/account/second-factors')).json().passkeys).toHaveLength(2);
  });

  it('renames and removes passkeys, but not the last one of a required account', async () => {
    const a = (await signIn('holding')).agent;
    expect((await assertWith(a, laptop)).res.statusCode).toBe(200);
    const [first, second] = (await a.call('GET', '/account/second-factors')).json().passkeys as {
      id: string;
    }[];
    const renamed = await a.call('PATCH', `/account/second-factors/passkeys/${first!.id}`, {
      name: 'Laptop rumah',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Laptop rumah');
    const blank = await a.call('PATCH', `/account/second-factors/passkeys/${first!.id}`, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    const removed = await a.call('DELETE', `/account/second-factors/passkeys/${second!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().secondFactor.methods).toEqual(['passkey']);
    const last = await a.call('DELETE', `/account/second-factors/passkeys/${first!.id}`);
    expect(last.statusCode).toBe(409);
    expect(problem(last)).toBe('last-factor-required');
    // The removed passkey no longer signs in.
    const b = (await signIn('holding')).agent;
    const challenge = await b.call('POST', '/session/second-factor/challenge');
    const gone = await b.call('POST', '/session/second-factor', {
      method: 'passkey',
      response: forced(phone, challenge.json().options),
    });
    expect(gone.statusCode).toBe(400);
  });

  it('renews the recovery codes after a fresh factor: the old ones stop working', async () => {
    const a = (await signIn('holding')).agent;
    expect((await assertWith(a, laptop)).res.statusCode).toBe(200);
    const renewed = await a.call('POST', '/account/second-factors/recovery-codes');
    expect(renewed.statusCode).toBe(200);
    const codes = renewed.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(renewed.json().secondFactor.recoveryCodesLeft).toBe(10);
    const b = (await signIn('holding')).agent;
    const used = await b.call('POST', '/session/second-factor', { method: 'recovery', code: codes[3] });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().secondFactor.recoveryCodesLeft).toBe(9);
  });
});

describe('a change of factors made in another session', () => {
  it('leaves a session signed in before a factor was added unable to make recovery codes or remove it', async () => {
    const older = (await signIn('pelapor')).agent;
    expect((await older.call('GET', '/account/second-factors')).json().secondFactor.methods).toEqual([]);
    const owner = (await signIn('pelapor')).agent;
    await enrolTotp(owner);
    const codes = await older.call('POST', '/account/second-factors/recovery-codes');
    expect(codes.statusCode, codes.body).toBe(401);
    const removed = await older.call('DELETE', '/account/second-factors/totp');
    expect(removed.statusCode, removed.body).toBe(401);
    expect(problem(removed)).toBe('unauthorized');
    expect((await owner.call('GET', '/account/second-factors')).json().totp).not.toBeNull();
  });

  it('asks a cookie that lists no factor for a recent one when the store holds one', async () => {
    const a = (await signIn('analis.direksi')).agent;
    const { secret } = await enrolTotp(a);
    // The same live session as its cookie read before the factor: no method listed, none used.
    const stale = agent(
      t.app,
      withFactorClaim(t.app, a.cookie(), (f) => ({ ...f, at: null, m: [], r: 0 })),
    );
    for (const [method, path] of [
      ['POST', '/account/second-factors/recovery-codes'],
      ['DELETE', '/account/second-factors/totp'],
      ['POST', '/account/second-factors/passkeys/options'],
      ['POST', '/account/second-factors/totp'],
    ] as const) {
      const res = await stale.call(method, path);
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(401);
      expect(problem(res)).toBe('step-up-required');
    }
    // The refusal told the session what the account has, so the prompt offers it.
    expect((await stale.call('GET', '/session')).json().secondFactor.methods).toEqual(['totp']);
    const verified = await stale.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(secret, 30),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await stale.call('POST', '/account/second-factors/recovery-codes')).statusCode).toBe(200);
  });

  it('sends a session at its enrolment step to the verify step once the account has a factor', async () => {
    const first = (await signIn('analis.spi')).agent;
    await enrolTotp(first);
    const next = await signIn('analis.spi');
    expect(next.reply.secondFactor.status).toBe('verify');
    // As a cookie signed before the factor existed reads: still at its enrolment step.
    const late = agent(
      t.app,
      withFactorClaim(t.app, next.agent.cookie(), (f) => ({ ...f, s: 'enrol', m: [], r: 0 })),
    );
    const options = await late.call('POST', '/account/second-factors/passkeys/options');
    expect(options.statusCode, options.body).toBe(401);
    expect(problem(options)).toBe('second-factor-required');
    expect((await late.call('GET', '/session')).json().secondFactor).toMatchObject({
      status: 'verify',
      methods: ['totp'],
    });
    expect(problem(await late.call('POST', '/account/second-factors/totp'))).toBe('second-factor-required');
  });

  it('ends the other sessions of the account when it renews its codes, adds or removes a factor', async () => {
    const key = softwarePasskey('admin.pakuan', { origin: ORIGIN });
    const owner = (await signIn('admin.pakuan')).agent;
    const { recoveryCodes } = await enrolTotp(owner);
    const codes = [...(recoveryCodes ?? [])];
    /** Another browser of the same account, signed in fully with a recovery code. */
    const another = async () => {
      const other = (await signIn('admin.pakuan')).agent;
      const res = await other.call('POST', '/session/second-factor', {
        method: 'recovery',
        code: codes.pop(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await other.call('GET', '/notices')).statusCode).toBe(200);
      return other;
    };

    let other = await another();
    const renewed = await owner.call('POST', '/account/second-factors/recovery-codes');
    expect(renewed.statusCode, renewed.body).toBe(200);
    codes.splice(0, codes.length, ...(renewed.json().recoveryCodes as string[]));
    expect(problem(await other.call('GET', '/notices'))).toBe('unauthorized');
    expect((await owner.call('GET', '/notices')).statusCode).toBe(200);

    other = await another();
    expect((await register(owner, key, 'Kunci')).statusCode).toBe(201);
    expect(problem(await other.call('GET', '/notices'))).toBe('unauthorized');

    other = await another();
    const [passkey] = (await owner.call('GET', '/account/second-factors')).json().passkeys as {
      id: string;
    }[];
    expect((await owner.call('DELETE', `/account/second-factors/passkeys/${passkey!.id}`)).statusCode).toBe(
      200,
    );
    expect(problem(await other.call('GET', '/notices'))).toBe('unauthorized');
    expect((await owner.call('GET', '/notices')).statusCode).toBe(200);
  });
});
