/**
 * Readiness proves the legacy API answers a real call: a reachable server that is not the legacy API
 * (a base URL without `/api`), a legacy that is down or too slow are all "not ready", and each such
 * answer leaves one ops line naming the reason without any address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';

const notReadyLines = (t: TestApp) => t.logs.filter((line) => line.msg === 'not ready');

describe('/readyz', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('is ready when the legacy answers its channel list and the store answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
    expect(notReadyLines(t)).toHaveLength(0);
  });

  it('is not ready while the legacy is down, logs why, and is ready again after', async () => {
    t.legacy.setKnobs({ down: true });
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'legacy unreachable' });
    expect(res.headers['retry-after']).toBe('5');
    const [line] = notReadyLines(t);
    expect(line).toMatchObject({ level: 40, store: 'ok' });
    expect(line?.legacy).toEqual(expect.any(String));
    expect(JSON.stringify(line)).not.toContain('127.0.0.1');
    t.legacy.setKnobs({ down: false });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('/readyz with a base URL that is not the legacy API', () => {
  let t: TestApp;
  let wrongBase: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    // The sim's origin without `/api`: a server that answers, but 404 to every legacy path.
    wrongBase = await buildTestApp({ LEGACY_API_URL: t.legacy.url });
  });
  afterAll(async () => {
    await wrongBase.close();
    await t.close();
  });

  it('is not ready, and says so in the log', async () => {
    const res = await wrongBase.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'legacy unreachable' });
    expect(notReadyLines(wrongBase)).toHaveLength(1);
    const line = JSON.stringify(notReadyLines(wrongBase));
    expect(line).not.toContain(new URL(t.legacy.url).host);
    expect(line).not.toContain('127.0.0.1');
  });
});
