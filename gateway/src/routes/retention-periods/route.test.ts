/**
 * Retention periods through the real app: only the administrator reads and changes them (every other
 * user type 403, a guest 401), a change and a reset are audited, and every month count outside
 * 1..120 or not a whole number is refused with the Indonesian message. Shortening a period needs a
 * second factor used within ten minutes (step-up); lengthening it does not.
 */

import type { RetentionPeriodsReply } from '@wbs/shared/api/retention';
import { USER_TYPE_IDS } from '@wbs/shared/constants';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../store/drizzle.ts';
import { browser, buildTestApp, demoAccount, ORIGIN, signInAs, type TestApp } from '../../test/helpers.ts';
import { type Agent, agent, enrolTotp, passwordSignIn, withFactorClaim } from '../../test/second-factor.ts';

let t: TestApp;
const cookies = new Map<number, string>();
const call = async (type: number | null, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: type === null ? { origin: ORIGIN } : browser(cookies.get(type)!),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

beforeAll(async () => {
  t = await buildTestApp({ RETENTION_MONTHS: '18' });
  for (const type of USER_TYPE_IDS) cookies.set(type, await signInAs(t.app, type));
}, 60_000);
afterAll(async () => t?.close());

describe('retention periods', () => {
  it('lets only the administrator in: every other user type is 403, a guest 401', async () => {
    for (const type of [2, 3, 4, 5, 6]) {
      expect((await call(type, 'GET', '/retention-periods')).statusCode, `type ${type}`).toBe(403);
      expect((await call(type, 'PUT', '/retention-periods/1', { months: 6 })).statusCode).toBe(403);
      expect((await call(type, 'DELETE', '/retention-periods/1')).statusCode).toBe(403);
    }
    expect((await call(null, 'GET', '/retention-periods')).statusCode).toBe(401);
    expect((await call(null, 'PUT', '/retention-periods/1', { months: 6 })).statusCode).toBe(401);
    expect((await call(null, 'DELETE', '/retention-periods/1')).statusCode).toBe(401);
  });

  it('sets a company period, answers it, returns to the configured default, all audited', async () => {
    const before = (await call(1, 'GET', '/retention-periods')).json() as RetentionPeriodsReply;
    expect(before.defaultMonths).toBe(18);
    expect(before.companies.length).toBeGreaterThanOrEqual(3);
    expect(before.companies.every((c) => c.months === 18 && !c.own && c.companyName !== '')).toBe(true);
    expect((await call(1, 'PUT', '/retention-periods/3', { months: 24 })).statusCode).toBe(200);
    const after = (await call(1, 'GET', '/retention-periods')).json() as RetentionPeriodsReply;
    expect(after.companies.find((c) => c.companyId === 3)).toMatchObject({ months: 24, own: true });
    expect(after.companies.find((c) => c.companyId === 1)).toMatchObject({ months: 18, own: false });
    expect((await call(1, 'PUT', '/retention-periods/999999', { months: 24 })).statusCode).toBe(404);
    expect((await call(1, 'DELETE', '/retention-periods/999999')).statusCode).toBe(404);
    const reset = await call(1, 'DELETE', '/retention-periods/3');
    expect(reset.json().message).toBe('Masa retensi kembali mengikuti bawaan grup');
    const back = (await call(1, 'GET', '/retention-periods')).json() as RetentionPeriodsReply;
    expect(back.companies.find((c) => c.companyId === 3)).toMatchObject({ months: 18, own: false });
    const store = await t.app.store.open();
    const events = (
      (await store.db.execute(sql`select event, body from audit_record order by seq`)) as unknown as {
        rows: { event: string; body: string }[];
      }
    ).rows;
    const changed = events.find((e) => e.event === 'retention-period-changed');
    expect(JSON.parse(changed!.body).fields).toMatchObject({ companyId: 3, months: 24 });
    expect(events.map((e) => e.event)).toContain('retention-period-reset');
  });

  it('refuses every month count outside 1..120 or not a whole number, and bad ids', async () => {
    const low = await call(1, 'PUT', '/retention-periods/1', { months: 0 });
    expect(low.statusCode).toBe(400);
    expect(low.json().errors.months).toBe('Minimal 1 bulan');
    const high = await call(1, 'PUT', '/retention-periods/1', { months: 121 });
    expect(high.json().errors.months).toBe('Maksimal 120 bulan');
    const text = await call(1, 'PUT', '/retention-periods/1', { months: '12' });
    expect(text.json().errors.months).toBe('Jumlah bulan tidak valid');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: -1_000_000, max: 0 }),
          fc.integer({ min: 121, max: 1_000_000 }),
          fc.double({ noInteger: true, noNaN: true }),
          fc.string(),
          fc.constant(null),
          fc.boolean(),
          fc.array(fc.integer({ min: 1, max: 120 })),
        ),
        async (months) => {
          const res = await call(1, 'PUT', '/retention-periods/1', { months });
          expect(res.statusCode, JSON.stringify(months)).toBe(400);
          expect(res.json().errors.months).toBeTruthy();
        },
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1 }).filter((s) => !/^[1-9][0-9]{0,9}$/.test(s)),
          fc.constantFrom('0', '-1', '1e3', '0x1', '12345678901'),
        ),
        async (id) => {
          const res = await call(1, 'PUT', `/retention-periods/${encodeURIComponent(id)}`, { months: 6 });
          expect([400, 404], JSON.stringify(id)).toContain(res.statusCode);
        },
      ),
      { numRuns: 30 },
    );
    const own = (await call(1, 'GET', '/retention-periods')).json() as RetentionPeriodsReply;
    expect(own.companies.find((c) => c.companyId === 1)?.own).toBe(false);
  });
});

describe('retention periods behind step-up', () => {
  let u: TestApp;
  let fresh: Agent;
  let stale: Agent;
  beforeAll(async () => {
    u = await buildTestApp({ RETENTION_MONTHS: '18', SECOND_FACTOR_TYPES: '1' });
    const { agent: a } = await passwordSignIn(u.app, 'admin', demoAccount('admin').password);
    await enrolTotp(a);
    // The same session as it stands now (its factor just used) and eleven minutes after its factor.
    const at = (seconds: number) => withFactorClaim(u.app, a.cookie(), (f) => ({ ...f, at: seconds }));
    const now = Math.floor(Date.now() / 1000);
    fresh = agent(u.app, at(now));
    stale = agent(u.app, at(now - 11 * 60));
  }, 60_000);
  afterAll(async () => u?.close());

  const monthsOf = async (companyId: number) =>
    ((await fresh.call('GET', '/retention-periods')).json() as RetentionPeriodsReply).companies.find(
      (c) => c.companyId === companyId,
    );

  it('asks for a recent factor before a period is shortened (also back to a shorter default), never to lengthen it', async () => {
    const months = fc.integer({ min: 1, max: 120 });
    await fc.assert(
      fc.asyncProperty(months, months, async (current, next) => {
        expect((await fresh.call('PUT', '/retention-periods/2', { months: current })).statusCode).toBe(200);
        const res = await stale.call('PUT', '/retention-periods/2', { months: next });
        if (next < current) {
          expect(res.statusCode, `${current} → ${next}`).toBe(401);
          expect(res.json().type).toMatch(/step-up-required$/);
          expect(await monthsOf(2)).toMatchObject({ months: current, own: true });
        } else {
          expect(res.statusCode, `${current} → ${next}: ${res.body}`).toBe(200);
        }
        const reset = await stale.call('DELETE', '/retention-periods/2');
        const kept = next < current ? current : next;
        expect(reset.statusCode, `${kept} → the default 18`).toBe(18 < kept ? 401 : 200);
        await fresh.call('DELETE', '/retention-periods/2');
      }),
      { numRuns: 25 },
    );
    // Forty-eight months is the company's; a prompt answered with the factor lets the shortening through.
    expect((await fresh.call('PUT', '/retention-periods/2', { months: 48 })).statusCode).toBe(200);
    expect((await stale.call('PUT', '/retention-periods/2', { months: 1 })).statusCode).toBe(401);
    expect((await fresh.call('PUT', '/retention-periods/2', { months: 1 })).statusCode).toBe(200);
    expect(await monthsOf(2)).toMatchObject({ months: 1, own: true });
  });
});
