/**
 * The second factor end to end through the gateway (docs/product/second-factor.md): the gate of a
 * session at its verify or enrol step, TOTP enrolment and sign-in, replays, recovery codes, the
 * back-off, step-up, the last factor, resets by the account's manager, and generated garbage.
 */
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { can } from '@wbs/shared/permissions';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from '../../store/drizzle.ts';
import { browser, buildTestApp, cookieValue, demoAccount, type TestApp } from '../../test/helpers.ts';
import { type Agent, agent, enrolTotp, passwordSignIn, totpCode } from '../../test/second-factor.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    SECOND_FACTOR_TYPES: '1,2,3,4,5',
    PUBLIC_URL: 'http://localhost',
    SIGNIN_FAILURE_FLOOR_MS: '20',
  });
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

const signIn = (username: string) => passwordSignIn(t.app, username, demoAccount(username).password);
const problem = (res: { json(): unknown }) => (res.json() as { type: string }).type.split('/').pop();

/** Secrets enrolled in this file, per username (each test that needs one enrols its own account). */
const secrets = new Map<string, string>();
const recovery = new Map<string, string[]>();

async function enrolled(username: string): Promise<Agent> {
  const { agent: a, reply } = await signIn(username);
  if (reply.secondFactor.status === 'enrol') {
    const { secret, recoveryCodes } = await enrolTotp(a);
    secrets.set(username, secret);
    recovery.set(username, recoveryCodes ?? []);
    return a;
  }
  // TOTP codes of this half-minute may be used up by an earlier test: a recovery code answers once.
  const res = await a.call('POST', '/session/second-factor', {
    method: 'recovery',
    code: recovery.get(username)!.pop()!,
  });
  expect(res.statusCode, res.body).toBe(200);
  return a;
}

describe('a session at its second-factor step', () => {
  it('sends a required account without a factor to enrolment, and nowhere else', async () => {
    const { agent: a, reply } = await signIn('staff.holding2');
    expect(reply.secondFactor).toMatchObject({ status: 'enrol', required: true, methods: [] });
    const me = await a.call('GET', '/session');
    expect(me.json()).toMatchObject({
      user: { username: 'staff.holding2' },
      secondFactor: { status: 'enrol' },
    });
    const notices = await a.call('GET', '/notices');
    expect(notices.statusCode).toBe(401);
    expect(problem(notices)).toBe('second-factor-required');
    // The verify step is not the enrol step: no code is asked of an account that has none.
    expect(problem(await a.call('POST', '/session/second-factor', { method: 'totp', code: '123456' }))).toBe(
      'second-factor-required',
    );
    expect((await a.call('GET', '/account/second-factors')).statusCode).toBe(200);
  });

  it('answers every other route 401 second-factor-required (or as to a signed-out visitor)', async () => {
    const { agent: a } = await signIn('analis.spi');
    const open = new Set([
      'GET /api/v1/session',
      'DELETE /api/v1/session',
      'GET /api/v1/account/second-factors',
      'POST /api/v1/account/second-factors/totp',
      'PUT /api/v1/account/second-factors/totp',
      'POST /api/v1/account/second-factors/passkeys/options',
      'POST /api/v1/account/second-factors/passkeys',
    ]);
    const wrong: string[] = [];
    for (const route of t.routes) {
      if (!route.url.startsWith('/api/v1') || route.method === 'HEAD') continue;
      const key = `${route.method} ${route.url}`;
      if (open.has(key) || route.policy === 'public' || can(null, route.policy)) continue;
      const res = await a.call(
        route.method,
        route.url.replace('/api/v1', '').replace(/:[A-Za-z]+/g, '1'),
        {},
      );
      if (res.statusCode !== 401 || problem(res) !== 'second-factor-required') {
        wrong.push(`${key}: ${res.statusCode} ${problem(res)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('TOTP', () => {
  it('enrols with a code, then signs in with a later code only; wrong and replayed codes are refused', async () => {
    const { agent: a } = await signIn('analis.direksi');
    const started = await a.call('POST', '/account/second-factors/totp');
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri, qrSvg } = started.json();
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/WBS:analis\.direksi\?/);
    expect(qrSvg).toMatch(/<svg[^>]*>/);
    expect(qrSvg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/); // nothing to fetch
    const wrong = await a.call('PUT', '/account/second-factors/totp', { code: '000000' });
    if ((await totpCode(secret)) !== '000000') expect(wrong.statusCode).toBe(400);
    const confirm = await a.call('PUT', '/account/second-factors/totp', { code: await totpCode(secret) });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes, secondFactor } = confirm.json();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(secondFactor).toMatchObject({ status: 'done', methods: ['totp'], recoveryCodesLeft: 10 });
    expect(secondFactor.stepUpUntil).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect((await a.call('GET', '/notices')).statusCode).toBe(200);
    secrets.set('analis.direksi', secret);
    recovery.set('analis.direksi', recoveryCodes);
    // The secret is in the store only sealed.
    const store = await t.app.store.open();
    const { rows } = (await store.db.execute(sql`select * from second_factor_totp`)) as { rows: unknown[] };
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain(secret);

    const next = await signIn('analis.direksi');
    expect(next.reply.secondFactor).toMatchObject({ status: 'verify', methods: ['totp'] });
    const b = next.agent;
    // A password alone adds no factor.
    expect(problem(await b.call('POST', '/account/second-factors/totp'))).toBe('second-factor-required');
    const replay = await b.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(secret),
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().detail).toBe(PROBLEM_MESSAGES.secondFactorReplay);
    const later = await totpCode(secret, 30);
    const good = await b.call('POST', '/session/second-factor', { method: 'totp', code: later });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().secondFactor.status).toBe('done');
    expect((await b.call('GET', '/notices')).statusCode).toBe(200);
    // The same code at once on another sign-in is a replay too.
    const third = await signIn('analis.direksi');
    const again = await third.agent.call('POST', '/session/second-factor', { method: 'totp', code: later });
    expect(again.statusCode).toBe(400);
    expect((await third.agent.call('GET', '/notices')).statusCode).toBe(401);
  });

  it('takes a recovery code once, in any case and with or without its dash', async () => {
    const code = recovery.get('analis.direksi')![0]!;
    const first = await signIn('analis.direksi');
    const used = await first.agent.call('POST', '/session/second-factor', {
      method: 'recovery',
      code: ` ${code.toUpperCase().replace('-', ' ')} `,
    });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().secondFactor.recoveryCodesLeft).toBe(9);
    const second = await signIn('analis.direksi');
    const reused = await second.agent.call('POST', '/session/second-factor', { method: 'recovery', code });
    expect(reused.statusCode).toBe(400);
    expect(problem(reused)).toBe('second-factor-failed');
    const events = t.logs.filter((l) => l.event === 'second-factor-failed').map((l) => l.reason);
    expect(events).toContain('used-code');
  });

  it('slows a guesser down: wrong codes end in 429 with retry-after, each refused after the floor', async () => {
    await enrolled('analis.spi');
    const { agent: a } = await signIn('analis.spi');
    const secret = secrets.get('analis.spi')!;
    const valid = new Set([await totpCode(secret, -30), await totpCode(secret), await totpCode(secret, 30)]);
    let limited: { headers: Record<string, unknown> } | null = null;
    for (let guess = 0; guess < 12 && !limited; guess++) {
      let code = String(100000 + guess * 7919).padStart(6, '0');
      while (valid.has(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const started = performance.now();
      const res = await a.call('POST', '/session/second-factor', { method: 'totp', code });
      if (res.statusCode === 429) limited = res;
      else {
        expect(res.statusCode).toBe(400);
        expect(performance.now() - started).toBeGreaterThanOrEqual(19);
      }
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('policy', () => {
  it('refuses to remove the last factor of an account that must have one', async () => {
    const a = await enrolled('staff.holding');
    const res = await a.call('DELETE', '/account/second-factors/totp');
    expect(res.statusCode).toBe(409);
    expect(problem(res)).toBe('last-factor-required');
    expect((await a.call('GET', '/account/second-factors')).json().totp).not.toBeNull();
  });

  it('asks for a fresh factor before a step-up action, then lets it through', async () => {
    const a = await enrolled('admin.pakuan');
    // Fresh: the action goes on to its own checks (here: the missing reason).
    expect((await a.call('POST', '/cases/1/contact-reveal', {})).statusCode).toBe(400);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60_000);
    const stale = await a.call('POST', '/cases/1/contact-reveal', {});
    expect(stale.statusCode).toBe(401);
    expect(problem(stale)).toBe('step-up-required');
    expect(problem(await a.call('POST', '/cases/export', {}))).toBe('step-up-required');
    const trail = await a.call('GET', '/audit-trail/export?from=2026-01-01&to=2026-01-31');
    expect(problem(trail)).toBe('step-up-required');
    const renewed = await a.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(secrets.get('admin.pakuan')!),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((await a.call('POST', '/cases/1/contact-reveal', {})).statusCode).toBe(400);
  });

  it('asks for a fresh factor before the Statistik file leaves, like every export', async () => {
    const a = await enrolled('admin.pakuan');
    const path = '/statistics/export?from=2026-01-01&to=2026-01-31&format=csv';
    // Fresh: the export goes on to its own answer (whatever the case index allows), never a prompt.
    expect(problem(await a.call('GET', path))).not.toBe('step-up-required');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60_000);
    const stale = await a.call('GET', path);
    expect(stale.statusCode).toBe(401);
    expect(problem(stale)).toBe('step-up-required');
  });

  it('lets a pelapor in without a factor, and opt in (then asks for it at sign-in)', async () => {
    const { agent: a, reply } = await signIn('pelapor');
    expect(reply.secondFactor).toMatchObject({ status: 'done', required: false, methods: [] });
    const { secret } = await enrolTotp(a);
    // Not required: the last factor may go (after a fresh use, which the enrolment was).
    const next = await signIn('pelapor');
    expect(next.reply.secondFactor.status).toBe('verify');
    const ok = await next.agent.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(secret, 30),
    });
    expect(ok.statusCode).toBe(200);
    const removed = await next.agent.call('DELETE', '/account/second-factors/totp');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().secondFactor).toMatchObject({ status: 'done', methods: [], recoveryCodesLeft: 0 });
    expect((await signIn('pelapor')).reply.secondFactor.status).toBe('done');
  });
});

describe('resets by the account’s manager', () => {
  it('removes the analyst’s factors, ends its sessions, and the analyst enrols again', async () => {
    const analyst = await enrolled('analis.direksi');
    expect((await analyst.call('GET', '/notices')).statusCode).toBe(200);
    const admin = await enrolled('admin.kahuripan');
    const list = await admin.call('GET', '/analysts?page=1&pageSize=100');
    const row = (list.json() as { items: { id: number; username: string | null }[] }).items.find(
      (item) => item.username === 'analis.direksi',
    )!;
    const reset = await admin.call('POST', `/analysts/${row.id}/second-factor-reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().message).toBe(PROBLEM_MESSAGES.secondFactorReset);
    expect((await analyst.call('GET', '/notices')).statusCode).toBe(401);
    const audit = t.logs.find((l) => l.event === 'second-factor-reset');
    expect(audit).toMatchObject({ resource: 'analyst', resourceId: row.id });
    expect((await signIn('analis.direksi')).reply.secondFactor.status).toBe('enrol');
  });
});

describe('generated input', () => {
  it('answers any body of the second-factor step with a 4xx problem, never a 5xx', async () => {
    const { agent: a } = await signIn('analis.direksi');
    const body = fc.oneof(
      fc.record({ method: fc.constantFrom('totp', 'recovery', 'passkey', 'sms', ''), code: fc.string() }),
      fc.record({
        method: fc.constant('passkey'),
        response: fc.record({
          id: fc.string(),
          rawId: fc.string(),
          type: fc.constantFrom('public-key', 'x'),
          response: fc.dictionary(fc.string(), fc.jsonValue()),
        }),
      }),
      fc.jsonValue(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await agent(t.app, a.cookie()).call('POST', '/session/second-factor', payload);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/problem\+json/);
      }),
      { numRuns: 40 },
    );
  });
});

describe('a run of wrong codes', () => {
  // Small numbers, so a run is short: the first burst at the third wrong code, the cap at the sixth.
  let u: TestApp;
  beforeAll(async () => {
    u = await buildTestApp({
      SECOND_FACTOR_TYPES: '1,2,3,4,5',
      PUBLIC_URL: 'http://localhost',
      SIGNIN_FAILURE_FLOOR_MS: '1',
      SIGNIN_FREE_FAILURES: '3',
      SECOND_FACTOR_MAX_FAILURES: '6',
    });
  });
  afterAll(async () => u.close());

  const signInU = (username: string) => passwordSignIn(u.app, username, demoAccount(username).password);
  let address = 0;
  /**
   * One code typed in the session of `cookie`, each from a client address of its own: only the
   * account's own count can stop it (the per-client back-off never does).
   */
  const typed = (cookie: string, body: Record<string, string>) => {
    address++;
    return u.app.inject({
      method: 'POST',
      url: '/api/v1/session/second-factor',
      headers: browser(cookie),
      remoteAddress: `10.9.${address >> 8}.${address & 255}`,
      payload: body,
    });
  };
  /** A six-digit code that is none of the valid ones now. */
  const wrongCode = async (secret: string, n: number) => {
    const valid = new Set([await totpCode(secret, -30), await totpCode(secret), await totpCode(secret, 30)]);
    let code = String(100_000 + n * 7919).slice(-6);
    while (valid.has(code)) code = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    return code;
  };
  const detail = (res: { json(): unknown }) => (res.json() as { detail: string }).detail;

  it('ends the session that types the last wrong code; then only a recovery code opens TOTP again', async () => {
    const { secret, recoveryCodes } = await enrolTotp((await signInU('analis.direksi')).agent);
    const first = (await signInU('analis.direksi')).agent.cookie();
    for (let n = 1; n <= 5; n++) {
      const res = await typed(first, { method: 'totp', code: await wrongCode(secret, n) });
      expect(res.statusCode, res.body).toBe(400);
      expect(detail(res)).toBe(PROBLEM_MESSAGES.secondFactorFailed);
    }
    const last = await typed(first, { method: 'totp', code: await wrongCode(secret, 6) });
    expect(last.statusCode, last.body).toBe(401);
    expect(problem(last)).toBe('second-factor-locked');
    expect(detail(last)).toBe(PROBLEM_MESSAGES.secondFactorLocked);
    expect(cookieValue(last, 'wbs_session')).toBe('');
    expect((await agent(u.app, first).call('GET', '/session')).json().user).toBeNull();

    // The password proven again opens a new step, where the right authenticator code is not taken.
    const again = await signInU('analis.direksi');
    expect(again.reply.secondFactor.status).toBe('verify');
    const right = await typed(again.agent.cookie(), { method: 'totp', code: await totpCode(secret, 30) });
    expect(right.statusCode, right.body).toBe(400);
    expect(detail(right)).toBe(PROBLEM_MESSAGES.totpLocked);
    const recovered = await typed(again.agent.cookie(), { method: 'recovery', code: recoveryCodes![0]! });
    expect(recovered.statusCode, recovered.body).toBe(200);
    // A factor was accepted: the authenticator's codes count again, from zero.
    const later = (await signInU('analis.direksi')).agent;
    const ok = await later.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(secret, 30),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(u.logs.some((l) => l.event === 'second-factor-locked')).toBe(true);
  });

  it('counts wrong codes across sign-ins until a factor is accepted', async () => {
    const { secret, recoveryCodes } = await enrolTotp((await signInU('analis.spi')).agent);
    const codes = [...recoveryCodes!];
    let n = 0;
    const wrongIn = async (cookie: string, times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) {
        statuses.push(
          (await typed(cookie, { method: 'totp', code: await wrongCode(secret, ++n) })).statusCode,
        );
      }
      return statuses;
    };
    // Three in one sign-in, three in the next: the sixth in a row is the last, whatever the session.
    expect(await wrongIn((await signInU('analis.spi')).agent.cookie(), 3)).toEqual([400, 400, 400]);
    expect(await wrongIn((await signInU('analis.spi')).agent.cookie(), 3)).toEqual([400, 400, 401]);
    const back = (await signInU('analis.spi')).agent.cookie();
    expect((await typed(back, { method: 'recovery', code: codes.pop()! })).statusCode).toBe(200);
    // The run is over: five wrong ones in a new sign-in are five ordinary refusals, a wrong recovery
    // code counts as well, and it is the sixth.
    const fresh = (await signInU('analis.spi')).agent.cookie();
    expect(await wrongIn(fresh, 5)).toEqual([400, 400, 400, 400, 400]);
    expect((await typed(fresh, { method: 'recovery', code: 'aaaaa-bbbbb' })).statusCode).toBe(401);
  });

  it('ends a full session that types the last wrong code at a step-up prompt', async () => {
    const a = (await signInU('holding')).agent;
    const { secret } = await enrolTotp(a);
    const statuses: number[] = [];
    for (let n = 1; n <= 6; n++) {
      statuses.push(
        (await typed(a.cookie(), { method: 'totp', code: await wrongCode(secret, n) })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 401]);
    expect(problem(await a.call('GET', '/notices'))).toBe('unauthorized');
  });

  it('tells the owner once, at the first burst of a run', async () => {
    const { secret, recoveryCodes } = await enrolTotp((await signInU('staff.holding')).agent);
    const notices = async (a: Agent) =>
      ((await a.call('GET', '/notices')).json() as { items: { kind: string }[] }).items.filter(
        (item) => item.kind === 'second-factor-failures',
      );
    const guesser = (await signInU('staff.holding')).agent.cookie();
    for (let n = 1; n <= 2; n++) await typed(guesser, { method: 'totp', code: await wrongCode(secret, n) });
    const owner = (await signInU('staff.holding')).agent;
    // A factor accepted ends the run: the two wrong codes before it were no burst.
    const verified = await typed(owner.cookie(), { method: 'recovery', code: recoveryCodes![0]! });
    expect(verified.statusCode).toBe(200);
    const full = agent(u.app, `wbs_session=${cookieValue(verified, 'wbs_session')}`);
    expect(await notices(full)).toHaveLength(0);
    const next = (await signInU('staff.holding')).agent.cookie();
    for (let n = 3; n <= 7; n++) await typed(next, { method: 'totp', code: await wrongCode(secret, n) });
    // Recorded after the reply: waited for, a bounded number of times.
    let told: { kind: string }[] = [];
    for (let i = 0; i < 50 && told.length === 0; i++) {
      told = await notices(full);
      if (told.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(told).toHaveLength(1);
  });

  it('checks no more codes than the cap when they come at once', async () => {
    const { secret } = await enrolTotp((await signInU('admin.kahuripan')).agent);
    const sessions: string[] = [];
    for (let n = 0; n < 10; n++) sessions.push((await signInU('admin.kahuripan')).agent.cookie());
    const codes = await Promise.all(sessions.map((_, n) => wrongCode(secret, n + 1)));
    const replies = await Promise.all(
      sessions.map((cookie, n) => typed(cookie, { method: 'totp', code: codes[n]! })),
    );
    const outcome = replies.map((res) =>
      res.statusCode === 401 ? problem(res) : res.statusCode === 400 ? detail(res) : String(res.statusCode),
    );
    expect(outcome.filter((o) => o === 'second-factor-locked')).toHaveLength(1);
    expect(outcome.filter((o) => o === PROBLEM_MESSAGES.secondFactorFailed)).toHaveLength(5);
    expect(outcome.filter((o) => o === PROBLEM_MESSAGES.totpLocked)).toHaveLength(4);
  });
});
