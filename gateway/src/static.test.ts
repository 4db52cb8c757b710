import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './test/helpers.ts';

let withSpa: TestApp;
let bare: TestApp;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wbs-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>WBS</title>');
  writeFileSync(join(dir, 'index.html.br'), brotliCompressSync('<!doctype html><title>WBS</title>'));
  writeFileSync(join(dir, 'app.js'), 'console.log(1)');
  mkdirSync(join(dir, 'prerendered', 'case'), { recursive: true });
  mkdirSync(join(dir, 'prerendered', 'admin'), { recursive: true });
  writeFileSync(
    join(dir, 'prerendered', 'admin', 'checkcase.html'),
    '<!doctype html><title>WBS</title><p>Pantau Laporan</p>',
  );
  writeFileSync(join(dir, 'prerendered', 'index.html'), '<!doctype html><title>WBS</title><p>Beranda</p>');
  writeFileSync(
    join(dir, 'prerendered', 'case', 'create.html'),
    '<!doctype html><title>WBS</title><p>Wizard</p>',
  );
  withSpa = await buildTestApp({ WEB_DIST_DIR: dir, DOCS_ENABLED: 'true' });
  bare = await buildTestApp({ WEB_DIST_DIR: join(dir, 'missing') });
});
afterAll(async () => {
  await withSpa.close();
  await bare.close();
});

describe('web app and docs', () => {
  it('serves the SPA, its assets and the index.html fallback for client routes', async () => {
    const index = await withSpa.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>WBS</title>');
    const asset = await withSpa.app.inject({ method: 'GET', url: '/app.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const route = await withSpa.app.inject({ method: 'GET', url: '/admin/partner?x=1' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>WBS</title>');
  });

  it('sends a guest the prerendered page of its path, a visitor with a session cookie the plain app', async () => {
    const landing = await withSpa.app.inject({ method: 'GET', url: '/' });
    expect(landing.body).toContain('<p>Beranda</p>');
    expect(landing.headers.vary).toContain('Cookie');
    expect(landing.headers['cache-control']).toBe('no-cache');
    const wizard = await withSpa.app.inject({ method: 'GET', url: '/case/create?x=1' });
    expect(wizard.body).toContain('<p>Wizard</p>');
    const signedIn = await withSpa.app.inject({
      method: 'GET',
      url: '/case/create',
      cookies: { wbs_session: 'x' },
    });
    expect(signedIn.body).toBe('<!doctype html><title>WBS</title>');
    const other = await withSpa.app.inject({ method: 'GET', url: '/case' });
    expect(other.body).toBe('<!doctype html><title>WBS</title>');
  });

  it('sends the prerendered Pantau Laporan under /admin to guests only, and no other /admin page', async () => {
    const guest = await withSpa.app.inject({ method: 'GET', url: '/admin/checkcase' });
    expect(guest.body).toContain('<p>Pantau Laporan</p>');
    expect(guest.headers.vary).toContain('Cookie');
    expect(guest.headers['cache-control']).toBe('no-cache');
    const signedIn = await withSpa.app.inject({
      method: 'GET',
      url: '/admin/checkcase',
      cookies: { wbs_session: 'x' },
    });
    expect(signedIn.body).toBe('<!doctype html><title>WBS</title>');
    for (const url of ['/admin', '/admin/case', '/admin/checkcase/x', '/admin/checkcase/']) {
      const other = await withSpa.app.inject({ method: 'GET', url });
      expect(other.body, url).toBe('<!doctype html><title>WBS</title>');
    }
  });

  it('never lets a browser cache the HTML, compressed or not (a deploy must reach open tabs)', async () => {
    for (const headers of [{ 'accept-encoding': 'br' }, { 'accept-encoding': 'identity' }]) {
      for (const url of ['/', '/admin/partner', '/prerendered/index.html', '/index.html']) {
        const res = await withSpa.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    }
    const compressed = await withSpa.app.inject({
      method: 'GET',
      url: '/admin/partner',
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
  });

  it('sends the app with a same-origin-only Content-Security-Policy', async () => {
    for (const url of ['/', '/case/create']) {
      const csp = String(
        (await withSpa.app.inject({ method: 'GET', url })).headers['content-security-policy'],
      );
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    }
  });

  it('answers 404 for a missing file instead of the app (no blank page from a stale asset)', async () => {
    for (const url of ['/assets/index-old.js', '/missing.css']) {
      const res = await withSpa.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<title>WBS</title>');
    }
  });

  it('never falls back for API paths or non-GET requests', async () => {
    const api = await withSpa.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/problem+json');
    expect((await withSpa.app.inject({ method: 'POST', url: '/admin/partner' })).statusCode).toBe(404);
  });

  it('skips the SPA when the folder is missing', async () => {
    expect((await bare.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
  });

  it('serves /api/docs only when DOCS_ENABLED', async () => {
    const docs = await withSpa.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(docs.json().info.title).toBe('WBS Gateway API');
    expect((await bare.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
  });
});
