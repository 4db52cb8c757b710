/**
 * A multipart request whose Content-Type is damaged (no boundary, an empty or a quoted-empty one) is
 * the client's mistake: a 400 with an Indonesian text on both upload routes, never a 500.
 */

import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ORIGIN, signInAs, type TestApp } from '../test/helpers.ts';
import { guestAnonymousFields, multipart } from '../test/uploads.ts';

const damagedContentTypes = [
  'multipart/form-data',
  'multipart/form-data;',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=""',
  'multipart/form-data; charset=utf-8',
  'multipart/form-data; boundary',
];

describe('multipart without a usable boundary', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it.each(damagedContentTypes)('POST /api/v1/cases with %j is a 400 in Indonesian', async (contentType) => {
    const { payload } = await multipart(guestAnonymousFields());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      headers: { 'content-type': contentType, origin: ORIGIN },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    // Either the damaged form itself, or (when the parser sees an empty form) the fields it lacks,
    // named in the detail.
    const body = res.json() as { detail: string; errors?: Record<string, string> };
    if (body.detail !== PROBLEM_MESSAGES.malformedUpload) {
      expect(body.detail).toMatch(/^Terdapat \d+ isian yang tidak valid: /);
      expect(body.detail).toContain(Object.keys(body.errors ?? {})[0] ?? '(no field errors)');
    }
    expect(res.body).not.toMatch(/boundary|Multipart/);
  });

  it('a case log upload with a damaged boundary is a 400 too', async () => {
    const cookie = await signInAs(t.app, 2);
    const { payload } = await multipart({ message: 'Catatan' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/1/logs',
      headers: { 'content-type': 'multipart/form-data', origin: ORIGIN, cookie },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(PROBLEM_MESSAGES.malformedUpload);
    expect(res.body).not.toMatch(/boundary|Multipart/);
  });
});
