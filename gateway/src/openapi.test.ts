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
});
