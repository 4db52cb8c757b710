/**
 * Journey 1: a guest files an anonymous report through the four-step wizard (validation on every
 * Next, two attachments, case password); a first try while the legacy is down fails and loses nothing
 * of what was typed; the retry gets the complaint number (copy to clipboard, A4 PDF), and
 * then, on a phone, tracks the report with Pantau Laporan: a wrong password is refused, the right
 * one opens the case detail in View mode.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { makePdf, makePng, readPdf } from '../../support/files.ts';
import { PHONE, snackbar, useJourney } from './support.ts';
import {
  fillCommunication,
  fillIdentityAnonymous,
  fillReport,
  next,
  REPORT_ANSWERS,
  waitForStep,
} from './wizard.ts';

const journey = useJourney('guest-report');

/** legacy-sim's test knobs (the e2e system runs it with LEGACY_SIM_TEST_KNOBS=1). */
async function setLegacyKnobs(knobs: { down?: boolean }): Promise<void> {
  const res = await fetch(`${inject('simUrl')}/__sim/knobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(knobs),
  });
  if (!res.ok) throw new Error(`legacy-sim knobs: HTTP ${res.status}`);
}

const stamp = Date.now().toString(36);
const EVIDENCE = makePdf(`bukti-${stamp}.pdf`, `Bukti pendukung ${stamp}`);
const PHOTO = makePng(`foto-${stamp}.png`);
const CASE_PASSWORD = `Pipa-Bocor-${stamp}`;
const A4 = [0, 0, 595.28, 841.89];

/** Filled in by the first test, used by the tracking test. */
let caseNumber = '';

describe('a guest files a report and tracks it', () => {
  it('files an anonymous report through the wizard and gets its number', async () => {
    const guest = await journey.actor('guest');
    const { page } = guest;
    const main = page.getByRole('main');

    await page.goto('/');
    await main.getByRole('link', { name: 'Laporkan', exact: true }).click();
    await page.waitForURL('**/case/create');
    await waitForStep(page, 0);

    // Step 0: Next validates the step and stays on it.
    await next(page);
    await main.getByText('Identitas Pelapor wajib diisi', { exact: true }).waitFor();
    await waitForStep(page, 0);
    await fillIdentityAnonymous(page);
    // Anonymous mode hides the name, address and location fields.
    for (const label of ['Nama', 'Alamat', 'Provinsi', 'Kota', 'Kecamatan']) {
      expect(await main.getByLabel(label, { exact: true }).count(), `${label} hidden`).toBe(0);
    }
    await next(page);

    // Step 1.
    await waitForStep(page, 1);
    await next(page);
    await main.getByText('Cara Komunikasi wajib pilih minimal 1', { exact: true }).waitFor();
    await main.getByText('Waktu Komunikasi wajib diisi', { exact: true }).waitFor();
    await fillCommunication(page);
    await next(page);

    // Step 2.
    await waitForStep(page, 2);
    await next(page);
    for (const message of [
      'Kategori pengaduan wajib diisi',
      'Mohon isi kejadian apa yang ingin dilaporkan',
      'Mohon isi di mana kejadian ini terjadi',
      'Mohon isi kapan kejadian ini terjadi',
      'Mohon isi nama dan jabatan terlapor',
      'Mohon isi Unit Direktorat',
      'Mohon isi Unit Divisi',
      'Mohon isi bagaimana kejadian ini terjadi',
    ]) {
      await main.getByText(message, { exact: true }).waitFor();
    }
    await fillReport(page);
    await next(page);

    // Step 3: the main evidence file is required.
    await waitForStep(page, 3);
    await main.getByRole('button', { name: 'Save', exact: true }).click();
    await main.getByText('Bukti Pendukung wajib diisi', { exact: true }).waitFor();
    await main.getByLabel('Bukti Pendukung', { exact: true }).setInputFiles(EVIDENCE);
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(PHOTO);
    await main.getByText(EVIDENCE.name).waitFor();
    await main.getByText(PHOTO.name).waitFor();
    await main.getByLabel('Kata sandi pengaduan', { exact: true }).fill(CASE_PASSWORD);
    await main.getByLabel('Konfirmasi kata sandi pengaduan', { exact: true }).fill(CASE_PASSWORD);

    const save = async () => {
      await main.getByRole('button', { name: 'Save', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Simpan Pengaduan' });
      await confirm.getByText('Anda yakin ingin menyimpan pengaduan ini ?', { exact: true }).waitFor();
      await confirm.getByRole('button', { name: 'Simpan', exact: true }).click();
    };

    // A failed submission keeps everything the user typed: the legacy is down for the first try.
    guest.allowHttpError(503, /^\/api\/v1\/cases$/, 'the first try while the legacy is down');
    await setLegacyKnobs({ down: true });
    try {
      await save();
      await snackbar(page, 'Layanan sedang tidak dapat dihubungi, silakan coba beberapa saat lagi').waitFor();
    } finally {
      await setLegacyKnobs({});
    }
    await waitForStep(page, 3);
    await main.getByText(EVIDENCE.name).waitFor();
    await main.getByText(PHOTO.name).waitFor();
    expect(await main.getByLabel('Kata sandi pengaduan', { exact: true }).inputValue()).toBe(CASE_PASSWORD);
    await main.getByRole('button', { name: 'Previous', exact: true }).click();
    await waitForStep(page, 2);
    expect(await main.getByLabel(/^1\. /).inputValue()).toBe(REPORT_ANSWERS[1]);
    await next(page);
    await waitForStep(page, 3);
    await save();

    const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });
    const numberButton = success.getByRole('button', { name: /^Nomor Pengaduan WBS-\d{8}/ });
    await numberButton.waitFor();
    caseNumber = (await numberButton.innerText()).trim();
    expect(caseNumber).toMatch(/^WBS-\d{8}$/);

    // Clicking the number copies it.
    await numberButton.click();
    await snackbar(page, 'Nomor Pengaduan berhasil di salin').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(caseNumber);

    // Unduh Nomor Pengaduan: an A4 PDF named after the number, showing the number.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      success.getByRole('button', { name: 'Unduh Nomor Pengaduan' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${caseNumber}.pdf`);
    const pdf = readPdf(readFileSync(await download.path()));
    expect(pdf.isPdf).toBe(true);
    expect(pdf.mediaBoxes.length).toBeGreaterThan(0);
    for (const box of pdf.mediaBoxes) expect(box).toEqual(A4);
    expect(pdf.text).toContain(caseNumber);
    // The PDF reader splits lines at each text run: compare without whitespace.
    expect(pdf.text.replace(/\s+/g, ''), 'the receipt time in WIB, labelled').toMatch(
      /\d{2}\/\d{2}\/\d{4}\d{2}:\d{2}WIB/,
    );

    // Tutup: a guest goes back to /.
    await success.getByRole('button', { name: 'Tutup', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    guest.expectClean();
  });

  it('tracks the report on a phone: a wrong password is refused, the right one opens it', async () => {
    expect(caseNumber, 'the report of the first test').toMatch(/^WBS-\d{8}$/);
    const tracker = await journey.actor('tracker-phone', PHONE);
    const { page } = tracker;
    const main = page.getByRole('main');

    await page.goto('/');
    await main.getByRole('link', { name: 'Pantau Laporan', exact: true }).click();
    await page.waitForURL('**/admin/checkcase');
    await main.getByRole('heading', { level: 1, name: 'Pantau Laporan' }).waitFor();

    // Wrong password: the gateway answers 404 (same as an unknown number); a snackbar, the form stays.
    tracker.allowHttpError(404, /^\/api\/v1\/tracking$/, 'tracking with a wrong password');
    await main.getByLabel('Nomor Laporan').fill(caseNumber);
    await main.getByLabel('Kata sandi', { exact: true }).fill(`${CASE_PASSWORD}-salah`);
    await main.getByRole('button', { name: 'Cari Laporan' }).click();
    await snackbar(page, /Nomor Pengaduan atau kata sandi/i).waitFor();
    await main.getByRole('heading', { level: 1, name: 'Pantau Laporan' }).waitFor();
    expect(await main.getByLabel('Nomor Laporan').inputValue()).toBe(caseNumber);
    expect(await main.getByRole('heading', { name: /Detail Laporan/ }).count()).toBe(0);

    // Right password: the case detail in View mode.
    await main.getByLabel('Kata sandi', { exact: true }).fill(CASE_PASSWORD);
    await main.getByRole('button', { name: 'Cari Laporan' }).click();
    await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
    const info = main.getByRole('tab', { name: 'Informasi Laporan' });
    expect(await info.getAttribute('aria-selected')).toBe('true');
    await main.getByText('Baru', { exact: true }).first().waitFor();
    await main.getByText(REPORT_ANSWERS[1]!, { exact: true }).waitFor();
    await main.getByText(EVIDENCE.name, { exact: true }).waitFor();
    await main.getByText(PHOTO.name, { exact: true }).waitFor();
    // View mode: nothing of the report to edit (the one field is the e-mail notice's address); a
    // tracker cannot download attachments (no session): its one Unduh button is its own copy.
    const fields = main.getByRole('textbox');
    expect(await fields.count()).toBe(1);
    expect(await fields.getAttribute('name')).toBe('notice-email');
    expect(await main.getByRole('button', { name: /Unduh/ }).allInnerTexts()).toEqual([
      'Unduh salinan laporan saya',
    ]);
    // The complaint number never goes into the address bar.
    expect(page.url()).not.toContain(caseNumber);
    // Usable on a phone: nothing wider than the screen.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no horizontal scrolling on a phone',
    ).toBe(true);

    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    await main.getByRole('table', { name: 'Catatan Aktivitas' }).waitFor();
    await main.getByText('Data Tidak Ditemukan', { exact: true }).waitFor();

    // Kembali: back to the tracking form (spec: for the anonymous user).
    await main.getByRole('button', { name: 'Kembali' }).click();
    await main.getByLabel('Nomor Laporan').waitFor();
    tracker.expectClean();
  });
});
