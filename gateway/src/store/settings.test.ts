/** The store's settings (config.ts) and the gateway when its PostgreSQL goes away. */
import { randomBytes } from 'node:crypto';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_STORE_DATA_DIR, loadConfig } from '../config.ts';
import { createTestDatabase } from '../test/databases.ts';
import { browser, buildTestApp, signInAs } from '../test/helpers.ts';

const base = {
  SESSION_SECRET: 'x'.repeat(40),
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('store settings', () => {
  it('defaults to the embedded store in .data/store with a dev key derived from the session key', () => {
    const { store } = loadConfig(base);
    expect(store.databaseUrl).toBeUndefined();
    expect(store.dataDir).toBe(DEFAULT_STORE_DATA_DIR);
    expect(store.keys.map((k) => k.id)).toEqual(['dev']);
    expect(store.keys[0]?.key).toHaveLength(32);
    // Stable across restarts (same session key), different for another session key, never the key itself.
    expect(loadConfig(base).store.keys[0]?.key).toEqual(store.keys[0]?.key);
    const other = loadConfig({ ...base, SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64') });
    expect(other.store.keys[0]?.key).not.toEqual(store.keys[0]?.key);
    expect(store.keys[0]?.key).not.toEqual(Buffer.alloc(32, 1));
  });

  it('requires real keys with a PostgreSQL server and checks every setting', () => {
    expect(problemsOf({ DATABASE_URL: 'postgres://db/wbs' })).toEqual([
      'STORE_ENCRYPTION_KEYS is required when DATABASE_URL is set',
    ]);
    expect(problemsOf({ DATABASE_URL: 'mysql://db/wbs' })).toEqual([
      'DATABASE_URL must start with postgres:// or postgresql://',
    ]);
    expect(problemsOf({ STORE_ENCRYPTION_KEYS: 'k1:short' })).toEqual([
      'STORE_ENCRYPTION_KEYS: key k1 must be 32 bytes encoded as base64',
    ]);
    const keys = `old:${randomBytes(32).toString('base64')}, new:${randomBytes(32).toString('base64')}`;
    const config = loadConfig({ ...base, DATABASE_URL: 'postgresql://db/wbs', STORE_ENCRYPTION_KEYS: keys });
    expect(config.store.keys.map((k) => k.id)).toEqual(['old', 'new']);
  });
});

describe('a PostgreSQL store that goes away', () => {
  it('turns readiness to 503 and answers message calls with a neutral 503, no internals', async () => {
    const database = await createTestDatabase();
    const t = await buildTestApp({
      DATABASE_URL: database.url,
      STORE_ENCRYPTION_KEYS: `k:${randomBytes(32).toString('base64')}`,
      LEGACY_TIMEOUT_MS: '5000',
    });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const cookie = await signInAs(t.app, 2);
      const get = (url: string) =>
        t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: browser(cookie) });
      const page = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cases/search',
        headers: browser(cookie),
        payload: { from: '2020-01-01', to: latestIndonesianToday(), pageSize: 30 },
      });
      let identifiedId: number | undefined;
      for (const item of page.json().items as { id: number }[]) {
        if ((await get(`/cases/${item.id}`)).json().reporter.anonymous === false) {
          identifiedId = item.id;
          break;
        }
      }
      if (!identifiedId) throw new Error('no identified case in the first page of the seed');
      await database.drop();
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'store unreachable' });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/cases/2/messages',
        headers: browser(cookie),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().type).toMatch(/store-unavailable$/);
      expect(res.body).not.toMatch(/wbs_store_test|127\.0\.0\.1|5432|postgres/i);
      // No case detail leaves without its record: an identified case's needs its identity-access row,
      // and every staff read its audit-trail record (docs/adr/0032-hash-chained-audit-trail.md); both fail
      // closed.
      expect((await get(`/cases/${identifiedId}`)).statusCode).toBe(503);
      expect((await get('/cases/2')).statusCode).toBe(503);
      // The case list goes on without its handling clocks; the overdue filter is nothing but clocks.
      const search = (extra: object) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/cases/search',
          headers: browser(cookie),
          payload: { from: '2020-01-01', to: latestIndonesianToday(), pageSize: 5, ...extra },
        });
      // Rows the first page above did not show (their clock inputs are not in the 5 s list cache).
      const withoutClocks = await search({ page: 7 });
      expect(withoutClocks.statusCode).toBe(200);
      expect(withoutClocks.json().items.length).toBeGreaterThan(0);
      expect(withoutClocks.json().items.every((i: { handling: unknown }) => i.handling === null)).toBe(true);
      const overdueOnly = await search({ overdue: true });
      expect(overdueOnly.statusCode).toBe(503);
      expect(overdueOnly.body).not.toMatch(/127\.0\.0\.1|5432|postgres/i);
    } finally {
      await t.close();
      await database.drop();
    }
  }, 60_000);
});
