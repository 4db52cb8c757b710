/**
 * Journey 2: a new guest report (filed through the gateway API in the set-up) is handled by a
 * privileged company analyst (`analis.direksi`: type 4, role 1, company 1, Jalur Direksi; a type-4
 * analyst sees the new, not yet routed cases of its company). The analyst finds it by number, opens
 * it, downloads its attachments and adds a Catatan Aktivitas that changes the status, with an
 * attachment that uploads resumably as soon as it is chosen (the log then posts its text only). The reporter,
 * tracking the report as a guest, sees the new status but never the note.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FilePayload, makePdf, makePng, makeZip, readPdf, rgbOf } from '../../support/files.ts';
import { fileGuestReport, STEP_TIMEOUT_MS, signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('analyst-handles-report');

const stamp = Date.now().toString(36);
const EVIDENCE = makePdf(`laporan-${stamp}.pdf`, `Kronologi kejadian ${stamp}`);
const PHOTO = makePng(`foto-${stamp}.png`);
const ARCHIVE = makeZip(`arsip-${stamp}.zip`, 'catatan.txt', `Rincian transaksi ${stamp}\n`);
const CASE_PASSWORD = `Pantau-${stamp}`;
/** A token found nowhere else: the note must never reach the reporter. */
const NOTE_TOKEN = `ref-internal-${randomUUID().slice(0, 8)}`;
const NOTE = `Laporan diverifikasi; saksi kunci sudah dihubungi (${NOTE_TOKEN}).`;
const LOG_ATTACHMENT = makePdf(`berita-acara-${stamp}.pdf`, `Berita acara verifikasi ${stamp}`);

let caseNumber = '';

beforeAll(async () => {
  caseNumber = await fileGuestReport({
    password: CASE_PASSWORD,
    evidence: EVIDENCE,
    attachments: [PHOTO, ARCHIVE],
  });
});

/** Clicks an attachment's Unduh button and returns the file the browser saved. */
async function downloadAttachment(page: Page, file: FilePayload): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('main')
      .getByRole('button', { name: `Unduh ${file.name}`, exact: true })
      .click(),
  ]);
  await snackbar(page, `Lampiran ${download.suggestedFilename()} berhasil di unduh`).waitFor();
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

describe('an analyst handles a new report', () => {
  it('finds the report, downloads its attachments and logs a status change', async () => {
    const analyst = await journey.actor('analis-direksi');
    const { page } = analyst;
    const main = page.getByRole('main');

    await signIn(page, 'analis.direksi', 'Analis#2026!');
    await page.waitForURL('**/admin/dashboard');
    await page
      .getByRole('navigation', { name: 'Menu samping' })
      .getByRole('link', { name: 'Laporan', exact: true })
      .click();
    await page.waitForURL('**/admin/case');
    await main.getByRole('heading', { level: 1, name: 'Laporan' }).waitFor();

    // Filter by the complaint number: exactly that report remains.
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(caseNumber);
    const row = table.getByRole('row').filter({ hasText: caseNumber });
    await row.waitFor();
    await expect
      .poll(() => table.getByRole('button', { name: 'Lihat' }).count(), { timeout: STEP_TIMEOUT_MS })
      .toBe(1);
    await row.getByText('Baru', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Lihat' }).click();
    await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
    await main.getByText(EVIDENCE.name, { exact: true }).waitFor();

    // The report is anonymous: its contact details arrive masked; the analyst (who may write activity
    // logs) reveals them with a reason, and they stay in this view only.
    await main.getByText('p***@e***.com', { exact: true }).waitFor();
    await main.getByText('+62 8** **** *890', { exact: true }).waitFor();
    expect(await page.content()).not.toContain('pelapor.e2e@example.com');
    await main.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    const reveal = page.getByRole('dialog', { name: 'Tampilkan kontak pelapor' });
    await reveal.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    await reveal.getByText('Alasan wajib diisi', { exact: true }).waitFor();
    await reveal.getByLabel('Alasan').fill('Menghubungi pelapor untuk klarifikasi bukti');
    await reveal.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    await reveal.waitFor({ state: 'detached' });
    await main.getByText('pelapor.e2e@example.com', { exact: true }).waitFor();
    await main.getByText('+6281234567890', { exact: true }).waitFor();

    // Downloads. A zip is forwarded as it is: byte for byte the uploaded file.
    const archive = await downloadAttachment(page, ARCHIVE);
    expect(archive.name).toBe(ARCHIVE.name);
    expect(archive.bytes.equals(ARCHIVE.buffer), 'downloaded zip equals the uploaded one').toBe(true);
    // Pictures and PDFs are re-written by the gateway to strip identifying metadata (docs/product/reporting.md#metadata-scrubbing):
    // the same picture and the same text come back.
    const photo = await downloadAttachment(page, PHOTO);
    expect(photo.name).toBe(PHOTO.name);
    expect(rgbOf(photo.bytes)).toEqual(rgbOf(PHOTO.buffer));
    const evidence = await downloadAttachment(page, EVIDENCE);
    expect(evidence.name).toBe(EVIDENCE.name);
    expect(readPdf(evidence.bytes).text).toContain(`Kronologi kejadian ${stamp}`);

    // Buat Catatan Aktivitas: a new case is routed, so the status is preset to id 11 (Diterima) and a
    // line is needed; company staff keep their own line (the selector is disabled for them).
    await main.getByRole('button', { name: 'Buat Catatan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buat Catatan Aktivitas' });
    await dialog.getByRole('button', { name: 'Simpan', exact: true }).click();
    await dialog.getByText('Catatan Aktivitas wajib diisi', { exact: true }).waitFor();
    const status = dialog.getByLabel('Status');
    await status.selectOption({ label: 'Verifikasi' });
    const line = dialog.getByLabel('Jalur Otorisasi');
    expect(await line.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe(
      'Jalur Direksi',
    );
    expect(await line.isDisabled(), 'company staff cannot change the line').toBe(true);
    await dialog.getByLabel('Catatan Aktivitas').fill(NOTE);
    // The attachment uploads into the log's draft when chosen; Simpan then sends the text parts only.
    const logPosts: string[] = [];
    page.on('request', (request) => {
      if (
        request.method() === 'POST' &&
        /^\/api\/v1\/cases\/\d+\/logs$/.test(new URL(request.url()).pathname)
      ) {
        logPosts.push(request.postData() ?? '');
      }
    });
    await dialog.getByLabel('Lampiran', { exact: true }).setInputFiles(LOG_ATTACHMENT);
    const upload = dialog.locator(`[data-file-name="${LOG_ATTACHMENT.name}"]`);
    await upload.locator('[data-upload-phase="accepted"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    await dialog.getByRole('button', { name: 'Simpan', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Simpan Status Pengaduan' });
    await confirm.getByRole('button', { name: 'Simpan', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // The detail reloads with the new status and the note (staff see it in full).
    await main.getByText('Verifikasi', { exact: true }).first().waitFor();
    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    const logs = main.getByRole('table', { name: 'Catatan Aktivitas' });
    const logged = logs.getByRole('row').filter({ hasText: NOTE });
    await logged.getByText('Verifikasi', { exact: true }).waitFor();
    expect(logPosts, 'the log was filed in one request').toHaveLength(1);
    expect(logPosts[0], 'the attachment went ahead in the draft, not with the log').not.toContain(
      'filename=',
    );
    const [logDownload] = await Promise.all([
      page.waitForEvent('download'),
      logged.getByRole('button', { name: `Unduh Lampiran ${LOG_ATTACHMENT.name}`, exact: true }).click(),
    ]);
    expect(logDownload.suggestedFilename()).toBe(LOG_ATTACHMENT.name);
    expect(readPdf(readFileSync(await logDownload.path())).text).toContain(
      `Berita acara verifikasi ${stamp}`,
    );

    // Back in the list the report shows its new status and line.
    await main.getByRole('button', { name: 'Kembali' }).click();
    await row.getByText('Verifikasi', { exact: true }).waitFor();
    await row.getByText('Jalur Direksi', { exact: true }).waitFor();
    analyst.expectClean();
  });

  it('the reporter tracking the report sees the new status, never the note', async () => {
    expect(caseNumber).toMatch(/^WBS-\d{8}$/);
    const reporter = await journey.actor('reporter');
    const { page } = reporter;
    const main = page.getByRole('main');

    await page.goto('/admin/checkcase');
    await main.getByLabel('Nomor Laporan').fill(caseNumber);
    await main.getByLabel('Kata sandi', { exact: true }).fill(CASE_PASSWORD);
    const [reply] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/tracking'),
      main.getByRole('button', { name: 'Cari Laporan' }).click(),
    ]);
    expect(reply.status()).toBe(200);
    expect(await reply.text(), 'the note never reaches the tracker').not.toContain(NOTE_TOKEN);

    await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
    await main.getByText('Verifikasi', { exact: true }).first().waitFor();
    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    const entry = main.getByRole('table', { name: 'Catatan Aktivitas' }).getByRole('row').filter({
      hasText: 'Verifikasi',
    });
    await entry.getByText('**********', { exact: true }).waitFor();
    await entry.getByText('Text disembunyikan demi keamanan', { exact: true }).waitFor();
    // Masked: no author column, no log attachment, and the note is nowhere in the page.
    expect(await main.getByRole('columnheader', { name: 'Oleh' }).count()).toBe(0);
    // The one Unduh button is the reporter's own copy (never a file of the case).
    expect(await main.getByRole('button', { name: /Unduh/ }).allInnerTexts()).toEqual([
      'Unduh salinan laporan saya',
    ]);
    expect(await page.content()).not.toContain(NOTE_TOKEN);
    expect(await page.content()).not.toContain('saksi kunci');
    reporter.expectClean();
  });
});
