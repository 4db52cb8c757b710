/** The legacy mechanism: transport failures, statuses and envelopes → our problems. */
import { Readable } from 'node:stream';
import { MockAgent } from 'undici';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { browser, buildTestApp, signInAs, type TestApp } from '../test/helpers.ts';
import { type CallContext, LegacyClient, readCapped } from './client.ts';

describe('legacy client (MockAgent)', () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get('http://legacy.test');
  const client = new LegacyClient({ legacyApiUrl: 'http://legacy.test/api', legacyTimeoutMs: 300 }, agent);
  const lines: Record<string, unknown>[] = [];
  const log = {
    debug: (o: Record<string, unknown>) => lines.push({ level: 'debug', ...o }),
    error: (o: Record<string, unknown>) => lines.push({ level: 'error', ...o }),
  } as unknown as CallContext['log'];
  const ctx: CallContext = { requestId: 'req-1', log };
  const data = v.array(v.object({ id: v.number() }));
  const call = { name: 'Thing.list', method: 'GET' as const, path: '/Thing', data };

  const reply = (status: number, body: unknown, check?: (opts: { headers: unknown }) => void) =>
    pool.intercept({ path: '/api/Thing', method: 'GET' }).reply((opts) => {
      check?.(opts as { headers: unknown });
      return { statusCode: status, data: typeof body === 'string' ? body : JSON.stringify(body) };
    });

  const problemOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(ApiProblem);
      return error as ApiProblem;
    }
    throw new Error('expected a problem');
  };

  beforeEach(() => {
    lines.length = 0;
  });

  it('passes code 1 data through, sending X-Request-Id and the bearer token', async () => {
    let seen: Record<string, string> = {};
    reply(200, { code: 1, message: ['ok'], data: [{ id: 1, extra: 'dropped' }] }, ({ headers }) => {
      seen = headers as Record<string, string>;
    });
    const result = await client.call(ctx, { ...call, auth: { token: 'tok', userId: 5 } });
    expect(result).toEqual({ data: [{ id: 1 }], messages: ['ok'] });
    expect(seen['x-request-id']).toBe('req-1');
    expect(seen.authorization).toBe('Bearer tok');
    expect(lines.some((l) => l.legacyCall === 'Thing.list' && l.level === 'debug')).toBe(true);
  });

  it('refuses a reply past 20 MB as a bad reply, and the next call still works', async () => {
    const huge = `{"code":1,"message":[],"data":[${'{"id":1},'.repeat(2_400_000)}{"id":2}]}`;
    expect(huge.length).toBeGreaterThan(20 * 1024 * 1024);
    reply(200, huge);
    const problem = await problemOf(client.call(ctx, call));
    expect(problem.status).toBe(502);
    expect(problem.type).toBe('legacy-bad-reply');
    expect(lines.some((l) => l.reason === 'reply too large' && l.legacyCall === 'Thing.list')).toBe(true);
    const justUnder = `{"code":1,"message":[],"data":[${'{"id":1},'.repeat(2_000_000)}{"id":2}]}`;
    reply(200, justUnder);
    expect((await client.call(ctx, call)).data).toHaveLength(2_000_001);
  });

  it('maps code 0 to 422 legacy-warning with unique messages', async () => {
    reply(200, { code: 0, message: ['Sudah ada', 'Sudah ada', 'Cek lagi'], data: null });
    const problem = await problemOf(client.call(ctx, call));
    expect(problem.status).toBe(422);
    expect(problem.toJSON()).toMatchObject({ severity: 'warning', messages: ['Sudah ada', 'Cek lagi'] });
    expect(problem.toJSON().type).toMatch(/legacy-warning$/);
  });

  it('maps code -1 to 422 legacy-error', async () => {
    reply(200, { code: -1, message: ['Gagal'], data: null });
    const problem = await problemOf(client.call(ctx, call));
    expect(problem.toJSON()).toMatchObject({ status: 422, severity: 'error', messages: ['Gagal'] });
  });

  it('maps an unexpected data shape to 502 legacy-bad-reply and logs the call name', async () => {
    reply(200, { code: 1, message: [], data: [{ id: 'not a number' }] });
    const problem = await problemOf(client.call(ctx, call));
    expect(problem.type).toBe('legacy-bad-reply');
    expect(problem.status).toBe(502);
    expect(lines.some((l) => l.level === 'error' && l.legacyCall === 'Thing.list')).toBe(true);
  });

  it('logs where an unexpected shape is, never the legacy values found there', async () => {
    // A case reply holds report text and reporter identity: the ops line must not quote it.
    reply(200, { code: 1, message: [], data: [{ id: 'Saksi: Budi Santoso, 0812-5555-0101' }] });
    const problem = await problemOf(client.call(ctx, call));
    expect(problem.type).toBe('legacy-bad-reply');
    const line = lines.find((l) => l.level === 'error' && l.reason === 'unexpected shape');
    expect(line?.issues).toEqual(['0.id: expected number']);
    expect(JSON.stringify(lines)).not.toContain('Budi');
  });

  it('maps an unknown envelope code and a non-JSON body to 502', async () => {
    reply(200, { code: 7, message: [], data: [] });
    expect((await problemOf(client.call(ctx, call))).type).toBe('legacy-bad-reply');
    reply(200, '<html>oops</html>');
    expect((await problemOf(client.call(ctx, call))).type).toBe('legacy-bad-reply');
  });

  it('maps legacy statuses: 401 → 401, 404 → 404, 500 → 502, 503 → 503, 400 with errors → 422', async () => {
    reply(401, { message: 'Unauthorized' });
    expect((await problemOf(client.call(ctx, call))).status).toBe(401);
    reply(404, {});
    expect((await problemOf(client.call(ctx, call))).status).toBe(404);
    reply(500, 'System.Exception at Wbs.Api.Controllers');
    const p500 = await problemOf(client.call(ctx, call));
    expect(p500.status).toBe(502);
    expect(JSON.stringify(p500.toJSON())).not.toContain('System.Exception');
    reply(503, '');
    expect((await problemOf(client.call(ctx, call))).status).toBe(503);
    reply(400, { errors: { Email: ['The Email field is required.'] } });
    expect((await problemOf(client.call(ctx, call))).toJSON()).toMatchObject({
      status: 422,
      messages: ['The Email field is required.'],
    });
  });

  it('reads server-side tables', async () => {
    pool.intercept({ path: '/api/Table?start=0&length=2', method: 'GET' }).reply(200, {
      code: 1,
      message: [],
      data: [{ id: 1 }, { id: 2 }],
      draw: 1,
      recordsTotal: 9,
      recordsFiltered: 5,
    });
    const result = await client.table(ctx, {
      name: 'Table.list',
      method: 'GET',
      path: '/Table',
      query: { start: 0, length: 2, search: undefined },
      row: v.object({ id: v.number() }),
    });
    expect(result).toMatchObject({ total: 9, filtered: 5, rows: [{ id: 1 }, { id: 2 }] });
  });
});

describe('legacy failures through the gateway', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ LEGACY_TIMEOUT_MS: '400' });
    cookie = await signInAs(t.app, 1);
  });
  afterAll(async () => t.close());
  beforeEach(() => t.legacy.setKnobs({}));

  const get = () => t.app.inject({ method: 'GET', url: '/api/v1/partners', headers: browser(cookie) });

  const neutral = (body: string) => {
    expect(body).not.toMatch(/127\.0\.0\.1|ECONN|undici|stack|Exception|at \w+ \(/);
  };

  it('legacy down → 503 legacy-unavailable', async () => {
    t.legacy.setKnobs({ down: true });
    const res = await get();
    expect(res.statusCode).toBe(503);
    expect(res.json().type).toBe('https://wbs.example/problems/legacy-unavailable');
    neutral(res.body);
  });

  it('legacy not listening at all → 503', async () => {
    const config = loadConfig({
      SESSION_SECRET: 'x'.repeat(40),
      SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      LEGACY_API_URL: 'http://127.0.0.1:9/api',
    });
    const client = new LegacyClient(config);
    const ctx = { requestId: 'r', log: t.app.log };
    await expect(
      client.call(ctx, { name: 'x', method: 'GET', path: '/x', data: v.unknown() }),
    ).rejects.toMatchObject({
      status: 503,
    });
    await client.close();
  });

  it('legacy hangs → 504 legacy-timeout within the configured bound', async () => {
    t.legacy.setKnobs({ hang: true });
    const started = Date.now();
    const res = await get();
    const took = Date.now() - started;
    expect(res.statusCode).toBe(504);
    expect(res.json().type).toBe('https://wbs.example/problems/legacy-timeout');
    expect(took).toBeLessThan(1_000); // LEGACY_TIMEOUT_MS is 400 in tests
    neutral(res.body);
  });

  it('malformed legacy JSON → 502 legacy-bad-reply', async () => {
    t.legacy.setKnobs({ malformed: true });
    const res = await get();
    expect(res.statusCode).toBe(502);
    expect(res.json().type).toBe('https://wbs.example/problems/legacy-bad-reply');
  });

  it('legacy HTTP 500 → 502 without legacy internals', async () => {
    t.legacy.setKnobs({ status500: true });
    const res = await get();
    expect(res.statusCode).toBe(502);
    neutral(res.body);
  });

  it('/healthz is always up; /readyz follows the legacy', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    t.legacy.setKnobs({ down: true });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
  });

  it('logs no info line per probe; API requests at info', async () => {
    t.logs.length = 0;
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    const lines = t.logs.filter((l) => l.msg === 'request completed');
    const levelOf = (url: string) => lines.find((l) => (l.req as { url: string }).url === url)?.level;
    // The probe route logs at warn and above only (its own logLevel): no info line per probe.
    expect(levelOf('/healthz')).toBeUndefined();
    expect(levelOf('/api/v1/no-such-thing')).toBe(30);
  });

  it('logs one response line with request id, route, status, durations and user, never IP or UA', async () => {
    t.logs.length = 0;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/partners?search=rahasia',
      headers: { ...browser(cookie), 'user-agent': 'Secret-UA/1.0' },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    const line = t.logs.find((l) => l.msg === 'request completed')!;
    expect(line).toMatchObject({
      req: { method: 'GET', url: '/api/v1/partners', route: '/api/v1/partners' },
      res: { statusCode: 200 },
      userId: 1,
      userType: 1,
      legacyCalls: 1,
    });
    expect(line.reqId).toBe(res.headers['x-request-id']);
    expect(typeof line.responseTime).toBe('number');
    expect(typeof line.legacyMs).toBe('number');
    const all = JSON.stringify(t.logs);
    expect(all).not.toContain('203.0.113.9');
    expect(all).not.toContain('Secret-UA');
    expect(all).not.toContain('rahasia');
    expect(all).not.toContain('wbs_session=');
  });
});

describe('reading a legacy reply body', () => {
  const chunked = (parts: string[]) =>
    Readable.from(
      parts.map((part) => Buffer.from(part)),
      { objectMode: false },
    );

  it('reads every chunk, and refuses past the cap', async () => {
    expect((await readCapped(chunked(['{"a"', ':1}']), 100)).toString()).toBe('{"a":1}');
    await expect(readCapped(chunked(['x'.repeat(60), 'y'.repeat(60)]), 100)).rejects.toThrow(/too large/);
  });

  it('never waits for a body that is already gone or closes before its end', async () => {
    const gone = chunked(['{}']);
    gone.destroy();
    await expect(readCapped(gone, 100)).rejects.toThrow();
    const failed = chunked(['{}']);
    failed.destroy(new Error('socket hang up'));
    await expect(readCapped(failed, 100)).rejects.toThrow('socket hang up');
    const cut = new Readable({ read() {} });
    const reading = readCapped(cut, 100);
    cut.push('{"half":');
    setTimeout(() => cut.destroy(), 5);
    await expect(reading).rejects.toThrow(/cut off/);
  });
});
