import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openApiJson } from './openapi.ts';
import { buildTestApp, type TestApp } from './test/helpers.ts';

let generated: string;
let t: TestApp;
beforeAll(async () => {
  generated = await openApiJson();
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('OpenAPI document', () => {
  it('the committed openapi/openapi.json is up to date (run `pnpm openapi`)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
    expect(committed, 'openapi/openapi.json is stale: run `pnpm openapi`').toBe(generated);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = JSON.parse(generated);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('WBS Gateway API');
    expect(doc.servers).toEqual([{ url: '/' }]);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every registered API route', () => {
    const paths = JSON.parse(generated).paths as Record<string, Record<string, unknown>>;
    const missing = t.routes
      .filter((r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD')
      .map((r) => ({ path: r.url.replace(/:([A-Za-z]+)/g, '{$1}'), method: r.method.toLowerCase() }))
      .filter(({ path, method }) => !paths[path]?.[method])
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
  });

  it('gives every operation an operationId, security, its callers and problem+json errors', () => {
    const doc = JSON.parse(generated);
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, Record<string, unknown>>>,
    )) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toEqual(expect.any(String));
        expect(ids.has(op.operationId as string), `${where}: duplicate operationId`).toBe(false);
        ids.add(op.operationId as string);
        expect(Array.isArray(op.security), `${where}: security`).toBe(true);
        expect((op['x-allowed-subjects'] as string[]).length, `${where}: callers`).toBeGreaterThan(0);
        const responses = op.responses as Record<string, { $ref?: string }>;
        expect(responses['4XX']?.$ref, where).toBe('#/components/responses/ClientProblem');
        expect(responses['503']?.$ref, where).toBe('#/components/responses/Unavailable');
      }
    }
    const unavailable = doc.components.responses.Unavailable;
    expect(Object.keys(unavailable.content)).toEqual(['application/problem+json']);
    expect(unavailable.headers['Retry-After']).toBeDefined();
  });

  it('requires what the server refuses when missing', () => {
    const doc = JSON.parse(generated);
    expect(doc.components.schemas.LoginRequest.required).toEqual(['username', 'password']);
    expect(JSON.stringify(doc.components.schemas.LoginRequest)).not.toContain('"default"');
    const dashboard = doc.paths['/api/v1/dashboard/summary'].get.parameters as {
      name: string;
      required: boolean;
    }[];
    expect(dashboard.filter((p) => p.required).map((p) => p.name)).toEqual(['from', 'to']);
    // No default anywhere that its own schema refuses (spectral: oas3-valid-schema-example).
    expect(generated).not.toMatch(/"default": ""/);
  });

  it('public operations need no session; a signed-in operation names the cookie scheme', () => {
    const doc = JSON.parse(generated);
    expect(doc.paths['/api/v1/tracking'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/partners'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/v1/cases'].post.security).toEqual([{}, { session: [] }]);
    expect(doc.paths['/api/v1/partners'].get['x-allowed-subjects']).toEqual(['1 Administrator']);
  });
});
