/**
 * Tambah Bukti through the real app against legacy-sim: the tracker (number and password in the
 * multipart parts, the gateway's service account towards the legacy) and the signed-in pelapor.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, ORIGIN, signIn, signInAs, type TestApp } from '../../test/helpers.ts';
import { type FileSpec, legacyTrack, multipart, pdfBytes, pngBytes } from '../../test/uploads.ts';

const FLOOR_MS = 150;
const [baru] = demoCases;
let t: TestApp;
let png: Uint8Array;
let pdf: Uint8Array;

const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: 'Admin#2026!' };
const LIMITS = {
  TRACKING_FAILURE_FLOOR_MS: String(FLOOR_MS),
  TRACKING_MAX_PER_NUMBER: '200',
  TRACKING_MAX_PER_CLIENT: '1000',
};

beforeAll(async () => {
  t = await buildTestApp({ ...SERVICE, ...LIMITS, RATE_LIMIT_NAMESPACE: `test-evidence-${randomUUID()}` });
  png = await pngBytes();
  pdf = await pdfBytes({ author: 'Pelapor Rahasia' });
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

const file = (name: string, bytes: Uint8Array): FileSpec => ({ field: 'attachments', name, bytes });

async function trackerAdd(
  app: TestApp['app'],
  fields: Record<string, string>,
  files: FileSpec[],
  headers: Record<string, string> = {},
) {
  const body = await multipart(fields, files);
  return app.inject({
    method: 'POST',
    url: '/api/v1/tracking/attachments',
    payload: body.payload,
    headers: { origin: ORIGIN, ...body.headers, ...headers },
    remoteAddress: '198.51.100.40',
  });
}
const proof = { caseNumber: baru.caseNumber, password: baru.password };
const legacyNames = async () =>
  (await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password)).attachments.map(
    (a) => a.attachmentName,
  );

describe('POST /tracking/attachments', () => {
  it('adds the tracker’s files once under retry, scrubbed, and staff of the company can download them', async () => {
    const before = await legacyNames();
    const key = { 'idempotency-key': `evidence-${randomUUID()}` };
    const first = await trackerAdd(t.app, proof, [file('faktur.pdf', pdf), file('foto.png', png)], key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await trackerAdd(t.app, proof, [file('faktur.pdf', pdf), file('foto.png', png)], key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    const after = await legacyNames();
    expect(after).toEqual([...before, 'faktur.pdf', 'foto.png']);
    const added = first.json().attachments.find((a: { name: string }) => a.name === 'faktur.pdf');
    const cookie = await signInAs(t.app, 2);
    const { caseId } = await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cases/${caseId}/attachments/${added.id}`,
      headers: browser(cookie),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Scrubbed like the wizard's files: the author's name is gone.
    expect(download.rawPayload.includes(Buffer.from('Pelapor Rahasia'))).toBe(false);
    const otherKeyOtherFiles = await trackerAdd(t.app, proof, [file('lain.png', png)], key);
    expect(otherKeyOtherFiles.statusCode).toBe(409);
  });

  it('a wrong password or unknown number is the same 404 after the floor, and nothing is added', async () => {
    const before = await legacyNames();
    for (const fields of [
      { ...proof, password: 'bukan-sandinya' },
      { caseNumber: 'WBS-99999999', password: baru.password },
    ]) {
      const started = performance.now();
      const res = await trackerAdd(t.app, fields, [file('foto.png', png)]);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe(PROBLEM_MESSAGES.trackingFailed);
      expect(performance.now() - started).toBeGreaterThanOrEqual(FLOOR_MS - 5);
    }
    const missing = await trackerAdd(t.app, { caseNumber: '', password: '' }, [file('foto.png', png)]);
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(expect.arrayContaining(['caseNumber', 'password']));
    expect(await legacyNames()).toEqual(before);
  });

  it('counts the files already there (5 per case), refuses a name the case has, and the wizard’s file checks apply', async () => {
    const before = await legacyNames();
    const room = 5 - before.length;
    const tooMany = Array.from({ length: room + 1 }, (_, i) => file(`bukti-${i}.png`, png));
    const over = await trackerAdd(t.app, proof, tooMany);
    expect(over.statusCode).toBe(400);
    expect(over.json().errors.attachments).toBe('Lampiran tidak boleh melebihi 5');
    const existing = before[0];
    if (existing) {
      const duplicate = await trackerAdd(t.app, proof, [
        file(existing, existing.endsWith('.pdf') ? pdf : png),
      ]);
      expect(duplicate.statusCode).toBe(400);
      expect(JSON.stringify(duplicate.json().errors)).toContain(`Lampiran ${existing} telah dipilih`);
    }
    const fake = await trackerAdd(t.app, proof, [file('foto.png', Buffer.from('MZ not an image at all'))]);
    expect(fake.statusCode).toBe(400);
    const none = await trackerAdd(t.app, proof, []);
    expect(none.statusCode).toBe(400);
    const fill = Array.from({ length: room }, (_, i) => file(`isi-${i}.png`, png));
    expect((await trackerAdd(t.app, proof, fill)).statusCode).toBe(201);
    const full = await trackerAdd(t.app, proof, [file('satu-lagi.png', png)]);
    expect(full.statusCode).toBe(400);
    expect(full.json().errors.attachments).toBe('Lampiran sudah mencapai batas maksimal');
    expect(await legacyNames()).toHaveLength(5);
  });

  it('a double quote in a file name is shown as itself everywhere, and stays safe in headers', async () => {
    const name = 'bukti "final" 100%.png';
    // Serialised as a browser does (the test helper's FormData): `"` is written `%22` in the part header.
    const body = await multipart(proof, [file(name, png)]);
    expect(body.payload.toString('latin1')).toContain('filename="bukti %22final%22 100%.png"');
    const added = await trackerAdd(t.app, proof, [file(name, png)]);
    expect(added.statusCode, added.body).toBe(201);
    const attachment = added.json().attachments.find((a: { name: string }) => a.name === name);
    expect(attachment, added.body).toBeDefined();
    expect(added.body).not.toContain('%22');
    // The legacy keeps the form-data form it received, as from its own browser uploads.
    expect(await legacyNames()).toContain('bukti %22final%22 100%.png');

    const cookie = await signInAs(t.app, 2);
    const { caseId } = await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cases/${caseId}`,
      headers: browser(cookie),
    });
    expect(detail.json().attachments.map((a: { name: string }) => a.name)).toContain(name);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cases/${caseId}/attachments/${attachment.id}`,
      headers: browser(cookie),
    });
    expect(download.statusCode).toBe(200);
    // RFC 6266: an ASCII fallback without the quote, and the real name in RFC 5987 `filename*`.
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="bukti _final_ 100_.png"; filename*=UTF-8''bukti%20%22final%22%20100%25.png`,
    );

    // The same name again is the case's own: refused, the message naming the real name.
    const again = await trackerAdd(t.app, proof, [file(name, png)]);
    expect(again.statusCode).toBe(400);
    expect(Object.values(again.json().errors)).toContain(`Lampiran ${name} telah dipilih`);
  });

  it('without a service account the tracker’s Tambah Bukti is unavailable (503), with a clear text', async () => {
    const bare = await buildTestApp({ ...LIMITS, RATE_LIMIT_NAMESPACE: `test-evidence-${randomUUID()}` });
    try {
      const res = await trackerAdd(bare.app, proof, [file('foto.png', png)]);
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toBe(PROBLEM_MESSAGES.evidenceUnavailable);
    } finally {
      await bare.close();
    }
  });
});

describe('POST /cases/{id}/attachments', () => {
  const pelaporCase = async (cookie: string) => {
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: browser(cookie),
      payload: { from: '2000-01-01', to: latestIndonesianToday(), page: 1, pageSize: 10 },
    });
    expect(list.statusCode, list.body).toBe(200);
    return list.json().items[0].id as number;
  };

  it('the pelapor adds to its own case; another’s case is 404 and staff may not use it', async () => {
    const cookie = await signIn(t.app, 'pelapor', 'Pelapor#2026!');
    const own = await pelaporCase(cookie);
    const body = await multipart({}, [file('tambahan.png', png)]);
    const add = (id: number, who: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/cases/${id}/attachments`,
        payload: body.payload,
        headers: { ...browser(who), ...body.headers },
      });
    const res = await add(own, cookie);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().attachments.map((a: { name: string }) => a.name)).toContain('tambahan.png');
    const { caseId: notOwn } = await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password);
    if (notOwn !== own) expect((await add(notOwn, cookie)).statusCode).toBe(404);
    expect((await add(own, await signInAs(t.app, 2))).statusCode).toBe(403);
  });
});
