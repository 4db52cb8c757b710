/**
 * Journey: the reporter never loses a report. In a real browser:
 * - a dropped connection at submit: offline, nothing typed is lost; a reply lost on the way back is
 *   retried with the same Idempotency-Key and files the report once;
 * - a chunk that fails to load: a transient failure is retried unseen; a lasting one shows a message
 *   and Coba lagi, never a blank page;
 * - the server refuses an attachment: its reason next to the file and in the snackbar, scrolled into
 *   view clear of the sticky header on a phone;
 * - leaving the wizard with typed data asks (links, logo, Back, closing the tab); staying keeps it;
 * - a weak case password is refused with Indonesian messages; a generated passphrase is accepted;
 * - the receipt PDF failing keeps the success dialog and its number (retry, text receipt in WIB).
 */
import { readFileSync } from 'node:fs';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeBrokenPng, makePdf } from '../../support/files.ts';
import { forgive, PHONE, snackbar, trackCase, useJourney } from './support.ts';
import {
  fillCasePassword,
  fillGuestWizardToEvidence,
  fillIdentityAnonymous,
  REPORT_ANSWERS,
  saveReport,
  shownCaseNumber,
  waitForStep,
} from './wizard.ts';

const journey = useJourney('wizard-resilience');
const stamp = Date.now().toString(36);
const PASSWORD = `Sumur-Tua-${stamp}`;

const COMMON_MESSAGE =
  'Kata sandi pengaduan ini termasuk kata sandi yang umum dipakai dan mudah ditebak. Gunakan kata sandi lain atau buat frasa sandi acak.';
const TRIVIAL_MESSAGE =
  'Kata sandi pengaduan terlalu mudah ditebak: jangan gunakan karakter yang berulang atau berurutan.';
const PDF_FAILED =
  'Bukti pengaduan (PDF) gagal dibuat. Nomor Pengaduan Anda tetap tersimpan di sini: salin atau catat, lalu coba lagi.';

async function chooseEvidence(page: Page, name: string) {
  await page
    .getByRole('main')
    .getByLabel('Bukti Pendukung', { exact: true })
    .setInputFiles(makePdf(name, `Bukti ${name}`));
  await page.getByRole('main').getByText(name).waitFor();
  // Files upload as soon as they are chosen: this journey is about Simpan, so the file is in first.
  await page.getByRole('main').locator(`[data-file-name="${name}"] [data-upload-phase="accepted"]`).waitFor();
}

describe('the reporter never loses a report', () => {
  it('offline at submit keeps everything; a lost reply is retried and files the report once', async () => {
    const guest = await journey.actor('guest-offline');
    const { page, context } = guest;
    const main = page.getByRole('main');
    await fillGuestWizardToEvidence(page);
    await chooseEvidence(page, `bukti-offline-${stamp}.pdf`);
    await fillCasePassword(page, PASSWORD);

    // The connection drops before sending: the confirmation and the message still show (loaded
    // beforehand), and nothing typed is gone.
    await context.setOffline(true);
    await saveReport(page);
    await snackbar(page, 'Network Error').waitFor();
    await context.setOffline(false);
    await waitForStep(page, 3);
    await main.getByText(`bukti-offline-${stamp}.pdf`).waitFor();
    expect(await main.getByLabel('Kata sandi pengaduan', { exact: true }).inputValue()).toBe(PASSWORD);
    await main.getByRole('button', { name: 'Previous', exact: true }).click();
    await waitForStep(page, 2);
    expect(await main.getByLabel(/^1\. /).inputValue()).toBe(REPORT_ANSWERS[1]);
    await main.getByRole('button', { name: 'Next', exact: true }).click();
    await waitForStep(page, 3);

    // The connection drops after the server filed it: the reply is lost on the way back.
    const filed: string[] = [];
    const keys: string[] = [];
    let dropped = false;
    await page.route('**/api/v1/cases', async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const reply = await route.fetch();
      const body = (await reply.json()) as { caseNumber?: string };
      if (body.caseNumber) filed.push(body.caseNumber);
      if (!dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.fulfill({ response: reply });
    });
    await saveReport(page);
    await snackbar(page, 'Network Error').waitFor();
    await waitForStep(page, 3);
    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);
    expect(keys).toHaveLength(2);
    expect(keys[0], 'the retry reuses the Idempotency-Key').toBe(keys[1]);
    expect(filed, 'the server answered both tries with the one report').toEqual([caseNumber, caseNumber]);
    forgive(guest.problems, /ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_RESET|Failed to fetch|net::ERR/);
    guest.expectClean();
  });

  it('a chunk that fails to load: retried unseen, or a message and Coba lagi, never a blank page', async () => {
    const guest = await journey.actor('guest-chunks');
    const { page } = guest;
    const main = page.getByRole('main');
    await page.goto('/');
    // The landing page is prerendered: a link tapped before the app starts is followed natively
    // (a fresh page load); this journey is about the app loading the wizard's chunk itself.
    await page.locator('#root[data-started]').waitFor({ state: 'attached' });

    // A connection that drops once: the wizard's chunk is fetched again and simply appears.
    let failures = 1;
    await page.route(/\/assets\/CaseWizardPage-[^/]+\.js$/, (route) =>
      failures-- > 0 ? route.abort('connectionreset') : route.continue(),
    );
    await main.getByRole('link', { name: 'Laporkan', exact: true }).click();
    await waitForStep(page, 0);
    expect(failures, 'the chunk was refused once, then fetched again').toBeLessThan(0);
    await page.unroute(/\/assets\/CaseWizardPage-[^/]+\.js$/);

    // A lasting failure (offline, or a deployment removed the chunk): the page says so and keeps
    // its header; once the chunk is reachable again, Coba lagi loads it.
    const fresh = await journey.actor('guest-chunks-lasting');
    const other = fresh.page;
    await other.goto('/');
    await other.locator('#root[data-started]').waitFor({ state: 'attached' });
    let blocked = true;
    await other.route(/\/assets\/CheckCasePage-[^/]+\.js$/, (route) =>
      blocked ? route.fulfill({ status: 404, body: 'not found' }) : route.continue(),
    );
    fresh.allowHttpError(404, /\/assets\/CheckCasePage-/, 'a chunk removed by a deployment');
    await other.getByRole('main').getByRole('link', { name: 'Pantau Laporan', exact: true }).click();
    const notice = other.getByRole('alert').filter({ hasText: 'Halaman gagal dimuat' });
    await notice.waitFor();
    await other.getByRole('navigation', { name: 'Navigasi utama' }).waitFor();
    blocked = false;
    await notice.getByRole('button', { name: 'Coba lagi' }).click();
    await other.getByRole('main').getByRole('heading', { level: 1, name: 'Pantau Laporan' }).waitFor();

    forgive(guest.problems, /ERR_CONNECTION_RESET|net::ERR|CaseWizardPage/);
    forgive(fresh.problems, /CheckCasePage|dynamically imported module|error boundary|above error/i);
    guest.expectClean();
    fresh.expectClean();
  });

  it('a refused attachment: its reason next to the file and in the snackbar, in view on a phone', async () => {
    const guest = await journey.actor('guest-refused', PHONE);
    const { page } = guest;
    const main = page.getByRole('main');
    const broken = makeBrokenPng(`foto-rusak-${stamp}.png`);
    await fillGuestWizardToEvidence(page);
    await chooseEvidence(page, `bukti-refused-${stamp}.pdf`);
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(broken);
    await main.getByText(broken.name).waitFor();
    await fillCasePassword(page, PASSWORD);
    // Scrolled to the bottom, as a reporter is after typing the password.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));

    guest.allowHttpError(400, /^\/api\/v1\/cases$/, 'the server refuses a damaged image');
    await saveReport(page);
    // The server's own reason (its wording is the gateway's), naming the file, next to that file.
    const row = main.locator('[data-file-error]').filter({ hasText: broken.name });
    const reasonText = row.getByRole('alert');
    await reasonText.waitFor();
    const reason = (await reasonText.innerText()).trim();
    expect(reason).toContain(broken.name);
    await snackbar(page, reason).waitFor();
    await snackbar(page, 'Data yang dikirim tidak valid').waitFor();
    // The valid evidence file carries no error.
    expect(await main.locator('[data-file-error]').count()).toBe(1);

    // In view, below the sticky header.
    await expect
      .poll(async () => {
        const box = await row.boundingBox();
        const header = await page.locator('header').first().boundingBox();
        if (!box || !header) return false;
        return box.y >= header.y + header.height && box.y + box.height <= PHONE.viewport.height;
      })
      .toBe(true);

    // Removing the refused file clears its reason; the rest stays.
    await main.getByRole('button', { name: `Hapus ${broken.name}` }).click();
    expect(await main.locator('[data-file-error]').count()).toBe(0);
    await main.getByText(`bukti-refused-${stamp}.pdf`).waitFor();
    guest.expectClean();
  });

  it('leaving the wizard with typed data asks; staying keeps the data', async () => {
    const guest = await journey.actor('guest-leaving');
    const { page } = guest;
    const main = page.getByRole('main');
    await page.goto('/');
    await main.getByRole('link', { name: 'Laporkan', exact: true }).click();
    await waitForStep(page, 0);
    await fillIdentityAnonymous(page);
    const leave = page.getByRole('alertdialog', { name: 'Tinggalkan halaman?' });

    // A menu link: asked; Tidak keeps the wizard and the data.
    await page
      .getByRole('navigation', { name: 'Navigasi utama' })
      .getByRole('link', { name: 'Pantau Laporan' })
      .click();
    await leave.getByText(/Data laporan yang sudah Anda isi akan hilang/).waitFor();
    await leave.getByRole('button', { name: 'Tidak', exact: true }).click();
    expect(new URL(page.url()).pathname).toBe('/case/create');
    expect(await main.getByLabel('Email').inputValue()).toBe('pelapor.rahasia@example.com');

    // The browser's Back: asked; staying keeps the data.
    await page.goBack();
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Tidak', exact: true }).click();
    expect(new URL(page.url()).pathname).toBe('/case/create');
    expect(await main.getByLabel('Email').inputValue()).toBe('pelapor.rahasia@example.com');

    // Closing the tab or reloading: the browser's own beforeunload question.
    const question = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await question;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    expect(page.isClosed()).toBe(false);
    expect(await main.getByLabel('Email').inputValue()).toBe('pelapor.rahasia@example.com');

    // The logo: asked; Oke leaves for the landing page.
    await page.locator('header a[href="/"]').first().click();
    await leave.getByRole('button', { name: 'Oke', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // A blank wizard is left without a question.
    await page.getByRole('main').getByRole('link', { name: 'Laporkan', exact: true }).click();
    await waitForStep(page, 0);
    await page
      .getByRole('navigation', { name: 'Navigasi utama' })
      .getByRole('link', { name: 'Beranda' })
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await leave.count()).toBe(0);
    guest.expectClean();
  });

  it('a weak password is refused; a generated passphrase is accepted; the PDF failing keeps the number', async () => {
    // A browser in New York: the receipt still prints WIB.
    const guest = await journey.actor('guest-password', { timezoneId: 'America/New_York' });
    const { page } = guest;
    const main = page.getByRole('main');
    await fillGuestWizardToEvidence(page);
    await chooseEvidence(page, `bukti-password-${stamp}.pdf`);
    // The file picker speaks Indonesian.
    await main.getByText('1 file dipilih').waitFor();
    await main.getByText('Belum ada file dipilih').waitFor();
    await main.getByText(/mp3, mpga, mpeg, mp4, mp4a/).waitFor();

    await fillCasePassword(page, 'Password2026!');
    await main.getByRole('button', { name: 'Save', exact: true }).click();
    await main.getByText(COMMON_MESSAGE, { exact: true }).waitFor();
    await fillCasePassword(page, 'aaaaaaaaaaaa');
    await main.getByRole('button', { name: 'Save', exact: true }).click();
    await main.getByText(TRIVIAL_MESSAGE, { exact: true }).waitFor();
    await fillCasePassword(page, 'pendek');
    await main.getByRole('button', { name: 'Save', exact: true }).click();
    await main.getByText('Kata sandi pengaduan minimal 10 karakter.', { exact: true }).waitFor();
    expect(await page.getByRole('alertdialog').count(), 'no confirmation for a refused password').toBe(0);

    // The evidence link must be a real web address.
    await main.getByLabel('Tautan Bukti Pendukung').fill('lihat di drive saya');
    await main.getByRole('button', { name: 'Save', exact: true }).click();
    await main.getByText(/Tautan Bukti Pendukung harus berupa alamat web/).waitFor();
    await main.getByLabel('Tautan Bukti Pendukung').fill('https://drive.example.com/berkas/123');

    await main.getByRole('button', { name: 'Buat frasa sandi acak' }).click();
    const shown = main.getByTestId('generated-passphrase');
    const phrase = (await shown.getByTestId('passphrase-value').innerText()).trim();
    expect(phrase).toMatch(/^([a-z]+-){5}\d{2}$/);
    expect(await main.getByLabel('Kata sandi pengaduan', { exact: true }).inputValue()).toBe(phrase);
    expect(await main.getByLabel('Konfirmasi kata sandi pengaduan', { exact: true }).inputValue()).toBe(
      phrase,
    );

    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);
    const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });

    // The PDF's code cannot load (connection gone, or a deployment meanwhile): the number stays.
    await page.route(/\/assets\/pdfmake-[^/]+\.js$/, (route) => route.abort('connectionreset'));
    await success.getByRole('button', { name: 'Unduh Nomor Pengaduan' }).click();
    await success.getByText(PDF_FAILED).waitFor();
    expect((await success.getByTestId('case-number').innerText()).trim()).toBe(caseNumber);

    // A text receipt made on the device, time in WIB.
    const [receipt] = await Promise.all([
      page.waitForEvent('download'),
      success.getByRole('button', { name: 'Unduh sebagai teks' }).click(),
    ]);
    expect(receipt.suggestedFilename()).toBe(`${caseNumber}.txt`);
    const text = readFileSync(await receipt.path(), 'utf8');
    expect(text).toContain(`Nomor Pengaduan: ${caseNumber}`);
    const wib = new Date(Date.now() + 7 * 3_600_000);
    const hour = String(wib.getUTCHours()).padStart(2, '0');
    expect(text).toMatch(new RegExp(`\\d{2}/\\d{2}/\\d{4} (${hour}|\\d{2}):\\d{2} WIB`));
    const printedHour = /(\d{2}):\d{2} WIB/.exec(text)?.[1];
    expect([hour, String((wib.getUTCHours() + 23) % 24).padStart(2, '0')]).toContain(printedHour);

    // The connection is back: Coba lagi downloads the PDF; the dialog is still there.
    await page.unroute(/\/assets\/pdfmake-[^/]+\.js$/);
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      success.getByRole('button', { name: 'Coba lagi' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`${caseNumber}.pdf`);
    await success.getByTestId('case-number').waitFor();

    // The generated passphrase opens the report in Pantau Laporan.
    await success.getByRole('button', { name: 'Tutup', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await trackCase(page, caseNumber, phrase);

    forgive(guest.problems, /pdfmake|ERR_CONNECTION_RESET|net::ERR|dynamically imported module/);
    guest.expectClean();
  });
});
