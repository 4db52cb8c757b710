/**
 * The session registry: a session the gateway ended is refused everywhere, whatever the legacy
 * still accepts (replayed cookies, a legacy restart, other replicas). Memory and Redis modes; Redis
 * runs use their own namespace.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, setCookies, type TestApp } from '../test/helpers.ts';
import { as, resetAnalystPassword, who } from '../test/sessions.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe.each([
  { store: 'memory', redis: false },
  { store: 'redis', redis: true },
])('session registry ($store)', ({ redis }) => {
  const namespace = `test-sessions-${randomUUID()}`;
  const env = { RATE_LIMIT_NAMESPACE: namespace, ...(redis ? { REDIS_URL } : {}) };
  let t: TestApp;
  let admin: Redis | null = null;

  beforeAll(async () => {
    t = await buildTestApp(env);
    if (redis) {
      admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await admin.connect();
    }
  });
  beforeEach(() => t.legacy.reset());
  afterAll(async () => {
    await t.close();
    if (admin) {
      const keys = await admin.keys(`wbs:gw:${namespace}:*`);
      if (keys.length) await admin.del(...keys);
      await admin.quit();
    }
  });

  it('refuses a cookie replayed after logout, also after a legacy restart, and sends Clear-Site-Data', async () => {
    const cookie = await as(t, 'admin.kahuripan');
    expect((await who(t, cookie))?.username).toBe('admin.kahuripan');
    const out = await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(out.statusCode).toBe(204);
    expect(out.headers['clear-site-data']).toBe('"cache", "cookies"');

    // The replayed cookie: signed out on the session route (no e-mail) and on data routes.
    const replay = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
    expect(replay.json()).toEqual({ user: null, passwordChangeRequired: false, secondFactor: null });
    expect(replay.body).not.toContain('@');
    expect(setCookies(replay).find((c) => c.startsWith('wbs_session='))).toMatch(/^wbs_session=;/);
    // The legacy restarts and forgets it revoked the token: the gateway still refuses the cookie.
    t.legacy.reset();
    const data = await t.app.inject({ method: 'GET', url: '/api/v1/analysts', headers: { cookie } });
    expect(data.statusCode).toBe(401);
  });

  it('keeps other sessions of the user when one signs out', async () => {
    const one = await as(t, 'holding');
    const two = await as(t, 'holding');
    await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(one) });
    expect(await who(t, one)).toBeNull();
    expect((await who(t, two))?.username).toBe('holding');
  });

  it("ends an analyst's sessions when the company admin resets the password", async () => {
    const analyst = await as(t, 'analis.spi');
    const companyAdmin = await as(t, 'admin.kahuripan');
    await resetAnalystPassword(t, companyAdmin);
    expect(await who(t, analyst)).toBeNull();
    expect((await who(t, companyAdmin))?.username).toBe('admin.kahuripan');
  });

  it("ends an analyst's sessions on a new role or line, not on a name change", async () => {
    const companyAdmin = await as(t, 'admin.kahuripan');
    const save = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/analysts/1',
        headers: browser(companyAdmin),
        payload: body,
      });
    const base = {
      fullName: 'Bambang S.',
      username: 'analis.direksi',
      email: 'analis.direksi@wbs.example.id',
    };

    const supervisor = await as(t, 'analis.direksi');
    expect((await save({ ...base, roleId: 1, caseLineId: 1 })).statusCode).toBe(200);
    expect((await who(t, supervisor))?.username).toBe('analis.direksi');

    // Demoted: the old claims (role 1: export, log entries) must not live on.
    expect((await save({ ...base, roleId: 2, caseLineId: 1 })).statusCode).toBe(200);
    expect(await who(t, supervisor)).toBeNull();

    const again = await as(t, 'analis.direksi');
    expect((await save({ ...base, roleId: 2, caseLineId: 3 })).statusCode).toBe(200);
    expect(await who(t, again)).toBeNull();
  });

  it("ends a removed analyst's sessions", async () => {
    const analyst = await as(t, 'analis.spi');
    const companyAdmin = await as(t, 'admin.kahuripan');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/analysts/2',
      headers: browser(companyAdmin),
    });
    expect(res.statusCode).toBe(200);
    expect(await who(t, analyst)).toBeNull();
  });

  it("ends a partner staff member's sessions when the partner resets the password", async () => {
    const staff = await as(t, 'staff.holding');
    const partner = await as(t, 'holding');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partner-staff',
      headers: { cookie: partner },
    });
    const row = (list.json().items as { id: number; username: string }[]).find(
      (s) => s.username === 'staff.holding',
    )!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/partner-staff/${row.id}/password-reset`,
      headers: browser(partner),
    });
    expect(res.statusCode).toBe(200);
    expect(await who(t, staff)).toBeNull();
  });
});

describe('session data after a profile save', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LEGACY_TIMEOUT_MS: '3000' });
  });
  afterAll(async () => t.close());

  it('GET /session shows the new name at once, in the same session', async () => {
    const cookie = await as(t, 'pelapor');
    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers: browser(cookie),
      payload: { fullName: 'Nama Baru Pelapor', hideIdentity: false },
    });
    expect(save.statusCode).toBe(200);
    const renewed = setCookies(save).find((c) => c.startsWith('wbs_session='))!;
    const next = renewed.split(';')[0]!;
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie: next } });
    expect(me.json().user).toMatchObject({ username: 'pelapor', displayName: 'Nama Baru Pelapor' });
    // Same session: signing out with the renewed cookie ends the original one too.
    await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(next) });
    expect(await who(t, cookie)).toBeNull();
  });
});

describe('session registry shared by two replicas (Redis)', () => {
  const namespace = `test-replicas-${randomUUID()}`;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await buildTestApp({ RATE_LIMIT_NAMESPACE: namespace, REDIS_URL });
    // The second replica in front of the same legacy.
    b = await buildTestApp({ RATE_LIMIT_NAMESPACE: namespace, REDIS_URL, LEGACY_API_URL: a.legacy.apiUrl });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const keys = await admin.keys(`wbs:gw:${namespace}:*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it('a sign-out on one replica is a sign-out on the other', async () => {
    const cookie = await as(a, 'holding');
    expect((await who(b, cookie))?.username).toBe('holding');
    await b.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(await who(a, cookie)).toBeNull();
  });
});

describe('session registry with Redis unreachable', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('keeps signed sessions working and still ends the ones this replica ended', async () => {
    t = await buildTestApp({
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_NAMESPACE: `test-down-${randomUUID()}`,
    });
    const cookie = await as(t, 'holding');
    expect((await who(t, cookie))?.username).toBe('holding');
    await t.app.inject({ method: 'DELETE', url: '/api/v1/session', headers: browser(cookie) });
    expect(await who(t, cookie)).toBeNull();
  });
});
