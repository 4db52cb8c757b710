/**
 * Journey: a guest files a report and downloads Unduh Nomor Pengaduan; the PDF carries a
 * signed receipt. On the public Verifikasi Tanda Terima page (from the landing page) the PDF verifies
 * with its number and time; the same code with one changed digit does not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../support/files.ts';
import { useJourney } from './support.ts';
import { fillCasePassword, fillGuestWizardToEvidence, saveReport, shownCaseNumber } from './wizard.ts';

const journey = useJourney('receipt');
const stamp = Date.now().toString(36);
const RECEIPT_CODE = /WBSR1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

/** Changes one digit of the code's payload (a character that is a digit, to another digit). */
function oneDigitChanged(code: string): string {
  const [prefix, payload = '', signature = ''] = code.split('.');
  const at = payload.search(/[0-9]/);
  if (at < 0) throw new Error('no digit in the payload');
  const digit = Number(payload[at]);
  return `${prefix}.${payload.slice(0, at)}${(digit + 1) % 10}${payload.slice(at + 1)}.${signature}`;
}

describe('a receipt anyone can verify', () => {
  it('the downloaded receipt verifies on the public page; a changed digit does not', async () => {
    const guest = await journey.actor('guest');
    const { page } = guest;
    await fillGuestWizardToEvidence(page);
    const main = page.getByRole('main');
    await main
      .getByLabel('Bukti Pendukung', { exact: true })
      .setInputFiles(makePdf(`bukti-${stamp}.pdf`, `Bukti ${stamp}`));
    await fillCasePassword(page, `Tanda-Terima-${stamp}`);
    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);

    const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      success.getByRole('button', { name: 'Unduh Nomor Pengaduan' }).click(),
    ]);
    const pdfPath = await download.path();
    const pdfText = readFileSync(pdfPath).toString('latin1');
    const code = RECEIPT_CODE.exec(pdfText)?.[0] ?? '';
    expect(code).not.toBe('');
    await success.getByRole('button', { name: 'Tutup' }).click();

    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Verifikasi Tanda Terima' }).click();
    await page.waitForURL('**/verifikasi-tanda-terima');
    const verify = page.getByRole('main');
    await verify.getByRole('heading', { name: 'Verifikasi Tanda Terima' }).waitFor();

    // The PDF itself: the code is read from it in the browser, then checked.
    await verify.getByTestId('receipt-pdf').setInputFiles(pdfPath);
    await verify.getByText('Tanda terima SAH', { exact: true }).waitFor();
    expect(await verify.getByTestId('receipt-number').innerText()).toBe(caseNumber);
    await verify.getByText(/^Tanggal dibuat: \d{2}\/\d{2}\/\d{4}/).waitFor();
    expect(await verify.getByLabel('Kode tanda terima').inputValue()).toBe(code);

    // The pasted code with one digit changed: not valid.
    await verify.getByLabel('Kode tanda terima').fill(oneDigitChanged(code));
    await verify.getByRole('button', { name: 'Periksa', exact: true }).click();
    await verify.getByText('Tanda terima TIDAK SAH', { exact: true }).waitFor();
    expect(await verify.getByTestId('receipt-number').count()).toBe(0);

    // Pasted back unchanged: valid again.
    await verify.getByLabel('Kode tanda terima').fill(code);
    await verify.getByRole('button', { name: 'Periksa', exact: true }).click();
    await verify.getByText('Tanda terima SAH', { exact: true }).waitFor();
  });
});
