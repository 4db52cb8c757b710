/**
 * Journey: Tambah Bukti on a weak phone link. A reporter tracks its report through a throttled link the
 * journey cuts at will (../../support/weak-link.ts) and adds evidence; each chosen file uploads at once
 * into a draft of that case:
 * - the row shows its progress; the journey cuts the link mid-upload, the row says it is retrying, and
 *   once the link is back the upload goes on from the offset the gateway holds (a PATCH with a non-zero
 *   Upload-Offset);
 * - a damaged file is refused next to its name as soon as its upload completes, before Unggah Bukti;
 * - Unggah Bukti posts once, with the text parts only, and the case lists the added file.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type FilePayload, makePdf } from '../../support/files.ts';
import { startWeakLink, type WeakLink } from '../../support/weak-link.ts';
import { baseUrl, fileGuestReport, forgive, snackbar, trackCase, useJourney } from './support.ts';
import { bigPdf, cutAndResume, patchOffsets, uploadReaches, uploadRow } from './uploads.ts';

const journey = useJourney('resumable-evidence-tracker');
const stamp = Date.now().toString(36);
const PASSWORD = `Sumur-Tambah-${stamp}`;

describe('Tambah Bukti on a weak link', () => {
  it('resumes an upload cut by the link, refuses a damaged file next to its name, adds once', async () => {
    const caseNumber = await fileGuestReport({
      password: PASSWORD,
      evidence: makePdf(`awal-${stamp}.pdf`, 'Bukti awal'),
    });
    const link: WeakLink = await startWeakLink({
      targetPort: Number(new URL(baseUrl).port),
      upBytesPerSecond: 256 * 1024,
      oneWayLatencyMs: 50,
    });
    const tracker = await journey.actor('tracker-weak-link', { baseUrl: `http://localhost:${link.port}` });
    const { page } = tracker;

    const offsets = patchOffsets(page);
    const evidencePosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/tracking/attachments') {
        evidencePosts.push(request.postData() ?? '');
      }
    });

    const main = await trackCase(page, caseNumber, PASSWORD);
    const add = main.getByRole('region', { name: 'Tambah Bukti' });
    await add.getByText('Sisa lampiran yang dapat ditambahkan: 4.', { exact: false }).waitFor();

    // The file uploads as soon as it is chosen; the journey cuts the link half way.
    const added = bigPdf(`tambahan-${stamp}.pdf`, 1500);
    await add.getByLabel('Lampiran Tambahan', { exact: true }).setInputFiles(added);
    await uploadReaches(uploadRow(add, added.name), 15);
    await cutAndResume(link, add, added.name, offsets);

    // A damaged file: refused next to its name when its upload completes, before Unggah Bukti.
    const damaged: FilePayload = {
      name: `rusak-${stamp}.pdf`,
      mimeType: 'application/pdf',
      buffer: randomBytes(40_000),
    };
    await add.getByLabel('Lampiran Tambahan', { exact: true }).setInputFiles(damaged);
    const refused = add.locator('[data-file-error]').filter({ hasText: damaged.name });
    await refused.getByRole('alert').waitFor({ timeout: 30_000 });
    expect(await refused.getByRole('alert').innerText()).toContain(damaged.name);
    expect(evidencePosts).toHaveLength(0);
    await add.getByRole('button', { name: `Hapus ${damaged.name}` }).click();
    await expect.poll(() => add.locator('[data-file-error]').count()).toBe(0);

    link.setRate(50 * 1024 * 1024);
    await add.getByRole('button', { name: 'Unggah Bukti' }).click();
    await snackbar(page, 'Bukti berhasil ditambahkan').waitFor();
    await main.getByText(added.name, { exact: true }).waitFor();
    expect(evidencePosts, 'the evidence was added in one request').toHaveLength(1);
    // Only the text parts travelled with it: the file was already in the draft.
    expect(evidencePosts[0]).not.toContain('filename=');
    expect(page.url()).not.toContain(caseNumber);

    // The link cuts make the browser log failed requests: those are this journey's own doing.
    forgive(tracker.problems, /net::ERR|Failed to load resource/);
    tracker.expectClean();
    await link.close();
  }, 300_000);
});
