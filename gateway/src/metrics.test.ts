/** Prometheus metrics: recorded per app, never served on the public port. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ORIGIN, signInAs, type TestApp } from './test/helpers.ts';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signInAs(t.app, 2);
});
afterAll(() => t.close());

describe('metrics', () => {
  it('answers 404 for /metrics on the public port (not the web app, not the figures)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_request_duration_seconds');
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('records request durations by route and legacy calls by name and outcome', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-lines',
      headers: { cookie, origin: ORIGIN },
    });
    expect(res.statusCode).toBe(200);
    const text = await t.app.telemetry.registry.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/case-lines",status_code="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /wbs_legacy_call_duration_seconds_count\{call="CaseLine.list",outcome="code 1"\} [1-9]/,
    );
    expect(text).toMatch(/wbs_legacy_call_duration_seconds_count\{call="JwtAuth.login",outcome="code 1"\} 1/);
  });

  it('counts refusals by route and status', async () => {
    const limited = await buildTestApp({
      TRACKING_MAX_PER_NUMBER: '100',
      TRACKING_MAX_PER_CLIENT: '1',
      TRACKING_FAILURE_FLOOR_MS: '0',
    });
    try {
      const track = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/tracking',
          payload: { caseNumber: 'WBS-12345670', password: 'Salah#2026!' },
          remoteAddress: '192.0.2.44',
          headers: { origin: ORIGIN },
        });
      expect((await track()).statusCode).toBe(404);
      expect((await track()).statusCode).toBe(429);
      const text = await limited.app.telemetry.registry.metrics();
      expect(text).toContain('wbs_refusals_total{route="/api/v1/tracking",status="429"} 1');
    } finally {
      await limited.close();
    }
  });
});
