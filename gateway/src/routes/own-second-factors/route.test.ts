/**
 * The user's own factors through the gateway: passkeys (a deterministic software authenticator,
 * scripts/support/passkey.ts, checked by the real @simplewebauthn/server), several per account, named,
 * renamed and removed; replays and foreign credentials refused; nobody reaches another user's factors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softwarePasskey } from '../../../../scripts/support/passkey.ts';
import { buildTestApp, demoAccount, ORIGIN, type TestApp } from '../../test/helpers.ts';
import { type Agent, passwordSignIn } from '../../test/second-factor.ts';

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
