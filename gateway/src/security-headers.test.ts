import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import type { CaseDetail } from '@wbs/shared/api/cases';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, HSTS, PERMISSIONS_POLICY } from './security-headers.ts';
import { browser, buildTestApp, demoAccount, signIn, type TestApp } from './test/helpers.ts';

/** The policy the hand-written hook sent before @fastify/helmet: it must stay the same. */
const CSP_BEFORE_HELMET =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

/** A CSP header as a directive → sources map (separators and spacing do not matter to browsers). */
const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );

let plain: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wbs-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>WBS</title>');
  writeFileSync(join(dir, 'app.js'), 'console.log(1)');
  plain = await buildTestApp({ WEB_DIST_DIR: dir, LEGACY_TIMEOUT_MS: '3000' });
  // A proxy named by address (a bare hop count never trusts X-Forwarded-Proto in Fastify 5).
  proxied = await buildTestApp({ WEB_DIST_DIR: dir, TRUST_PROXY: '127.0.0.1', LEGACY_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

function expectCommonHeaders(res: LightMyRequestResponse, what: string) {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(res.headers['permissions-policy'], what).toBe(PERMISSIONS_POLICY);
  expect(String(res.headers['permissions-policy'])).toMatch(/(^|, )geolocation=\(\)/);
  expect(String(res.headers['permissions-policy'])).toMatch(/(^|, )camera=\(\)/);
  expect(res.headers['x-powered-by'], what).toBeUndefined();
}

describe('security headers (@fastify/helmet)', () => {
  it('sends the app (index, client routes, assets) with today’s CSP, unchanged', async () => {
    for (const url of ['/', '/case/create', '/admin/case/2', '/app.js']) {
      const res = await plain.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectCommonHeaders(res, url);
      expect(directives(String(res.headers['content-security-policy'])), url).toEqual(
        directives(CSP_BEFORE_HELMET),
      );
    }
  });

  it('sends the API replies, refusals included, with the same headers and no-store', async () => {
    const cookie = await signIn(plain.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
    const replies = {
      ok: await plain.app.inject({ method: 'GET', url: '/api/v1/cases/2', headers: browser(cookie) }),
      unauthorized: await plain.app.inject({ method: 'GET', url: '/api/v1/cases/2' }),
      missing: await plain.app.inject({ method: 'GET', url: '/api/v1/nope' }),
      csrf: await plain.app.inject({
        method: 'POST',
        url: '/api/v1/cases/search',
        headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        payload: {},
      }),
      health: await plain.app.inject({ method: 'GET', url: '/healthz' }),
    };
    expect(replies.ok.statusCode).toBe(200);
    expect(replies.unauthorized.statusCode).toBe(401);
    expect(replies.missing.statusCode).toBe(404);
    expect(replies.csrf.statusCode).toBe(403);
    for (const [what, res] of Object.entries(replies)) {
      expectCommonHeaders(res, what);
      expect(directives(String(res.headers['content-security-policy'])), what).toEqual(
        directives(CSP_BEFORE_HELMET),
      );
      if (what !== 'health') expect(res.headers['cache-control'], what).toBe('no-store');
    }
  });

  it('sends exactly the headers @fastify/helmet sends per request for the same options', async () => {
    const reference = Fastify({ logger: false });
    await reference.register(helmet, HELMET_OPTIONS);
    reference.get('/api/v1/session', async () => ({}));
    try {
      const expected = (await reference.inject({ method: 'GET', url: '/api/v1/session' })).headers;
      const actual = (await plain.app.inject({ method: 'GET', url: '/api/v1/session' })).headers;
      const helmetNames = Object.keys(expected).filter(
        (name) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name),
      );
      expect(helmetNames.length).toBeGreaterThan(8);
      for (const name of helmetNames) expect(actual[name], name).toBe(expected[name]);
    } finally {
      await reference.close();
    }
  });

  it('keeps the downloads’ sandboxing CSP', async () => {
    const cookie = await signIn(plain.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
    const detail = (
      await plain.app.inject({ method: 'GET', url: '/api/v1/cases/2', headers: browser(cookie) })
    ).json() as CaseDetail;
    const file = detail.attachments[0]!;
    const res = await plain.app.inject({
      method: 'GET',
      url: `/api/v1/cases/2/attachments/${file.id}`,
      headers: browser(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expectCommonHeaders(res, 'download');
  });

  it('sends Strict-Transport-Security only over https (TLS or a trusted proxy’s X-Forwarded-Proto)', async () => {
    const behindProxy = await proxied.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(behindProxy.headers['strict-transport-security']).toBe(HSTS);
    const api = await proxied.app.inject({
      method: 'GET',
      url: '/api/v1/session',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(api.headers['strict-transport-security']).toBe(HSTS);
    // Plain http behind the same proxy, and a forged header without a trusted proxy: no HSTS.
    const httpProxied = await proxied.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(httpProxied.headers['strict-transport-security']).toBeUndefined();
    const forged = await plain.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});
