/**
 * The second factor (TOTP, passkeys, recovery codes; shared/src/api/second-factor.ts): a password alone
 * reaches no protected route of the OpenAPI document; a code is good once; guessing codes meets the
 * limits; nobody changes another account's factors (no route takes a user id; a reset only by the
 * account's manager); enrolment and removal refuse cross-site requests; the last factor of an account
 * that must have one stays; a factor used more than ten minutes ago asks for a new one before a
 * sensitive action, whatever methods the cookie lists (the store decides); a change of factors ends the
 * account's other sessions; a run of wrong codes meets the account's cap and tells the owner.
 *
 * Accounts: every case that changes factors works on analysts it creates itself (company 1, through
 * admin.kahuripan, then their initial password changed): `faktor.*`, used by no other case. The demo
 * accounts only sign in (their passkeys were registered by the suite's first sign-in) and, in the
 * cross-account case, attack. TOTP codes are computed with otplib, as an authenticator app does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { SecondFactorState } from '../../../shared/src/api/second-factor.ts';
import { PROBLEM_MESSAGES } from '../../../shared/src/messages.ts';
import { type Call, CookieJar, signInFully } from '../../support/http.ts';
import { softwarePasskey } from '../../support/passkey.ts';
import { repoRoot } from '../../system.ts';
import {
  type AttackCase,
  changePassword,
  cookieFrom,
  expect,
  json,
  problemType,
  type Reply,
  SUBJECTS,
  type Tools,
} from '../support.ts';
import { parts, signed } from './sessions.ts';

const PASSWORD = 'Faktor#Uji-2026a';
const NONE = 999_999;
const NONE_UUID = '00000000-0000-4000-8000-000000000000';
const STEP_UP_SECONDS = 600;

/** The accounts' password, TOTP secrets and recovery codes the cases saw: no log line may hold one. */
export const secondFactorSecrets: string[] = [PASSWORD];

// ── a browser: one client address, the cookies the gateway set ─────────────────────────────────────

class Browser {
  readonly t: Tools;
  readonly jar: CookieJar;
  readonly address: string;

  constructor(t: Tools, jar = new CookieJar(), address = t.nextAddress()) {
    this.t = t;
    this.jar = jar;
    this.address = address;
  }

  /** Same-origin, with the cookies kept so far; the reply's cookies are kept. */
  async send(c: Call, from = this.address): Promise<Reply> {
    const reply = await this.t.send({ ...c, cookie: this.jar.header(), address: from });
    this.jar.take(reply);
    return reply;
  }

  get cookie(): string {
    return this.jar.get('wbs_session') ?? '';
  }
}

/** The password step alone, as a browser (its own address): the session and where its factor stands. */
async function passwordOnly(
  t: Tools,
  username: string,
  password: string,
): Promise<{ browser: Browser; secondFactor: SecondFactorState }> {
  const browser = new Browser(t);
  const reply = await browser.send({ path: '/api/v1/session', json: { username, password } });
  expect(reply.status === 200 && browser.cookie, `sign-in of ${username}: HTTP ${reply.status}`);
  const { secondFactor } = json<{ secondFactor?: SecondFactorState }>(reply);
  expect(secondFactor, `sign-in of ${username}: no secondFactor in the reply`);
  return { browser, secondFactor };
}

/** A full session (password, then the software passkey, registered at the first sign-in), as a browser. */
async function fullSession(t: Tools, username: string, password: string): Promise<Browser> {
  const address = t.nextAddress();
  const { cookie } = await signInFully(t.baseUrl, username, password, t.signInOptions(address));
  const jar = new CookieJar();
  jar.take({ status: 200, headers: { 'set-cookie': cookie }, text: '', ms: 0 });
  return new Browser(t, jar, address);
}

const codeAt = (secret: string, epochSeconds: number) => generate({ secret, epoch: epochSeconds });
const nowSeconds = () => Math.floor(Date.now() / 1000);
/**
 * A code the gateway takes now that is later than any step used so far (the next 30-second step: one
 * step of drift is accepted either way).
 */
const nextCode = (secret: string) => codeAt(secret, nowSeconds() + 30);

const refusedAs = (reply: Reply, status: number, type: string) =>
  reply.status === status && problemType(reply) === type;
const described = (reply: Reply) => `${reply.status} ${problemType(reply) ?? reply.text.slice(0, 80)}`;

// ── accounts of this file ───────────────────────────────────────────────────────────────────────────

type Account = { username: string; password: string; recordId: number };
const accounts = new Map<string, Promise<Account>>();

/**
 * Analyst `faktor.<key>` of company 1, created by admin.kahuripan with its initial password changed
 * (through the single-use ticket): an account of a type that must have a factor, with none yet.
 */
function account(t: Tools, key: string): Promise<Account> {
  let made = accounts.get(key);
  if (!made) {
    made = createAnalyst(t, key);
    made.catch(() => accounts.delete(key));
    accounts.set(key, made);
  }
  return made;
}

async function createAnalyst(t: Tools, key: string): Promise<Account> {
  const username = `faktor.${key}`;
  const created = await t.send({
    path: '/api/v1/analysts',
    json: {
      fullName: `Analis Faktor ${key}`,
      username,
      email: `${username}@wbs.example.id`,
      roleId: 1,
      caseLineId: 1,
    },
    as: 'admin.kahuripan',
  });
  expect(created.status === 201, `creating ${username}: ${created.status} ${created.text.slice(0, 160)}`);
  const { id, initialPassword } = json<{ id: number | null; initialPassword: string | null }>(created);
  expect(id && initialPassword, `creating ${username}: no id or initial password`);
  const first = await t.send({ path: '/api/v1/session', json: { username, password: initialPassword } });
  const ticket = cookieFrom(first, 'wbs_pwchange');
  expect(ticket, `first sign-in of ${username}: ${first.status}, no ticket`);
  const changed = await changePassword(t, ticket, initialPassword, PASSWORD);
  expect(changed.status === 200, `password change of ${username}: ${changed.status}`);
  return { username, password: PASSWORD, recordId: id };
}

type TotpAccount = Account & { secret: string; recoveryCodes: string[] };
const totpAccounts = new Map<string, Promise<TotpAccount>>();

/** `faktor.<key>` with an authenticator app enrolled at its first sign-in (and its recovery codes). */
function totpAccount(t: Tools, key: string): Promise<TotpAccount> {
  let made = totpAccounts.get(key);
  if (!made) {
    made = (async () => {
      const base = await account(t, key);
      const { browser, secondFactor } = await passwordOnly(t, base.username, base.password);
      expect(secondFactor.status === 'enrol', `${base.username} signs in at ${secondFactor.status}`);
      const started = await browser.send({ path: '/api/v1/account/second-factors/totp', json: {} });
      expect(started.status === 200, `starting TOTP: ${described(started)}`);
      const { secret } = json<{ secret: string }>(started);
      secondFactorSecrets.push(secret);
      const confirmed = await browser.send({
        method: 'PUT',
        path: '/api/v1/account/second-factors/totp',
        json: { code: await codeAt(secret, nowSeconds()) },
      });
      expect(confirmed.status === 200, `confirming TOTP: ${described(confirmed)}`);
      const reply = json<{ secondFactor: SecondFactorState; recoveryCodes: string[] | null }>(confirmed);
      expect(reply.secondFactor.status === 'done', `after TOTP enrolment: ${reply.secondFactor.status}`);
      expect(reply.recoveryCodes?.length === 10, 'the first factor brought no ten recovery codes');
      for (const code of reply.recoveryCodes) secondFactorSecrets.push(code, code.replace(/-/g, ''));
      return { ...base, secret, recoveryCodes: reply.recoveryCodes };
    })();
    made.catch(() => totpAccounts.delete(key));
    totpAccounts.set(key, made);
  }
  return made;
}

/** The account's own factors as it reads them. */
async function ownFactors(browser: Browser) {
  const reply = await browser.send({ path: '/api/v1/account/second-factors' });
  expect(reply.status === 200, `GET /account/second-factors: ${described(reply)}`);
  return json<{
    secondFactor: SecondFactorState;
    totp: { createdAt: string } | null;
    passkeys: { id: string; name: string }[];
  }>(reply);
}

// ── the OpenAPI document ────────────────────────────────────────────────────────────────────────────

type Operation = {
  method: string;
  path: string;
  anonymous: boolean;
  parameters: { name: string; in: string }[];
  bodyProperties: string[];
};

type Schema = {
  $ref?: string;
  properties?: Record<string, unknown>;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};

function operations(): Operation[] {
  type Parameter = { $ref?: string; name: string; in: string };
  type Op = {
    'x-allowed-subjects'?: string[];
    parameters?: Parameter[];
    requestBody?: { content?: Record<string, { schema?: Schema }> };
    responses?: unknown;
  };
  const doc = JSON.parse(readFileSync(join(repoRoot, 'openapi', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, Op>>;
  };
  /** `#/components/…` references followed to what they name. */
  const resolve = <T extends { $ref?: string }>(value: T): T => {
    if (!value.$ref?.startsWith('#/')) return value;
    let target: unknown = doc;
    for (const key of value.$ref.slice(2).split('/')) target = (target as Record<string, unknown>)[key];
    return resolve(target as T);
  };
  /** The body's own property names, over every variant (not the properties of its values). */
  const propertiesOf = (schema: Schema | undefined, depth = 0): string[] => {
    if (!schema || depth > 5) return [];
    const s = resolve(schema);
    return [
      ...Object.keys(s.properties ?? {}),
      ...[...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])].flatMap((v) =>
        propertiesOf(v, depth + 1),
      ),
    ];
  };
  const found: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (typeof op !== 'object' || !op.responses) continue;
      found.push({
        method: method.toUpperCase(),
        path,
        // Open to a signed-out visitor: a pending session is one there, as designed.
        anonymous: (op['x-allowed-subjects'] ?? []).some((s) => s.startsWith('anonim')),
        parameters: (op.parameters ?? []).map(resolve),
        bodyProperties: Object.values(op.requestBody?.content ?? {}).flatMap((c) => propertiesOf(c.schema)),
      });
    }
  }
  return found;
}

const keyOf = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

/** A path to call: a passkey id that exists nowhere, other ids that name no record. */
const concrete = (path: string) =>
  path.replace('/passkeys/{id}', `/passkeys/${NONE_UUID}`).replace(/\{\w+\}/g, String(NONE));

/** The routes of each pending step (the rest answers such a session 401 `second-factor-required`). */
const STEP_ROUTES = {
  verify: ['POST /api/v1/session/second-factor/challenge', 'POST /api/v1/session/second-factor'],
  enrol: [
    'GET /api/v1/account/second-factors',
    'POST /api/v1/account/second-factors/totp',
    'PUT /api/v1/account/second-factors/totp',
    'POST /api/v1/account/second-factors/passkeys/options',
    'POST /api/v1/account/second-factors/passkeys',
  ],
} as const;

/**
 * Every route of the document that a signed-out visitor may not use, called with the pending session
 * (a body of `{}` where there is one: the gate comes before any validation); what answered otherwise.
 */
async function sweep(
  browser: Browser,
  step: keyof typeof STEP_ROUTES,
): Promise<{ tried: number; wrong: string[] }> {
  const all = operations();
  const own: readonly string[] = STEP_ROUTES[step];
  for (const route of own)
    expect(
      all.some((o) => keyOf(o) === route),
      `${route} is not in openapi.json`,
    );
  const wrong: string[] = [];
  let tried = 0;
  for (const op of all.filter((o) => !o.anonymous && !own.includes(keyOf(o)))) {
    tried++;
    const reply = await browser.send({
      method: op.method,
      path: concrete(op.path),
      ...(['POST', 'PUT', 'PATCH'].includes(op.method) ? { json: {} } : {}),
    });
    if (!refusedAs(reply, 401, 'second-factor-required')) wrong.push(`${keyOf(op)} → ${described(reply)}`);
  }
  return { tried, wrong };
}

const sweepResult = ({ tried, wrong }: { tried: number; wrong: string[] }) => {
  expect(tried > 60, `only ${tried} protected routes in openapi.json`);
  expect(
    wrong.length === 0,
    `${wrong.length} of ${tried} routes answered otherwise: ${wrong.slice(0, 4).join('; ')}`,
  );
};

// ── the cases ───────────────────────────────────────────────────────────────────────────────────────

const STAFF_SUBJECTS = ['admin', 'admin.kahuripan', 'holding', 'analis.direksi', 'staff.holding'];

export const secondFactorCases: AttackCase[] = [
  ...STAFF_SUBJECTS.map(
    (username): AttackCase => ({
      area: 'second-factor',
      name: `${username} with the password alone (verify): every protected route of openapi.json → 401 second-factor-required, then the passkey completes the same session`,
      async run(t) {
        const subject = SUBJECTS.find((s) => s.username === username);
        expect(subject, `${username} is not a demo subject`);
        const { browser, secondFactor } = await passwordOnly(t, username, subject.password);
        expect(
          secondFactor.status === 'verify' && secondFactor.methods.includes('passkey'),
          `signed in at ${secondFactor.status} (${secondFactor.methods.join(',')})`,
        );
        sweepResult(await sweep(browser, 'verify'));
        // The refusals left the session pending, not ended: the step's own routes complete it.
        const challenge = await browser.send({ path: '/api/v1/session/second-factor/challenge', json: {} });
        expect(challenge.status === 200, `challenge: ${described(challenge)}`);
        const passkey = softwarePasskey(username, { origin: t.publicUrl });
        const verified = await browser.send({
          path: '/api/v1/session/second-factor',
          json: {
            method: 'passkey',
            response: passkey.authenticate(json<{ options: Record<string, unknown> }>(challenge).options),
          },
        });
        expect(verified.status === 200, `the passkey after the sweep: ${described(verified)}`);
        const whole = await browser.send({ path: '/api/v1/case-lines' });
        expect(whole.status === 200, `a protected route after the factor: ${described(whole)}`);
      },
    }),
  ),
  {
    area: 'second-factor',
    name: 'an account that must enrol, with the password alone (enrol): every route but enrolment → 401 second-factor-required',
    async run(t) {
      const { username, password } = await account(t, 'daftar');
      const { browser, secondFactor } = await passwordOnly(t, username, password);
      expect(
        secondFactor.status === 'enrol' && secondFactor.required && secondFactor.methods.length === 0,
        `signed in at ${secondFactor.status}, required ${secondFactor.required}`,
      );
      sweepResult(await sweep(browser, 'enrol'));
      // Its own routes answer it, and it is still waiting for a factor.
      expect(
        (await ownFactors(browser)).secondFactor.status === 'enrol',
        'the enrolment list is not at enrol',
      );
      const options = await browser.send({
        path: '/api/v1/account/second-factors/passkeys/options',
        json: {},
      });
      expect(options.status === 200, `passkey options: ${described(options)}`);
      const session = json<{ secondFactor: SecondFactorState | null }>(
        await browser.send({ path: '/api/v1/session' }),
      );
      expect(session.secondFactor?.status === 'enrol', `GET /session: ${session.secondFactor?.status}`);
    },
  },
  {
    area: 'second-factor',
    name: 'a TOTP code that signed in is refused when used again (another session, and as step-up)',
    async run(t) {
      const { username, password, secret } = await totpAccount(t, 'totp');
      const first = await passwordOnly(t, username, password);
      expect(
        first.secondFactor.status === 'verify' && first.secondFactor.methods.includes('totp'),
        `signed in at ${first.secondFactor.status}`,
      );
      const code = await nextCode(secret);
      const used = await first.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code },
      });
      expect(used.status === 200, `the first use: ${described(used)}`);

      const second = await passwordOnly(t, username, password);
      const replayed = await second.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code },
      });
      expect(refusedAs(replayed, 400, 'second-factor-failed'), `the replay: ${described(replayed)}`);
      const detail = json<{ detail?: string }>(replayed).detail;
      expect(detail === PROBLEM_MESSAGES.secondFactorReplay, `the replay's detail: ${detail}`);
      const stillPending = await second.browser.send({ path: '/api/v1/case-lines' });
      expect(
        refusedAs(stillPending, 401, 'second-factor-required'),
        `after the replay: ${described(stillPending)}`,
      );
      const asStepUp = await first.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code },
      });
      expect(
        refusedAs(asStepUp, 400, 'second-factor-failed'),
        `the replay as step-up: ${described(asStepUp)}`,
      );
    },
  },
  {
    area: 'second-factor',
    name: 'a recovery code works once: used again (also respelt) it is refused',
    async run(t) {
      const { username, password, recoveryCodes } = await totpAccount(t, 'totp');
      const [code, another] = recoveryCodes;
      expect(code && another, 'no recovery codes');
      const first = await passwordOnly(t, username, password);
      const used = await first.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'recovery', code },
      });
      expect(used.status === 200, `the first use: ${described(used)}`);
      const left = json<{ secondFactor: SecondFactorState }>(used).secondFactor.recoveryCodesLeft;
      expect(
        left === first.secondFactor.recoveryCodesLeft - 1,
        `codes left ${first.secondFactor.recoveryCodesLeft} → ${left}`,
      );

      const second = await passwordOnly(t, username, password);
      for (const spelling of [code, ` ${code.toUpperCase().replace('-', ' ')} `]) {
        const again = await second.browser.send({
          path: '/api/v1/session/second-factor',
          json: { method: 'recovery', code: spelling },
        });
        expect(refusedAs(again, 400, 'second-factor-failed'), `the used code again: ${described(again)}`);
      }
      // An unused code still works: the refusal was about that code.
      const fresh = await second.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'recovery', code: another },
      });
      expect(fresh.status === 200, `an unused code: ${described(fresh)}`);
    },
  },
  {
    area: 'second-factor',
    name: 'guessing TOTP codes: 429 rate-limited with Retry-After from one client (the right code too), and from many the per-user ceiling',
    async run(t) {
      const { username, password, secret, recoveryCodes } = await totpAccount(t, 'tebak');
      const { browser } = await passwordOnly(t, username, password);
      const guess = (code: string, from?: string) =>
        browser.send({ path: '/api/v1/session/second-factor', json: { method: 'totp', code } }, from);
      let limited: Reply | undefined;
      let guesses = 0;
      for (let i = 0; i < 12 && !limited; i++) {
        const reply = await guess(String(100_000 + i * 7919).slice(0, 6));
        guesses++;
        if (reply.status === 429) limited = reply;
        else expect(refusedAs(reply, 400, 'second-factor-failed'), `guess ${i + 1}: ${described(reply)}`);
      }
      expect(limited, '12 wrong codes from one client were all checked');
      expect(problemType(limited) === 'rate-limited', `the refusal: ${described(limited)}`);
      expect(Number(limited.headers['retry-after']) > 0, 'no Retry-After');
      expect(guesses <= 8, `${guesses - 1} wrong codes before the limit`);
      const right = await guess(await nextCode(secret));
      expect(right.status === 429, `the right code while limited: ${described(right)}`);

      // The same account from ever new client addresses: each has its own free failures, the user a
      // ceiling over all of them. That ceiling counts every failure of its window; the account's cap
      // on a run of wrong codes (the next case) would come first, so a recovery code ends the run
      // every two rounds, as the owner signing in between would.
      const codes = [...recoveryCodes];
      let ceiling = false;
      const recover = async () => {
        const reply = await browser.send(
          { path: '/api/v1/session/second-factor', json: { method: 'recovery', code: codes.pop() } },
          t.nextAddress(),
        );
        if (reply.status === 429) ceiling = problemType(reply) === 'rate-limited';
        else expect(reply.status === 200, `a recovery code between the rounds: ${described(reply)}`);
      };
      await recover();
      for (let round = 0; round < 10 && !ceiling; round++) {
        if (round % 2 === 1) await recover();
        if (ceiling) break;
        const from = t.nextAddress();
        const replies = await Promise.all(
          Array.from({ length: 5 }, (_, i) => guess(String(200_000 + round * 10 + i), from)),
        );
        for (const reply of replies) {
          if (reply.status === 429) ceiling = problemType(reply) === 'rate-limited';
          else expect(refusedAs(reply, 400, 'second-factor-failed'), `a guess: ${described(reply)}`);
        }
      }
      expect(ceiling, '50 wrong codes from 10 fresh addresses met no per-user ceiling');
    },
  },
  {
    area: 'second-factor',
    name: "another user's passkey id: rename and removal → 404, the passkey unchanged; no route of the own factors takes a user",
    async run(t) {
      const victim = await account(t, 'korban');
      const owner = await fullSession(t, victim.username, victim.password);
      const before = await ownFactors(owner);
      const target = before.passkeys[0];
      expect(target, 'the victim has no passkey');
      for (const attacker of ['analis.spi', 'admin.kahuripan']) {
        const renamed = await t.send({
          method: 'PATCH',
          path: `/api/v1/account/second-factors/passkeys/${target.id}`,
          json: { name: 'Milik penyerang' },
          as: attacker,
        });
        expect(renamed.status === 404, `${attacker} renaming it: ${described(renamed)}`);
        const removed = await t.send({
          method: 'DELETE',
          path: `/api/v1/account/second-factors/passkeys/${target.id}`,
          as: attacker,
        });
        expect(removed.status === 404, `${attacker} removing it: ${described(removed)}`);
      }
      const after = await ownFactors(owner);
      expect(
        after.passkeys.length === before.passkeys.length &&
          after.passkeys.some((p) => p.id === target.id && p.name === target.name),
        `the victim's passkeys changed: ${JSON.stringify(after.passkeys)}`,
      );
      // No route of the own factors or of the step names a user: they work on the session's account.
      const own = operations().filter((o) => /^\/api\/v1\/(account|session)\/second-factors?\b/.test(o.path));
      expect(own.length >= 10, `only ${own.length} own-factor routes in openapi.json`);
      for (const op of own) {
        const params = op.parameters.filter(
          (p) =>
            !(p.in === 'path' && p.name === 'id' && op.path.includes('/passkeys/')) &&
            !(p.in === 'header' && p.name.toLowerCase() === 'x-request-id'),
        );
        expect(
          params.length === 0,
          `${keyOf(op)} takes ${params.map((p) => `${p.in} ${p.name}`).join(', ')}`,
        );
        const named = op.bodyProperties.filter((p) => /user|account|owner|subject/i.test(p));
        expect(named.length === 0, `${keyOf(op)}'s body takes ${named.join(', ')}`);
      }
      // The bodies were read (their references followed): the step's names its method and code.
      const step = own.find((o) => keyOf(o) === 'POST /api/v1/session/second-factor');
      expect(
        step?.bodyProperties.includes('method') && step.bodyProperties.includes('code'),
        `the step's body reads as ${step?.bodyProperties.join(', ')}`,
      );
    },
  },
  {
    area: 'second-factor',
    name: "an account's factors are reset only by its manager: another company's admin 404, a partner 403; the manager's reset ends its sessions",
    async run(t) {
      const victim = await account(t, 'reset');
      const owner = await fullSession(t, victim.username, victim.password);
      const path = `/api/v1/analysts/${victim.recordId}/second-factor-reset`;
      const otherCompany = await t.send({ path, json: {}, as: 'admin.pakuan' });
      expect(otherCompany.status === 404, `admin.pakuan: ${described(otherCompany)}`);
      const partner = await t.send({ path, json: {}, as: 'holding' });
      expect(partner.status === 403, `holding: ${described(partner)}`);
      const ownReset = await owner.send({ path, json: {} });
      expect(ownReset.status === 403, `the analyst itself: ${described(ownReset)}`);
      expect((await ownFactors(owner)).passkeys.length === 1, 'the passkey is gone after refused resets');

      const manager = await t.send({ path, json: {}, as: 'admin.kahuripan' });
      expect(manager.status === 200, `admin.kahuripan: ${described(manager)}`);
      const ended = await owner.send({ path: '/api/v1/case-lines' });
      expect(ended.status === 401, `the analyst's session after the reset: ${described(ended)}`);
      const again = await passwordOnly(t, victim.username, victim.password);
      expect(again.secondFactor.status === 'enrol', `the next sign-in is at ${again.secondFactor.status}`);
    },
  },
  {
    area: 'second-factor',
    name: 'enrolment from another site (Origin, Sec-Fetch-Site) → 403 csrf, nothing enrolled',
    async run(t) {
      const { username, password } = await account(t, 'silang');
      const { browser, secondFactor } = await passwordOnly(t, username, password);
      expect(secondFactor.status === 'enrol', `signed in at ${secondFactor.status}`);
      const options = await browser.send({
        path: '/api/v1/account/second-factors/passkeys/options',
        json: {},
      });
      expect(options.status === 200, `passkey options: ${described(options)}`);
      const response = softwarePasskey(username, { origin: t.publicUrl }).register(
        json<{ options: Record<string, unknown> }>(options).options,
      );
      const foreign: [string, Record<string, string>][] = [
        ['Origin https://evil.example', { origin: 'https://evil.example' }],
        ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
        ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
      ];
      const calls: Call[] = [
        { path: '/api/v1/account/second-factors/passkeys/options', json: {} },
        { path: '/api/v1/account/second-factors/passkeys', json: { name: 'Dari situs lain', response } },
        { path: '/api/v1/account/second-factors/totp', json: {} },
        { method: 'PUT', path: '/api/v1/account/second-factors/totp', json: { code: '123456' } },
      ];
      for (const [label, headers] of foreign) {
        for (const c of calls) {
          const reply = await browser.send({ ...c, headers });
          expect(
            refusedAs(reply, 403, 'csrf'),
            `${c.method ?? 'POST'} ${c.path} with ${label}: ${described(reply)}`,
          );
        }
      }
      const after = await ownFactors(browser);
      expect(
        after.passkeys.length === 0 && after.totp === null && after.secondFactor.status === 'enrol',
        `enrolled: ${JSON.stringify(after)}`,
      );
    },
  },
  {
    area: 'second-factor',
    name: 'removal, renaming, new recovery codes and the step-up from another site → 403 csrf, nothing changed',
    async run(t) {
      const { username, password } = await account(t, 'hapus');
      const browser = await fullSession(t, username, password);
      const before = await ownFactors(browser);
      const passkey = before.passkeys[0];
      expect(passkey, 'no passkey');
      const calls: Call[] = [
        { method: 'DELETE', path: `/api/v1/account/second-factors/passkeys/${passkey.id}` },
        {
          method: 'PATCH',
          path: `/api/v1/account/second-factors/passkeys/${passkey.id}`,
          json: { name: 'Diubah' },
        },
        { method: 'DELETE', path: '/api/v1/account/second-factors/totp' },
        { path: '/api/v1/account/second-factors/recovery-codes', json: {} },
        { path: '/api/v1/session/second-factor/challenge', json: {} },
        { path: '/api/v1/session/second-factor', json: { method: 'totp', code: '123456' } },
      ];
      const foreign: [string, Record<string, string>][] = [
        ['Origin https://evil.example', { origin: 'https://evil.example' }],
        ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
        // A cookie without Origin or Sec-Fetch-Site: an outdated browser or a forged request.
        ['the cookie alone', { origin: '' }],
      ];
      for (const [label, headers] of foreign) {
        for (const c of calls) {
          const reply = await browser.send({ ...c, headers });
          expect(
            refusedAs(reply, 403, 'csrf'),
            `${c.method ?? 'POST'} ${c.path} with ${label}: ${described(reply)}`,
          );
        }
      }
      const after = await ownFactors(browser);
      expect(
        JSON.stringify(after.passkeys.map((p) => [p.id, p.name])) ===
          JSON.stringify(before.passkeys.map((p) => [p.id, p.name])) &&
          after.secondFactor.recoveryCodesLeft === before.secondFactor.recoveryCodesLeft,
        `changed: ${JSON.stringify(after)}`,
      );
    },
  },
  {
    area: 'second-factor',
    name: 'the last factor of an account that must have one cannot be removed: 409 last-factor-required (a second one can)',
    async run(t) {
      const { username, password } = await account(t, 'terakhir');
      const browser = await fullSession(t, username, password);
      const [passkey] = (await ownFactors(browser)).passkeys;
      expect(passkey, 'no passkey');
      const alone = await browser.send({
        method: 'DELETE',
        path: `/api/v1/account/second-factors/passkeys/${passkey.id}`,
      });
      expect(refusedAs(alone, 409, 'last-factor-required'), `removing the only passkey: ${described(alone)}`);
      expect((await ownFactors(browser)).passkeys.length === 1, 'the only passkey is gone');

      // With an authenticator app beside it, the passkey may go; then the app is the last one.
      const started = await browser.send({ path: '/api/v1/account/second-factors/totp', json: {} });
      expect(started.status === 200, `starting TOTP: ${described(started)}`);
      const { secret } = json<{ secret: string }>(started);
      secondFactorSecrets.push(secret);
      const confirmed = await browser.send({
        method: 'PUT',
        path: '/api/v1/account/second-factors/totp',
        json: { code: await codeAt(secret, nowSeconds()) },
      });
      expect(confirmed.status === 200, `confirming TOTP: ${described(confirmed)}`);
      const removed = await browser.send({
        method: 'DELETE',
        path: `/api/v1/account/second-factors/passkeys/${passkey.id}`,
      });
      expect(removed.status === 200, `removing the passkey beside TOTP: ${described(removed)}`);
      const last = await browser.send({ method: 'DELETE', path: '/api/v1/account/second-factors/totp' });
      expect(refusedAs(last, 409, 'last-factor-required'), `removing the last factor: ${described(last)}`);
      const after = await ownFactors(browser);
      expect(after.totp !== null && after.passkeys.length === 0, `left: ${JSON.stringify(after)}`);
    },
  },
  {
    area: 'second-factor',
    name: 'a factor used more than ten minutes ago (or never) → 401 step-up-required on sensitive actions (Statistik export included); a factor now lets the retry pass',
    async run(t) {
      // The session as the gateway holds it eleven minutes after its factor: the claim `f.at` of a
      // genuine session moved back and signed with the gateway's secret (as the session cases sign).
      // The same cookie re-signed with `at` now is the control: only the time of the factor differs.
      const cookie = await t.freshSession('admin.kahuripan');
      const { claims } = parts(cookie);
      const factor = claims.f as { s: string; at: number | null; m: string[]; r: number };
      expect(factor?.s === 'done' && factor.m.includes('passkey'), `claim ${JSON.stringify(factor)}`);
      const withFactorAt = (at: number | null) =>
        signed({ ...claims, f: { ...factor, at } }, t.sessionSecret);
      const now = nowSeconds();
      const stale = withFactorAt(now - STEP_UP_SECONDS - 60);
      const never = withFactorAt(null);
      const fresh = withFactorAt(now);
      const actions: Call[] = [
        { path: `/api/v1/cases/${t.fixtures.company1Case.id}/contact-reveal`, json: {} },
        { path: '/api/v1/cases/export', json: {} },
        { method: 'GET', path: '/api/v1/statistics/export?from=2026-01-01&to=2026-01-31&format=csv' },
        { method: 'DELETE', path: `/api/v1/account/second-factors/passkeys/${NONE_UUID}` },
        { path: `/api/v1/analysts/${NONE}/second-factor-reset`, json: {} },
      ];
      for (const c of actions) {
        const label = `${c.method ?? 'POST'} ${c.path}`;
        for (const [when, asked] of [
          ['11 minutes ago', stale],
          ['never', never],
        ] as const) {
          const reply = await t.send({ ...c, cookie: asked });
          expect(refusedAs(reply, 401, 'step-up-required'), `${label}, factor ${when}: ${described(reply)}`);
        }
        const control = await t.send({ ...c, cookie: fresh });
        // Past the prompt an action answers for itself (Statistik: 503 busy while the index fills).
        expect(
          control.status !== 401 &&
            control.status !== 403 &&
            (control.status < 500 || problemType(control) === 'busy'),
          `${label}, factor now: ${described(control)}`,
        );
      }
      // The prompt: the factor in the same session, then the same request again.
      const browser = new Browser(t);
      browser.jar.take({ status: 200, headers: { 'set-cookie': stale }, text: '', ms: 0 });
      const challenge = await browser.send({ path: '/api/v1/session/second-factor/challenge', json: {} });
      expect(challenge.status === 200, `challenge of the stale session: ${described(challenge)}`);
      const renewed = await browser.send({
        path: '/api/v1/session/second-factor',
        json: {
          method: 'passkey',
          response: softwarePasskey('admin.kahuripan', { origin: t.publicUrl }).authenticate(
            json<{ options: Record<string, unknown> }>(challenge).options,
          ),
        },
      });
      expect(renewed.status === 200, `the step-up: ${described(renewed)}`);
      const retried = await browser.send(actions[0] as Call);
      expect(retried.status === 400, `the retry after the step-up: ${described(retried)}`);
    },
  },
  {
    area: 'second-factor',
    name: 'a cookie listing no factor (as one signed before the account had one): adding, removing and new recovery codes → 401 step-up-required, decided from the store; an enrolment-step cookie → the verify step',
    async run(t) {
      const { username, password, secret } = await totpAccount(t, 'basi');
      const first = await passwordOnly(t, username, password);
      const verified = await first.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code: await nextCode(secret) },
      });
      expect(verified.status === 200, `the factor: ${described(verified)}`);
      // The same live session, its claim as signed when the account had no factor yet: none listed,
      // none used (the issue's password-only session of another browser).
      const { claims } = parts(first.browser.cookie);
      const factor = claims.f as { s: string; at: number | null; m: string[]; r: number };
      const stale = signed({ ...claims, f: { ...factor, at: null, m: [], r: 0 } }, t.sessionSecret);
      const calls: Call[] = [
        { path: '/api/v1/account/second-factors/recovery-codes', json: {} },
        { method: 'DELETE', path: '/api/v1/account/second-factors/totp' },
        { path: '/api/v1/account/second-factors/passkeys/options', json: {} },
        { path: '/api/v1/account/second-factors/totp', json: {} },
      ];
      for (const c of calls) {
        const reply = await t.send({ ...c, cookie: stale });
        expect(
          refusedAs(reply, 401, 'step-up-required'),
          `${c.method ?? 'POST'} ${c.path} with a claim listing no factor: ${described(reply)}`,
        );
      }
      const after = await ownFactors(first.browser);
      expect(
        after.totp !== null && after.secondFactor.recoveryCodesLeft === 10,
        `changed: ${JSON.stringify(after)}`,
      );

      // A session at its enrolment step once the account has a factor: it must give that factor.
      const pending = await passwordOnly(t, username, password);
      expect(pending.secondFactor.status === 'verify', `signed in at ${pending.secondFactor.status}`);
      const asEnrol = parts(pending.browser.cookie).claims;
      const late = new Browser(t);
      late.jar.take({
        status: 200,
        headers: {
          'set-cookie': signed({ ...asEnrol, f: { s: 'enrol', at: null, m: [], r: 0 } }, t.sessionSecret),
        },
        text: '',
        ms: 0,
      });
      const options = await late.send({ path: '/api/v1/account/second-factors/passkeys/options', json: {} });
      expect(refusedAs(options, 401, 'second-factor-required'), `enrolment options: ${described(options)}`);
      const state = json<{ secondFactor: SecondFactorState | null }>(
        await late.send({ path: '/api/v1/session' }),
      );
      expect(state.secondFactor?.status === 'verify', `the late session is at ${state.secondFactor?.status}`);
    },
  },
  {
    area: 'second-factor',
    name: "a change of factors ends the account's other sessions: new recovery codes, a passkey added, a passkey removed → the other browser 401",
    async run(t) {
      const { username, password, recoveryCodes } = await totpAccount(t, 'lain');
      const codes = [...recoveryCodes];
      /** A browser signed in fully with a recovery code. */
      const signedIn = async () => {
        const { browser } = await passwordOnly(t, username, password);
        const reply = await browser.send({
          path: '/api/v1/session/second-factor',
          json: { method: 'recovery', code: codes.pop() },
        });
        expect(reply.status === 200, `a recovery code: ${described(reply)}`);
        expect((await browser.send({ path: '/api/v1/case-lines' })).status === 200, 'not signed in fully');
        return browser;
      };
      const owner = await signedIn();
      const endedBy = async (change: string, other: Browser) => {
        const reply = await other.send({ path: '/api/v1/case-lines' });
        expect(
          refusedAs(reply, 401, 'unauthorized'),
          `the other browser after ${change}: ${described(reply)}`,
        );
        const still = await owner.send({ path: '/api/v1/case-lines' });
        expect(still.status === 200, `the browser that made ${change}: ${described(still)}`);
      };

      let other = await signedIn();
      const renewed = await owner.send({ path: '/api/v1/account/second-factors/recovery-codes', json: {} });
      expect(renewed.status === 200, `new recovery codes: ${described(renewed)}`);
      const fresh = json<{ recoveryCodes: string[] }>(renewed).recoveryCodes;
      for (const code of fresh) secondFactorSecrets.push(code, code.replace(/-/g, ''));
      codes.splice(0, codes.length, ...fresh);
      await endedBy('new recovery codes', other);

      other = await signedIn();
      const options = await owner.send({ path: '/api/v1/account/second-factors/passkeys/options', json: {} });
      expect(options.status === 200, `passkey options: ${described(options)}`);
      const response = softwarePasskey(username, { origin: t.publicUrl }).register(
        json<{ options: Record<string, unknown> }>(options).options,
      );
      const added = await owner.send({
        path: '/api/v1/account/second-factors/passkeys',
        json: { name: 'Kunci kedua', response },
      });
      expect(added.status === 201, `adding a passkey: ${described(added)}`);
      await endedBy('a passkey added', other);

      other = await signedIn();
      const [passkey] = (await ownFactors(owner)).passkeys;
      expect(passkey, 'no passkey');
      const removed = await owner.send({
        method: 'DELETE',
        path: `/api/v1/account/second-factors/passkeys/${passkey.id}`,
      });
      expect(removed.status === 200, `removing the passkey: ${described(removed)}`);
      await endedBy('a passkey removed', other);
    },
  },
  {
    area: 'second-factor',
    name: 'a run of 20 wrong codes (from ever new addresses): the 20th ends the session (401 second-factor-locked); a new sign-in cannot use TOTP but a recovery code, the owner was told, then TOTP works again',
    async run(t) {
      const { username, password, secret, recoveryCodes } = await totpAccount(t, 'kunci');
      const { browser } = await passwordOnly(t, username, password);
      const valid = new Set(
        await Promise.all([-30, 0, 30].map((offset) => codeAt(secret, nowSeconds() + offset))),
      );
      let from = t.nextAddress();
      let last: Reply | undefined;
      for (let n = 1; n <= 20; n++) {
        // Four from each address: under each client's free failures, so only the account's cap counts.
        if (n % 4 === 1) from = t.nextAddress();
        let code = String(300_000 + n * 7919).slice(-6);
        while (valid.has(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
        last = await browser.send(
          { path: '/api/v1/session/second-factor', json: { method: 'totp', code } },
          from,
        );
        if (n < 20)
          expect(refusedAs(last, 400, 'second-factor-failed'), `wrong code ${n}: ${described(last)}`);
      }
      expect(
        last && refusedAs(last, 401, 'second-factor-locked'),
        `the 20th wrong code: ${described(last as Reply)}`,
      );
      const detail = json<{ detail?: string }>(last as Reply).detail;
      expect(detail === PROBLEM_MESSAGES.secondFactorLocked, `its detail: ${detail}`);
      const gone = json<{ user: unknown }>(await browser.send({ path: '/api/v1/session' }));
      expect(gone.user === null, 'the session that typed them is still signed in');

      const again = await passwordOnly(t, username, password);
      const right = await again.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code: await nextCode(secret) },
      });
      expect(
        refusedAs(right, 400, 'second-factor-failed'),
        `the right TOTP code after the cap: ${described(right)}`,
      );
      const why = json<{ detail?: string }>(right).detail;
      expect(why === PROBLEM_MESSAGES.totpLocked, `its detail: ${why}`);
      const recovered = await again.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'recovery', code: recoveryCodes[0] },
      });
      expect(recovered.status === 200, `a recovery code after the cap: ${described(recovered)}`);
      // The security notice, in the owner's bell (recorded right after the burst's reply).
      let told = false;
      for (let i = 0; i < 25 && !told; i++) {
        const bell = json<{ items: { kind: string }[] }>(
          await again.browser.send({ path: '/api/v1/notices' }),
        );
        told = bell.items.some((item) => item.kind === 'second-factor-failures');
        if (!told) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(told, 'no second-factor-failures notice in the owner’s bell');
      const later = await passwordOnly(t, username, password);
      const works = await later.browser.send({
        path: '/api/v1/session/second-factor',
        json: { method: 'totp', code: await nextCode(secret) },
      });
      expect(works.status === 200, `TOTP after a recovery code: ${described(works)}`);
    },
  },
];
