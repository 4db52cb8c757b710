/**
 * Resumable uploads for Tambah Bukti and activity-log attachments, through the real app against
 * legacy-sim: a draft is opened for one form, one caller and one case, its files reach the legacy with
 * that form's submission exactly as a multipart post's would, and a draft is never spent elsewhere.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { demoCases } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, ORIGIN, signInAs, type TestApp } from '../../test/helpers.ts';
import {
  createUpload,
  draftFiles,
  head,
  openDraft,
  openDraftAt,
  patch,
  uploadIdOf,
  uploadWhole,
} from '../../test/tus.ts';
import {
  guestAnonymousFields,
  legacyTrack,
  multipart,
  pdfBytes,
  pngBytes,
  storedLogAttachment,
} from '../../test/uploads.ts';

const [baru, investigasi] = demoCases;
const proofOf = (c: { caseNumber: string; password: string }) => ({
  caseNumber: c.caseNumber,
  password: c.password,
});
const SETTINGS = {
  LEGACY_SERVICE_USERNAME: 'admin',
  LEGACY_SERVICE_PASSWORD: 'Admin#2026!',
  TRACKING_FAILURE_FLOOR_MS: '50',
  TRACKING_MAX_PER_NUMBER: '500',
  TRACKING_MAX_PER_CLIENT: '1000',
  UPLOAD_DRAFTS_MAX_PER_CLIENT: '500',
};

let t: TestApp;
let root: string;
let pdf: Uint8Array;
let png: Uint8Array;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'wbs-bound-drafts-test-'));
  t = await buildTestApp({
    ...SETTINGS,
    UPLOAD_DRAFTS_DIR: root,
    RATE_LIMIT_NAMESPACE: `test-bound-drafts-${randomUUID()}`,
  });
  pdf = await pdfBytes({ author: 'Pelapor Rahasia' });
  png = await pngBytes();
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => t.legacy.reset());

const tracked = (c: { caseNumber: string; password: string }) =>
  legacyTrack(t.legacy.apiUrl, c.caseNumber, c.password);

async function trackerDraft(c: { caseNumber: string; password: string } = baru): Promise<string> {
  const res = await openDraftAt(t.app, '/api/v1/tracking/attachments/upload-drafts', { payload: proofOf(c) });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json().token;
}

async function logDraft(caseId: number, cookie: string): Promise<string> {
  const res = await openDraftAt(t.app, `/api/v1/cases/${caseId}/logs/upload-drafts`, {
    headers: browser(cookie),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().token;
}

async function trackerAdd(token: string, key?: string, c: { caseNumber: string; password: string } = baru) {
  const body = await multipart(proofOf(c));
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/tracking/attachments',
    payload: body.payload,
    headers: {
      origin: ORIGIN,
      ...body.headers,
      'upload-draft': token,
      ...(key ? { 'idempotency-key': key } : {}),
    },
  });
}

const LOG_FIELDS = { statusId: '11', caseLineId: '2', message: 'Dialihkan ke Dewan Pengawas' };

async function postLog(caseId: number, cookie: string, token: string, key?: string) {
  const body = await multipart(LOG_FIELDS);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/cases/${caseId}/logs`,
    payload: body.payload,
    headers: {
      ...browser(cookie),
      ...body.headers,
      'upload-draft': token,
      ...(key ? { 'idempotency-key': key } : {}),
    },
  });
}

async function fileCase(token: string) {
  const form = await multipart(guestAnonymousFields());
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/cases',
    payload: form.payload,
    headers: { ...form.headers, 'upload-draft': token },
  });
}

describe('Tambah Bukti from a draft', () => {
  it('the tracker’s resumed files reach the legacy once, however often the post is retried', async () => {
    const before = (await tracked(baru)).attachments.map((a) => a.attachmentName);
    const token = await trackerDraft();
    await uploadWhole(t.app, token, { field: 'attachments', name: 'faktur.pdf', bytes: pdf }, 3);
    await uploadWhole(t.app, token, { field: 'attachments', name: 'foto.png', bytes: png });
    expect((await draftFiles(t.app, token)).json().items).toMatchObject([
      { name: 'faktur.pdf', state: 'accepted' },
      { name: 'foto.png', state: 'accepted' },
    ]);
    const key = `evidence-${randomUUID()}`;
    const first = await trackerAdd(token, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await trackerAdd(token, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect((await tracked(baru)).attachments.map((a) => a.attachmentName)).toEqual([
      ...before,
      'faktur.pdf',
      'foto.png',
    ]);
    // Filed: the draft takes nothing more, and another key cannot file it twice.
    expect(
      (await createUpload(t.app, token, { field: 'attachments', name: 'lagi.png', size: 10 })).statusCode,
    ).toBe(404);
    const otherKey = await trackerAdd(token, `evidence-${randomUUID()}`);
    expect(otherKey.statusCode).toBe(400);
    expect(otherKey.json().errors.attachments).toBe(PROBLEM_MESSAGES.uploadDraftMissing);
  }, 60_000);

  it('the pelapor’s own case takes its draft; the draft holds only the room the case has left', async () => {
    const cookie = await signInAs(t.app, 6);
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: browser(cookie),
      payload: { from: '2000-01-01', to: latestIndonesianToday(), page: 1, pageSize: 10 },
    });
    const caseId = list.json().items[0].id as number;
    const opened = await openDraftAt(t.app, `/api/v1/cases/${caseId}/attachments/upload-drafts`, {
      headers: browser(cookie),
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const token = opened.json().token;
    const auth = browser(cookie);
    await uploadWhole(t.app, token, { field: 'attachments', name: 'tambahan.png', bytes: png }, 1, auth);
    // Another caller (a guest here) cannot reach the pelapor's draft.
    expect((await draftFiles(t.app, token)).statusCode).toBe(404);
    const body = await multipart({});
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${caseId}/attachments`,
      payload: body.payload,
      headers: { ...auth, ...body.headers, 'upload-draft': token },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().attachments.map((a: { name: string }) => a.name)).toContain('tambahan.png');
  });

  it('a case with no room left opens no draft; a draft refuses files beyond the room', async () => {
    const room = 5 - (await tracked(baru)).attachments.length;
    const token = await trackerDraft();
    for (let i = 0; i < room; i += 1) {
      const created = await createUpload(t.app, token, { field: 'attachments', name: `b${i}.png`, size: 10 });
      expect(created.statusCode).toBe(201);
    }
    const over = await createUpload(t.app, token, { field: 'attachments', name: 'lebih.png', size: 10 });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors.attachments).toBe(format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: 5 }));
    // The wizard's other field is no Tambah Bukti field.
    const evidence = await createUpload(t.app, token, { field: 'evidence', name: 'x.png', size: 10 });
    expect(evidence.statusCode).toBe(400);

    const fill = await trackerDraft();
    for (let i = 0; i < room; i += 1) {
      await uploadWhole(t.app, fill, {
        field: 'attachments',
        name: `isi-${i}.pdf`,
        bytes: await pdfBytes({ title: `Isi ${i}` }),
      });
    }
    expect((await trackerAdd(fill)).statusCode).toBe(201);
    const full = await openDraftAt(t.app, '/api/v1/tracking/attachments/upload-drafts', {
      payload: proofOf(baru),
    });
    expect(full.statusCode).toBe(400);
    expect(full.json().errors.attachments).toBe(UI_MESSAGES.attachmentsLimitReached);
  });

  it('a wrong password opens no draft: the tracker’s same 404', async () => {
    const res = await openDraftAt(t.app, '/api/v1/tracking/attachments/upload-drafts', {
      payload: { caseNumber: baru.caseNumber, password: 'bukan-sandinya' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(PROBLEM_MESSAGES.trackingFailed);
  });
});

describe('activity-log attachments from a draft', () => {
  it('the handler’s resumed file goes with the log entry, scrubbed, once per Idempotency-Key', async () => {
    const fresh = await tracked(baru);
    const admin = await signInAs(t.app, 2);
    const token = await logDraft(fresh.caseId, admin);
    const auth = browser(admin);
    const authorPdf = await pdfBytes({ author: 'Analis Direksi' });
    await uploadWhole(t.app, token, { field: 'attachments', name: 'nota.pdf', bytes: authorPdf }, 2, auth);
    // One file per log (spec §5), and only the `attachments` field.
    const second = await createUpload(t.app, token, { field: 'attachments', name: 'b.pdf', size: 10 }, auth);
    expect(second.statusCode).toBe(400);
    expect(second.json().errors.attachments).toBe(format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: 1 }));
    const key = `log-${randomUUID()}`;
    const first = await postLog(fresh.caseId, admin, token, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await postLog(fresh.caseId, admin, token, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual(first.json());
    const after = await tracked(baru);
    expect(after.caselogs).toHaveLength(fresh.caselogs.length + 1);
    const log = after.caselogs.at(-1);
    expect(log).toMatchObject({ caseLogMessage: LOG_FIELDS.message, caseLogAttachmentName: 'nota.pdf' });
    const stored = await storedLogAttachment(t.legacy.apiUrl, log?.caseLogId);
    expect((await PDFDocument.load(stored, { updateMetadata: false })).getAuthor()).toBeUndefined();
  });

  it('a damaged file is refused when its upload completes, and the log names it under its field', async () => {
    const fresh = await tracked(baru);
    const admin = await signInAs(t.app, 2);
    const token = await logDraft(fresh.caseId, admin);
    const auth = browser(admin);
    await uploadWhole(
      t.app,
      token,
      { field: 'attachments', name: 'foto.png', bytes: randomBytes(4000) },
      1,
      auth,
    );
    const reason = format(TEMPLATE_MESSAGES.fileContentMismatch, { name: 'foto.png' });
    expect((await draftFiles(t.app, token, auth)).json().items).toMatchObject([
      { name: 'foto.png', state: 'refused', reason },
    ]);
    const res = await postLog(fresh.caseId, admin, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ attachment: reason });
    expect((await tracked(baru)).caselogs).toHaveLength(fresh.caselogs.length);
  });

  it('another handler, or a guest, cannot reach or spend a handler’s draft', async () => {
    const fresh = await tracked(baru);
    const admin = await signInAs(t.app, 2);
    const partner = await signInAs(t.app, 3);
    const token = await logDraft(fresh.caseId, admin);
    const id = await uploadWhole(
      t.app,
      token,
      { field: 'attachments', name: 'nota.pdf', bytes: pdf },
      1,
      browser(admin),
    );
    for (const other of [browser(partner), { origin: ORIGIN }]) {
      expect((await head(t.app, token, id, other)).statusCode).toBe(404);
      expect((await patch(t.app, token, id, 0, Buffer.from('%PDF-'), other)).statusCode).toBe(404);
      expect((await draftFiles(t.app, token, other)).statusCode).toBe(404);
      const created = await createUpload(
        t.app,
        token,
        { field: 'attachments', name: 'x.pdf', size: 9 },
        other,
      );
      expect(created.statusCode).toBe(404);
    }
    const spent = await postLog(fresh.caseId, partner, token);
    expect(spent.statusCode).toBe(400);
    expect(spent.json().errors).toEqual({ attachment: PROBLEM_MESSAGES.uploadDraftMissing });
    expect((await tracked(baru)).caselogs).toHaveLength(fresh.caselogs.length);
    // A case out of the caller's scope opens no log draft (type 2 of company 1, a case of company 2).
    const elsewhere = await tracked(demoCases[2]);
    const outside = await openDraftAt(t.app, `/api/v1/cases/${elsewhere.caseId}/logs/upload-drafts`, {
      headers: browser(admin),
    });
    expect(outside.statusCode).toBe(404);
  });
});

describe('a draft is spent only by the form, caller and case it was opened for', () => {
  it('every other pairing of draft and submission is refused as an unknown draft, and files nothing', async () => {
    const admin = await signInAs(t.app, 2);
    const caseOne = (await tracked(baru)).caseId;
    const caseTwo = (await tracked(investigasi)).caseId;
    type Kind = 'wizard' | 'evidence-1' | 'evidence-2' | 'log-1' | 'log-2';
    type Place = 'case' | 'evidence-1' | 'log-1';
    /** Opens a draft of each kind with one accepted file, so a wrongly accepted draft would file. */
    const open = async (kind: Kind): Promise<string> => {
      if (kind === 'wizard') {
        const token = await openDraft(t.app);
        await uploadWhole(t.app, token, { field: 'evidence', name: 'bukti.png', bytes: png });
        return token;
      }
      const token = kind.startsWith('evidence')
        ? await trackerDraft(kind === 'evidence-1' ? baru : investigasi)
        : await logDraft(kind === 'log-1' ? caseOne : caseTwo, admin);
      const auth = kind.startsWith('log') ? browser(admin) : {};
      await uploadWhole(t.app, token, { field: 'attachments', name: 'bukti.png', bytes: png }, 1, auth);
      return token;
    };
    const spend = {
      case: async (token: string) => [await fileCase(token), 'evidence'] as const,
      'evidence-1': async (token: string) => [await trackerAdd(token), 'attachments'] as const,
      'log-1': async (token: string) => [await postLog(caseOne, admin, token), 'attachment'] as const,
    } satisfies Record<Place, unknown>;
    const fits: Record<Place, Kind> = { case: 'wizard', 'evidence-1': 'evidence-1', 'log-1': 'log-1' };
    const before = await tracked(baru);
    const kinds: Kind[] = ['wizard', 'evidence-1', 'evidence-2', 'log-1', 'log-2'];
    for (const kind of kinds) {
      const token = await open(kind);
      for (const place of Object.keys(spend) as Place[]) {
        if (fits[place] === kind) continue;
        const [res, field] = await spend[place](token);
        expect(res.statusCode, `${kind} on ${place}: ${res.body}`).toBe(400);
        expect(res.json().errors[field], `${kind} on ${place}`).toBe(PROBLEM_MESSAGES.uploadDraftMissing);
      }
    }
    const after = await tracked(baru);
    expect(after.attachments).toEqual(before.attachments);
    expect(after.caselogs).toHaveLength(before.caselogs.length);
  }, 60_000);
});

describe('limits shared with the other uploads', () => {
  it('opening a draft at any form counts against the same per-client limit', async () => {
    const small = await buildTestApp({
      ...SETTINGS,
      UPLOAD_DRAFTS_MAX_PER_CLIENT: '2',
      RATE_LIMIT_NAMESPACE: `test-bound-drafts-${randomUUID()}`,
    });
    try {
      expect((await openDraftAt(small.app, '/api/v1/upload-drafts')).statusCode).toBe(201);
      expect(
        (
          await openDraftAt(small.app, '/api/v1/tracking/attachments/upload-drafts', {
            payload: proofOf(baru),
          })
        ).statusCode,
      ).toBe(201);
      const third = await openDraftAt(small.app, '/api/v1/tracking/attachments/upload-drafts', {
        payload: proofOf(baru),
      });
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await small.close();
    }
  });

  it('a PATCH being written holds an upload slot: with none free the next is 503 busy, then goes on', async () => {
    const capped = await buildTestApp({
      ...SETTINGS,
      UPLOAD_MAX_SPOOLS: '1',
      UPLOAD_DRAFTS_DIR: root,
      RATE_LIMIT_NAMESPACE: `test-bound-drafts-${randomUUID()}`,
    });
    try {
      const bytes = await pdfBytes({ title: 'Lambat' });
      const token = await openDraft(capped.app);
      const slowId = uploadIdOf(
        (await createUpload(capped.app, token, { field: 'evidence', name: 'lambat.pdf', size: bytes.length }))
          .headers.location,
      );
      const otherId = uploadIdOf(
        (await createUpload(capped.app, token, { field: 'attachments', name: 'foto.png', size: png.length }))
          .headers.location,
      );
      // A body that stops half way until the test lets it go on: a PATCH still being written.
      let finish = () => {};
      const body = new Readable({ read() {} });
      body.push(Buffer.from(bytes.subarray(0, 100)));
      const rest = new Promise<void>((resolve) => {
        finish = resolve;
      }).then(() => {
        body.push(Buffer.from(bytes.subarray(100)));
        body.push(null);
      });
      const slow = patch(capped.app, token, slowId, 0, body);
      for (let i = 0; i < 100 && capped.app.uploads.spools.active === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(capped.app.uploads.spools.active).toBe(1);
      const busy = await patch(capped.app, token, otherId, 0, png);
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('5');
      expect(busy.json().title).toBe(PROBLEM_MESSAGES.busy);
      // The multipart path meets the same cap.
      const form = await multipart(guestAnonymousFields(), [
        { field: 'evidence', name: 'b.png', bytes: png },
      ]);
      expect((await capped.app.inject({ method: 'POST', url: '/api/v1/cases', ...form })).statusCode).toBe(
        503,
      );
      finish();
      await rest;
      expect((await slow).statusCode).toBe(204);
      expect(capped.app.uploads.spools.active).toBe(0);
      expect((await patch(capped.app, token, otherId, 0, png)).statusCode).toBe(204);
      expect(
        (await draftFiles(capped.app, token)).json().items.map((f: { state: string }) => f.state),
      ).toEqual(['accepted', 'accepted']);
    } finally {
      await capped.close();
    }
  });
});
