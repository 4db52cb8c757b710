/**
 * What leaves the gateway compressed: JSON replies above the threshold (brotli preferred, gzip
 * otherwise), the build's precompressed twins of web assets; and what never is: replies of the
 * secret-bearing routes (tracking, session), small replies, and compressed request bodies (never
 * inflated).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { demoCases } from '@wbs/legacy-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesSecrets } from './compression.ts';
import { browser, buildTestApp, ORIGIN, signInAs, type TestApp } from './test/helpers.ts';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wbs-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>WBS</title>');
  writeFileSync(join(dir, 'assets', 'app-1.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'app-1.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets', 'app-1.js.gz'), gzipSync(SCRIPT));
  t = await buildTestApp({ WEB_DIST_DIR: dir });
  cookie = await signInAs(t.app, 2);
});
afterAll(async () => t.close());

describe('JSON replies', () => {
  it('a large list is brotli when accepted, gzip otherwise, identical once decoded', async () => {
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/v1/regions/provinces',
      headers: browser(cookie),
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await t.app.inject({
      method: 'GET',
      url: '/api/v1/regions/provinces',
      headers: { ...browser(cookie), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await t.app.inject({
      method: 'GET',
      url: '/api/v1/regions/provinces',
      headers: { ...browser(cookie), 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('a reply under 1 KB stays plain', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/channels',
      headers: { ...browser(cookie), 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('secret-bearing replies are never compressed (tracking, session)', async () => {
    const [anyCase] = demoCases;
    const tracking = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking',
      headers: { origin: ORIGIN, 'accept-encoding': 'br, gzip' },
      payload: { caseNumber: anyCase?.caseNumber, password: anyCase?.password },
    });
    expect(tracking.statusCode, tracking.body).toBe(200);
    expect(tracking.body.length).toBeGreaterThan(1024);
    expect(tracking.headers['content-encoding']).toBeUndefined();
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/v1/session',
      headers: { ...browser(cookie), 'accept-encoding': 'br, gzip' },
    });
    expect(session.headers['content-encoding']).toBeUndefined();
  });

  it('knows which routes carry secrets', () => {
    expect(carriesSecrets({ url: '/api/v1/cases', method: 'POST' })).toBe(true);
    expect(carriesSecrets({ url: '/api/v1/cases', method: 'GET' })).toBe(false);
    expect(carriesSecrets({ url: '/api/v1/tracking/messages', method: ['GET', 'HEAD'] })).toBe(true);
    expect(carriesSecrets({ url: '/api/v1/password/forgot', method: 'POST' })).toBe(true);
    expect(carriesSecrets({ url: '/api/v1/cases/search', method: 'POST' })).toBe(false);
  });

  it('a gzip request body is not inflated (no decompression bombs)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: { ...browser(cookie), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ start: 0, length: 10 })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('web assets', () => {
  it('serves the precompressed twin the browser accepts, the plain file otherwise', async () => {
    const br = await t.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await t.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: '/assets/app-1.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });
});
