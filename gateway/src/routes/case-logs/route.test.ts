import { SEED_STATUS } from '@wbs/legacy-sim';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signIn, signInAs, type TestApp } from '../../test/helpers.ts';
import {
  type FileSpec,
  legacyToken,
  legacyTrack,
  multipart,
  pdfBytes,
  pngBytes,
  storedLogAttachment,
} from '../../test/uploads.ts';

let t: TestApp;
let pdf: Uint8Array;
beforeAll(async () => {
  t = await buildTestApp();
  pdf = await pdfBytes({ author: 'Analis Direksi' });
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

const DEMO_PASSWORD = 'Lapor#2026!';
/**
 * WBS-10000001: Baru, company 1, no line; WBS-10000002: Investigasi, company 1; WBS-10000003: Ditutup,
 * company 2. Status ids are the seeded legacy table's (docs/product/handling.md#case-workflow): Baru 1 →
 * Diterima 11 (order 2)
 * → Verifikasi 12 (3) | Ditolak 13 (3.2, final) → Investigasi 14 (4) → … → Ditutup 21 (11, final).
 */
const S = { ...SEED_STATUS, VERIFICATION: 12, CLARIFICATION: 15, EVIDENCE: 16 } as const;
const tracked = (number: string) => legacyTrack(t.legacy.apiUrl, number, DEMO_PASSWORD);

async function postLog(
  caseId: number,
  cookie: string,
  fields: Record<string, string>,
  files: FileSpec[] = [],
) {
  const body = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/cases/${caseId}/logs`,
    payload: body.payload,
    headers: { ...browser(cookie), ...body.headers },
  });
}

describe('POST /cases/{id}/logs', () => {
  it('routes a new case: orders 2 and 3 only (Baru counts as id 11), and a line is required', async () => {
    const fresh = await tracked('WBS-10000001');
    const cookie = await signInAs(t.app, 2);
    for (const statusId of [S.NEW, S.INVESTIGATION, S.CLOSED, 2, 999]) {
      const wrongStatus = await postLog(fresh.caseId, cookie, {
        statusId: String(statusId),
        caseLineId: '2',
        message: 'Lompat',
      });
      expect(wrongStatus.statusCode, `status ${statusId}`).toBe(400);
      expect(wrongStatus.json().errors).toEqual({ statusId: 'Status pengaduan Tidak Valid' });
    }
    expect((await tracked('WBS-10000001')).caselogs).toHaveLength(0);

    const noLine = await postLog(fresh.caseId, cookie, { statusId: '11', message: 'Dialihkan' });
    expect(noLine.statusCode).toBe(400);
    expect(noLine.json().errors).toEqual({ caseLineId: 'Jalur Otorisasi wajib diisi' });

    const noMessage = await postLog(fresh.caseId, cookie, { statusId: '11', caseLineId: '2', message: ' ' });
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().errors).toEqual({ message: 'Catatan Aktivitas wajib diisi' });

    const ok = await postLog(
      fresh.caseId,
      cookie,
      { statusId: '11', caseLineId: '2', message: 'Dialihkan ke Dewan Pengawas' },
      [{ field: 'attachment', name: 'nota.pdf', bytes: pdf }],
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ message: 'Catatan aktivitas berhasil disimpan' });
    const after = await tracked('WBS-10000001');
    expect(after.caseCaseStatusId).toBe(11);
    expect(after.caseCaseLineId).toBe(2);
    const log = after.caselogs.at(-1);
    expect(log).toMatchObject({
      caseLogMessage: 'Dialihkan ke Dewan Pengawas',
      caseLogAttachmentName: 'nota.pdf',
    });
    const stored = await storedLogAttachment(t.legacy.apiUrl, log?.caseLogId);
    expect((await PDFDocument.load(stored, { updateMetadata: false })).getAuthor()).toBeUndefined();
  });

  it('moves an investigated case one step: same or next order only', async () => {
    const investigated = await tracked('WBS-10000002');
    expect(investigated.caseCaseStatusId).toBe(S.INVESTIGATION);
    const cookie = await signInAs(t.app, 3);
    for (const statusId of [S.EVIDENCE, S.NEW, S.VERIFICATION, S.REJECTED, S.CLOSED]) {
      const refused = await postLog(investigated.caseId, cookie, {
        statusId: String(statusId),
        message: 'Lompat',
      });
      expect(refused.statusCode, `status ${statusId}`).toBe(400);
      expect(refused.json().errors).toEqual({ statusId: 'Status pengaduan Tidak Valid' });
    }
    const next = await postLog(investigated.caseId, cookie, {
      statusId: String(S.CLARIFICATION),
      message: 'Klarifikasi terlapor',
    });
    expect(next.statusCode).toBe(201);
    expect((await tracked('WBS-10000002')).caseCaseStatusId).toBe(S.CLARIFICATION);
  });

  it('takes at most one attachment, checked like every upload', async () => {
    const { caseId } = await tracked('WBS-10000002');
    const cookie = await signInAs(t.app, 2);
    const two = await postLog(caseId, cookie, { statusId: String(S.INVESTIGATION), message: 'Dua file' }, [
      { field: 'attachment', name: 'a.pdf', bytes: pdf },
      { field: 'attachment', name: 'b.pdf', bytes: pdf },
    ]);
    expect(two.statusCode).toBe(400);
    expect(two.json().errors).toEqual({ attachment: 'Lampiran tidak boleh melebihi 1' });
    const disguised = await postLog(
      caseId,
      cookie,
      { statusId: String(S.INVESTIGATION), message: 'Nyamar' },
      [{ field: 'attachment', name: 'a.pdf', bytes: await pngBytes() }],
    );
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json().errors).toEqual({ attachment: 'Isi file a.pdf tidak sesuai dengan jenisnya' });
    const logs = (await tracked('WBS-10000002')).caselogs.length;
    const big = Buffer.alloc(10_485_761, 0x20);
    big.write('%PDF-1.7\n');
    const tooLarge = await postLog(caseId, cookie, { statusId: String(S.INVESTIGATION), message: 'Besar' }, [
      { field: 'attachment', name: 'besar.pdf', bytes: big },
    ]);
    expect(tooLarge.statusCode).toBe(413);
    expect((await tracked('WBS-10000002')).caselogs).toHaveLength(logs);
  });

  it("answers 404 for another company's case", async () => {
    const other = await tracked('WBS-10000003');
    expect(other.caseCompanyId).toBe(2);
    const cookie = await signInAs(t.app, 2);
    const res = await postLog(other.caseId, cookie, {
      statusId: '11',
      caseLineId: '1',
      message: 'Bukan milik kami',
    });
    expect(res.statusCode).toBe(404);
    const missing = await postLog(999_999, cookie, { statusId: '11', caseLineId: '1', message: 'Tidak ada' });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses company staff without role 1 (403) and keeps a supervisor on its own line', async () => {
    const { caseId } = await tracked('WBS-10000001');
    const staff = await signIn(t.app, 'analis.spi', 'Analis#2026!');
    expect((await postLog(caseId, staff, { statusId: '11', message: 'x' })).statusCode).toBe(403);

    const supervisor = await signIn(t.app, 'analis.direksi', 'Analis#2026!');
    const otherLine = await postLog(caseId, supervisor, {
      statusId: '11',
      caseLineId: '2',
      message: 'Pindah',
    });
    expect(otherLine.statusCode).toBe(400);
    expect(otherLine.json().errors).toEqual({ caseLineId: 'Jalur Otorisasi Tidak Valid' });
    const ownLine = await postLog(caseId, supervisor, { statusId: '11', message: 'Ditangani Direksi' });
    expect(ownLine.statusCode).toBe(201);
    expect((await tracked('WBS-10000001')).caseCaseLineId).toBe(1);
  });

  it('sends the line as null above status 11 (the line stays)', async () => {
    const token = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
    const row = await firstCaseIn(token, S.VERIFICATION);
    const cookie = await signInAs(t.app, 2);
    const otherLine = row.caseCaseLineId === 3 ? '1' : '3';
    const res = await postLog(row.caseId, cookie, {
      statusId: String(S.INVESTIGATION),
      caseLineId: otherLine,
      message: 'Investigasi dimulai',
    });
    expect(res.statusCode).toBe(201);
    expect(await legacyCase(token, row.caseId)).toMatchObject({
      caseCaseLineId: row.caseCaseLineId,
      caseCaseStatusId: S.INVESTIGATION,
    });
  });

  it('keeps a case in a final status there: a note in that status only, never a change', async () => {
    const token = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
    const cookie = await signInAs(t.app, 2);
    for (const final of [S.REJECTED, S.CLOSED]) {
      const row = await firstCaseIn(token, final);
      const before = (await legacyCase(token, row.caseId)).caselogs.length;
      // Ditolak's integer order (3) would otherwise offer Verifikasi and Investigasi again.
      for (const statusId of [S.VERIFICATION, S.INVESTIGATION, S.ACCEPTED, S.NEW]) {
        const reopened = await postLog(row.caseId, cookie, {
          statusId: String(statusId),
          caseLineId: '1',
          message: 'Dibuka lagi',
        });
        expect(reopened.statusCode, `${final} → ${statusId}`).toBe(400);
        expect(reopened.json().errors).toEqual({ statusId: 'Status pengaduan Tidak Valid' });
      }
      const note = await postLog(row.caseId, cookie, {
        statusId: String(final),
        message: 'Pelapor dihubungi kembali',
      });
      expect(note.statusCode).toBe(201);
      const after = await legacyCase(token, row.caseId);
      expect(after.caseCaseStatusId).toBe(final);
      expect(after.caselogs).toHaveLength(before + 1);
    }
  });
});

/** The first case of company 1 in this status, read from legacy-sim directly. */
async function firstCaseIn(token: string, statusId: number) {
  const reply = await fetch(`${t.legacy.apiUrl}/WBSCase/company/admin/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ draw: 1, start: 0, length: 1, caseCaseStatusId: statusId }),
  }).then((r) => r.json() as Promise<{ data: { caseId: number; caseCaseLineId: number | null }[] }>);
  const row = reply.data[0];
  if (!row) throw new Error(`the seed has no case of company 1 in status ${statusId}`);
  return row;
}

async function legacyCase(token: string, caseId: number) {
  const reply = await fetch(`${t.legacy.apiUrl}/WBSCase/company/1/${caseId}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(
    (r) =>
      r.json() as Promise<{
        data: { caseCaseLineId: number | null; caseCaseStatusId: number; caselogs: unknown[] };
      }>,
  );
  return reply.data;
}
