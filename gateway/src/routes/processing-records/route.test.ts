/**
 * The records of processing through the real app: the administrator's alone, generated from the
 * running configuration (a company's own retention period appears as soon as it is set) and the
 * permission matrix.
 */

import type { ProcessingRecordsReply } from '@wbs/shared/api/retention';
import { USER_TYPE_IDS } from '@wbs/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, buildTestApp, ORIGIN, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
const cookies = new Map<number, string>();
const get = (type: number | null) =>
  t.app.inject({
    method: 'GET',
    url: '/api/v1/processing-records',
    headers: type === null ? { origin: ORIGIN } : browser(cookies.get(type)!),
  });

beforeAll(async () => {
  t = await buildTestApp({ RETENTION_MONTHS: '9' });
  for (const type of USER_TYPE_IDS) cookies.set(type, await signInAs(t.app, type));
}, 60_000);
afterAll(async () => t?.close());

describe('records of processing', () => {
  it('lets only the administrator in: every other user type is 403, a guest 401', async () => {
    for (const type of [2, 3, 4, 5, 6]) expect((await get(type)).statusCode, `type ${type}`).toBe(403);
    expect((await get(null)).statusCode).toBe(401);
  });

  it('says what the running configuration and the permission matrix say', async () => {
    const res = await get(1);
    expect(res.statusCode).toBe(200);
    const reply = res.json() as ProcessingRecordsReply;
    expect(reply.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(reply.activities.length).toBeGreaterThan(5);
    for (const activity of reply.activities) {
      expect(activity.name && activity.purpose && activity.legalBasis && activity.retention).toBeTruthy();
      expect(activity.access.length).toBeGreaterThan(0);
    }
    const messages = reply.activities.find((a) => a.name === 'Pesan antara penangan dan pelapor')!;
    expect(messages.retention).toContain('9 bulan');
    expect(messages.access).toContain('Admin Perusahaan');
    expect(messages.access).not.toContain('Administrator');
    expect(messages.storedIn).toContain('PGlite');
    const audit = reply.activities.find((a) => a.name === 'Jejak audit tindakan staf')!;
    expect(audit.access).toEqual(['Administrator', 'Admin Perusahaan']);
    // Route tests sign in with a password alone (SECOND_FACTOR_TYPES=none): the records say so.
    expect(reply.activities.find((a) => a.name.startsWith('Akun staf'))!.purpose).toContain(
      'tidak diwajibkan',
    );

    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/retention-periods/2',
          headers: browser(cookies.get(1)!),
          payload: { months: 36 },
        })
      ).statusCode,
    ).toBe(200);
    const after = (await get(1)).json() as ProcessingRecordsReply;
    expect(after.activities[0]!.retention).toMatch(/: 36 bulan/);
  });
});
