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

beforeAll(async () => {
  const config = loadConfig({
    SESSION_SECRET: TEST_SECRET,
    SESSION_ENCRYPTION_KEY: TEST_KEY,
    LEGACY_API_URL: 'http://legacy.test/api',
    LOG_LEVEL: 'silent',
  });
  app = await buildApp({ config, legacyDispatcher: agent });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await agent.close();
});

describe('GET /api/v1/case-statuses', () => {
  it('sorts by order, decimals included, although the legacy answers unsorted', async () => {
    const status = (caseStatusId: number, caseStatusName: string, caseStatusOrder: number) => ({
      caseStatusId,
      caseStatusName,
      caseStatusOrder,
    });
    legacy.intercept({ path: '/api/CaseStatus', method: 'GET' }).reply(200, {
      code: 1,
      message: [],
      data: [
        status(11, 'Ditutup', 11),
        status(12, 'Ditolak', 3.2),
        status(1, 'Baru', 1),
        status(3, 'Verifikasi', 3),
      ],
    });
    const res = await app.inject({ method: 'GET', url: '/api/v1/case-statuses' });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((s: { id: number }) => s.id)).toEqual([1, 3, 12, 11]);
  });
});
