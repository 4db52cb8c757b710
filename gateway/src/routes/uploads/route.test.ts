import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import {
  createUpload,
  draftFiles,
  head,
  openDraft,
  patch,
  TUS,
  tusMetadata,
  uploadIdOf,
  uploadWhole,
} from '../../test/tus.ts';
import {
  guestAnonymousFields,
  legacyCaseCount,
  legacyToken,
  legacyTrack,
  multipart,
  pngBytes,
} from '../../test/uploads.ts';

let t: TestApp;
let root: string;
let bigPdf: Uint8Array;

/** A real PDF of about `kb` KB (an embedded stream of random bytes), so content checks pass. */
async function pdfOf(kb: number, title = 'Bukti'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.addPage().drawText(title);
  doc.attach(randomBytes(kb * 1024), 'isi.bin', { mimeType: 'application/octet-stream' });
  return doc.save({ useObjectStreams: false });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'wbs-drafts-test-'));
  t = await buildTestApp({ UPLOAD_DRAFTS_DIR: root });
  bigPdf = await pdfOf(600);
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => t.legacy.reset());
afterEach(() => vi.useRealTimers());

describe('a draft and its uploads', () => {
  it('opens a draft whose token is unguessable and never in a URL; an upload gets its own URL', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/upload-drafts' });
    expect(res.statusCode).toBe(201);
    const { token, expiresAt } = res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const created = await createUpload(t.app, token, { field: 'evidence', name: 'bukti.pdf', size: 100 });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toMatch(/^\/api\/v1\/uploads\/[a-f0-9]{32}$/);
    expect(String(created.headers.location)).not.toContain(token);
    // No CORS header: the upload endpoints are same-origin only.
    expect(created.headers['access-control-allow-origin']).toBeUndefined();
    // The token is stored nowhere on disk: only its keyed hash names the draft's folder.
    const names = await readdir(join(root, 'drafts'), { recursive: true });
    expect(names.join('\n')).not.toContain(token);
  });

  it('keeps offsets: HEAD says what arrived, a PATCH at another offset is 409, the rest completes it', async () => {
    const token = await openDraft(t.app);
    const created = await createUpload(t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: bigPdf.length,
    });
    const id = uploadIdOf(created.headers.location);
    expect((await head(t.app, token, id)).headers['upload-offset']).toBe('0');
    const half = Math.floor(bigPdf.length / 2);
    const first = await patch(t.app, token, id, 0, bigPdf.subarray(0, half));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    const headed = await head(t.app, token, id);
    expect(headed.headers['upload-offset']).toBe(String(half));
    expect(headed.headers['upload-length']).toBe(String(bigPdf.length));
    const wrong = await patch(t.app, token, id, 10, bigPdf.subarray(10, 20));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.json().detail).toMatch(/Posisi unggahan/);
    expect((await draftFiles(t.app, token)).json().items[0]).toMatchObject({
      state: 'uploading',
      name: 'bukti.pdf',
    });
    const rest = await patch(t.app, token, id, half, bigPdf.subarray(half));
    expect(rest.statusCode).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(bigPdf.length));
    expect((await draftFiles(t.app, token)).json().items).toEqual([
      { id, field: 'evidence', name: 'bukti.pdf', size: bigPdf.length, state: 'accepted', reason: null },
    ]);
  });

  it('resumes after a cut: the bytes before the cut are kept and the upload goes on from its offset', async () => {
    const token = await openDraft(t.app);
    const created = await createUpload(t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: bigPdf.length,
    });
    const id = uploadIdOf(created.headers.location);
    const cutAt = 300 * 1024;
    // The body stops mid-way with an error, as a dropped mobile link does.
    const body = new Readable({
      read() {
        this.push(Buffer.from(bigPdf.subarray(0, cutAt)));
        setTimeout(() => this.destroy(new Error('link cut')), 500);
        this.read = () => undefined;
      },
    });
    await patch(t.app, token, id, 0, body).catch(() => undefined);
    const offset = Number((await head(t.app, token, id)).headers['upload-offset']);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(cutAt);
    const rest = await patch(t.app, token, id, offset, bigPdf.subarray(offset));
    expect(rest.statusCode).toBe(204);
    expect((await draftFiles(t.app, token)).json().items[0].state).toBe('accepted');
  });

  it('refuses a damaged file when its upload completes, with the reason next to its name', async () => {
    const token = await openDraft(t.app);
    const png = await pngBytes();
    const damaged = randomBytes(50_000);
    await uploadWhole(t.app, token, { field: 'evidence', name: 'bukti.pdf', bytes: damaged }, 2);
    await uploadWhole(t.app, token, { field: 'attachments', name: 'foto.png', bytes: png });
    const items = (await draftFiles(t.app, token)).json().items;
    expect(items).toMatchObject([
      {
        name: 'bukti.pdf',
        state: 'refused',
        reason: format(TEMPLATE_MESSAGES.fileContentMismatch, { name: 'bukti.pdf' }),
      },
      { name: 'foto.png', state: 'accepted', reason: null },
    ]);
    // Filing with a refused file names it under its field; nothing reaches the legacy.
    const form = await multipart(guestAnonymousFields());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      payload: form.payload,
      headers: { ...form.headers, 'upload-draft': token },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.evidence).toBe(
      format(TEMPLATE_MESSAGES.fileContentMismatch, { name: 'bukti.pdf' }),
    );
  });

  it('answers 503 busy when the server is too busy to scrub a completed file, and keeps it unjudged', async () => {
    // A wall bound no image scrub finishes in: what a server too busy to finish it looks like.
    const starved = await buildTestApp({ UPLOAD_DRAFTS_DIR: root, SCRUB_TIMEOUT_MS: '1' });
    try {
      const photo = await sharp({
        create: { width: 6000, height: 4000, channels: 3, background: { r: 90, g: 120, b: 60 } },
      })
        .jpeg()
        .toBuffer();
      const token = await openDraft(starved.app);
      const created = await createUpload(starved.app, token, {
        field: 'evidence',
        name: 'foto.jpg',
        size: photo.length,
      });
      const last = await patch(starved.app, token, uploadIdOf(created.headers.location), 0, photo);
      expect(last.statusCode).toBe(503);
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.json().title).toBe(PROBLEM_MESSAGES.busy);
      // Neither refused nor lost: the whole file waits in the draft for its verdict.
      expect((await draftFiles(starved.app, token)).json().items).toMatchObject([
        { name: 'foto.jpg', state: 'uploading', reason: null, size: photo.length },
      ]);
      // Told as the pool's state, never as an internal error.
      expect(starved.logs.filter((line) => line.problem === 'internal')).toEqual([]);
    } finally {
      await starved.close();
    }
  });

  it('holds the limits at creation: type, size, duplicate, 1 evidence and 5 files per draft', async () => {
    const token = await openDraft(t.app);
    const exe = await createUpload(t.app, token, { field: 'attachments', name: 'alat.exe', size: 10 });
    expect(exe.statusCode).toBe(400);
    expect(exe.json().errors.attachments).toBe(
      format(TEMPLATE_MESSAGES.fileTypeNotAllowed, { name: 'alat.exe' }),
    );
    const big = await createUpload(t.app, token, {
      field: 'attachments',
      name: 'besar.pdf',
      size: 10 * 1024 * 1024 + 1,
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().errors.attachments).toBe(format(TEMPLATE_MESSAGES.fileTooLarge, { name: 'besar.pdf' }));
    expect(
      (await createUpload(t.app, token, { field: 'evidence', name: 'a.pdf', size: 10 })).statusCode,
    ).toBe(201);
    const second = await createUpload(t.app, token, { field: 'evidence', name: 'b.pdf', size: 10 });
    expect(second.statusCode).toBe(400);
    const dup = await createUpload(t.app, token, { field: 'attachments', name: 'A.PDF', size: 10 });
    expect(dup.json().errors.attachments).toBe(format(TEMPLATE_MESSAGES.fileDuplicate, { name: 'A.PDF' }));
    for (const name of ['c.pdf', 'd.pdf', 'e.pdf', 'f.pdf']) {
      expect((await createUpload(t.app, token, { field: 'attachments', name, size: 10 })).statusCode).toBe(
        201,
      );
    }
    const sixth = await createUpload(t.app, token, { field: 'attachments', name: 'g.pdf', size: 10 });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().errors.attachments).toBe(format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: 5 }));
    // Hapus frees a place.
    const items = (await draftFiles(t.app, token)).json().items;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/uploads/${items[4].id}`,
      headers: { ...TUS, 'upload-draft': token },
    });
    expect(removed.statusCode).toBe(204);
    expect(
      (await createUpload(t.app, token, { field: 'attachments', name: 'g.pdf', size: 10 })).statusCode,
    ).toBe(201);
  });

  it('a creation sent again (its reply lost on the way) replaces the unfinished upload, not a duplicate', async () => {
    const token = await openDraft(t.app);
    const first = await createUpload(t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: bigPdf.length,
    });
    const again = await createUpload(t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: bigPdf.length,
    });
    expect(again.statusCode).toBe(201);
    const items = (await draftFiles(t.app, token)).json().items;
    expect(items.map((f: { id: string }) => f.id)).toEqual([uploadIdOf(again.headers.location)]);
    expect((await head(t.app, token, uploadIdOf(first.headers.location))).statusCode).toBe(404);
  });

  it("opens nothing with an upload's id alone or another draft's token: 404 alike, 400 without a token", async () => {
    const mine = await openDraft(t.app);
    const other = await openDraft(t.app);
    const id = uploadIdOf(
      (await createUpload(t.app, mine, { field: 'evidence', name: 'a.pdf', size: 10 })).headers.location,
    );
    expect((await head(t.app, other, id)).statusCode).toBe(404);
    expect((await patch(t.app, other, id, 0, Buffer.from('%PDF-'))).statusCode).toBe(404);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/uploads/${id}`,
      headers: { ...TUS, 'upload-draft': other },
    });
    expect(deleted.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'HEAD', url: `/api/v1/uploads/${id}`, headers: TUS });
    expect(anonymous.statusCode).toBe(400);
    expect((await head(t.app, mine, '0'.repeat(32))).statusCode).toBe(404);
    expect((await draftFiles(t.app, other)).json().items).toEqual([]);
    // Still intact for its own draft.
    expect((await head(t.app, mine, id)).headers['upload-offset']).toBe('0');
  });

  it('expires a draft after 24 h: its uploads answer 404 and its files are removed from disk', async () => {
    const token = await openDraft(t.app);
    const id = await uploadWhole(t.app, token, { field: 'evidence', name: 'bukti.pdf', bytes: bigPdf });
    expect((await readdir(join(root, 'uploads'))).some((n) => n.startsWith(id))).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3600_000 + 1000 });
    expect((await head(t.app, token, id)).statusCode).toBe(404);
    expect((await draftFiles(t.app, token)).statusCode).toBe(404);
    expect((await readdir(join(root, 'uploads'))).some((n) => n.startsWith(id))).toBe(false);
    // The periodic clean-up removes drafts nobody comes back to.
    const stale = await openDraft(t.app);
    await uploadWhole(t.app, stale, { field: 'evidence', name: 'bukti.pdf', bytes: bigPdf });
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 1000);
    expect(await t.app.uploads.drafts.sweep()).toBeGreaterThanOrEqual(1);
    expect((await draftFiles(t.app, stale)).statusCode).toBe(404);
  });

  it('files a report with five resumed files once, whatever the retries (same Idempotency-Key)', async () => {
    const token = await openDraft(t.app);
    const files = await Promise.all([0, 1, 2, 3, 4].map((i) => pdfOf(200 + i * 10, `Bukti ${i}`)));
    for (const [i, bytes] of files.entries()) {
      await uploadWhole(
        t.app,
        token,
        { field: i === 0 ? 'evidence' : 'attachments', name: `bukti-${i}.pdf`, bytes },
        3,
      );
    }
    const adminToken = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
    const before = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const send = async () => {
      const form = await multipart(guestAnonymousFields());
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/cases',
        payload: form.payload,
        headers: { ...form.headers, 'upload-draft': token, 'idempotency-key': 'lima-file-dilanjutkan' },
      });
    };
    const [first, again] = [await send(), await send()];
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().caseNumber).toBe(first.json().caseNumber);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(before + 1);
    const stored = await legacyTrack(t.legacy.apiUrl, first.json().caseNumber, 'Pipa-Bocor-Gudang-7');
    expect(stored.attachments.map((a) => a.attachmentName)).toEqual(files.map((_, i) => `bukti-${i}.pdf`));
    // The draft's bytes are gone once filed; adding to it is refused.
    expect((await readdir(join(root, 'uploads'))).filter((n) => !n.endsWith('.json')).length).toBeLessThan(
      50,
    );
    expect(
      (await createUpload(t.app, token, { field: 'attachments', name: 'lagi.pdf', size: 10 })).statusCode,
    ).toBe(404);
  }, 60_000);
});

describe('bad tus requests (generated)', () => {
  const badHeader = fc.oneof(
    fc.constant(''),
    fc.constantFrom('-1', 'abc', '1e3', '0x10', ' 5', '99999999999999999999', '1.5', '５'),
    fc.string({ maxLength: 40 }),
  );
  it('answers every malformed tus header with a 4xx problem in Indonesian, never a crash', async () => {
    const token = await openDraft(t.app);
    const id = uploadIdOf(
      (await createUpload(t.app, token, { field: 'evidence', name: 'a.pdf', size: 100 })).headers.location,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tus-resumable', 'upload-length', 'upload-metadata', 'upload-offset', 'content-type'),
        badHeader,
        fc.boolean(),
        async (name, value, creation) => {
          const headers: Record<string, string> = creation
            ? {
                ...TUS,
                'upload-draft': token,
                'upload-length': '100',
                'upload-metadata': tusMetadata({ filename: 'x.pdf', field: 'attachments' }),
              }
            : {
                ...TUS,
                'upload-draft': token,
                'upload-offset': '0',
                'content-type': 'application/offset+octet-stream',
              };
          const valid =
            (creation && name === 'upload-length' && /^\d+$/.test(value)) || value === headers[name];
          if (valid) return;
          headers[name] = value;
          const res = await t.app.inject({
            method: creation ? 'POST' : 'PATCH',
            url: creation ? '/api/v1/uploads' : `/api/v1/uploads/${id}`,
            headers,
            payload: creation ? undefined : Buffer.from('%PDF-1.7'),
          });
          if (res.statusCode < 300) return; // a value tus reads as valid (e.g. a metadata it can parse)
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.headers['content-type']).toContain('application/problem+json');
          expect(res.json().detail).not.toMatch(/Invalid|Required|exceeded|Error/);
        },
      ),
      { numRuns: 80, seed: 2611 },
    );
    // The upload is still usable afterwards.
    expect((await head(t.app, token, id)).statusCode).toBe(200);
  }, 60_000);
});
