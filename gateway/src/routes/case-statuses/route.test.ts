/**
 * The status table is sorted by order in the gateway (spec §2 "sorted by order"), whatever order the
 * legacy answers in. legacy-sim happens to answer sorted, so an HTTP mock plays a legacy that does not.
 */
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { TEST_KEY, TEST_SECRET } from '../../test/helpers.ts';

const agent = new MockAgent();
agent.disableNetConnect();
const legacy = agent.get('http://legacy.test');
let app: Awaited<ReturnType<typeof buildApp>>;
let cached: Awaited<ReturnType<typeof buildApp>>;

const configWith = (referenceCacheSeconds: string) =>
  loadConfig({
    SESSION_SECRET: TEST_SECRET,
    SESSION_ENCRYPTION_KEY: TEST_KEY,
    LEGACY_API_URL: 'http://legacy.test/api',
    LOG_LEVEL: 'silent',
    REFERENCE_CACHE_SECONDS: referenceCacheSeconds,
    // Never the developer's .data/store: an in-memory store, opened only if a route needs it.
    STORE_DATA_DIR: 'memory://',
  });

beforeAll(async () => {
  // Each test here plays its own legacy reply: no reuse between them.
  app = await buildApp({ config: configWith('0'), legacyDispatcher: agent });
  cached = await buildApp({ config: configWith('60'), legacyDispatcher: agent });
  await app.ready();
  await cached.ready();
});
afterAll(async () => {
  await app.close();
  await cached.close();
  await agent.close();
});

const status = (caseStatusId: number, caseStatusName: string, caseStatusOrder: number) => ({
  caseStatusId,
  caseStatusName,
  caseStatusOrder,
});
const reply = (data: unknown[]) => ({ code: 1, message: [], data });

describe('GET /api/v1/case-statuses', () => {
  it('sorts by order, decimals included, although the legacy answers unsorted', async () => {
    legacy
      .intercept({ path: '/api/CaseStatus', method: 'GET' })
      .reply(
        200,
        reply([
          status(21, 'Ditutup', 11),
          status(13, 'Ditolak', 3.2),
          status(1, 'Baru', 1),
          status(12, 'Verifikasi', 3),
        ]),
      );
    legacy
      .intercept({ path: '/api/CaseStatus/Open', method: 'GET' })
      .reply(200, reply([status(12, 'Verifikasi', 3), status(1, 'Baru', 1)]));
    const res = await app.inject({ method: 'GET', url: '/api/v1/case-statuses' });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { id: 1, name: 'Baru', order: 1, open: true },
      { id: 12, name: 'Verifikasi', order: 3, open: true },
      { id: 13, name: 'Ditolak', order: 3.2, open: false },
      { id: 21, name: 'Ditutup', order: 11, open: false },
    ]);
  });

  it('answers no table at all when the open list cannot be read (no status taken for open)', async () => {
    legacy.intercept({ path: '/api/CaseStatus', method: 'GET' }).reply(200, reply([status(1, 'Baru', 1)]));
    legacy
      .intercept({ path: '/api/CaseStatus/Open', method: 'GET' })
      .reply(200, { code: 1, message: [], data: 'x' });
    const res = await app.inject({ method: 'GET', url: '/api/v1/case-statuses' });
    expect(res.statusCode).toBe(502);
    expect(res.json().type).toMatch(/upstream|legacy|bad-gateway/);
  });

  it('asks the legacy once per cache period, and again after a failed read', async () => {
    legacy.intercept({ path: '/api/CaseStatus', method: 'GET' }).reply(200, reply([status(1, 'Baru', 1)]));
    legacy
      .intercept({ path: '/api/CaseStatus/Open', method: 'GET' })
      .reply(200, { code: 1, message: [], data: 'x' });
    expect((await cached.inject({ method: 'GET', url: '/api/v1/case-statuses' })).statusCode).toBe(502);
    // Exactly one more legacy reply each: a second request inside the period must not ask again
    // (the mock refuses any call it was not told about).
    legacy.intercept({ path: '/api/CaseStatus', method: 'GET' }).reply(200, reply([status(1, 'Baru', 1)]));
    legacy
      .intercept({ path: '/api/CaseStatus/Open', method: 'GET' })
      .reply(200, reply([status(1, 'Baru', 1)]));
    for (let i = 0; i < 3; i++) {
      const res = await cached.inject({ method: 'GET', url: '/api/v1/case-statuses' });
      expect(res.statusCode).toBe(200);
      expect(res.json().items).toEqual([{ id: 1, name: 'Baru', order: 1, open: true }]);
    }
    expect(agent.pendingInterceptors()).toEqual([]);
  });
});
