/** Steps of the report wizard (/case/create) as a guest fills them, by label and role. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { STEP_TIMEOUT_MS } from './support.ts';

export const STEP_HEADINGS = [
  'Identitas pelapor',
  'Komunikasi',
  'Laporan Dugaan Pelanggaran',
  'Bukti Pendukung',
] as const;

export async function waitForStep(page: Page, step: 0 | 1 | 2 | 3): Promise<void> {
  await page
    .getByRole('main')
    .getByRole('heading', { level: 2, name: STEP_HEADINGS[step], exact: true })
    .waitFor();
}

export async function next(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Next', exact: true }).click();
}

/**
 * Ticks a Chakra checkbox, radio or switch the way a user does, by its visible label text (the
 * native input is visually hidden under the drawn control), and checks that it took.
 */
export async function choose(scope: Locator, role: 'checkbox' | 'radio', name: string): Promise<void> {
  const input = scope.getByRole(role, { name, exact: true });
  if (await input.isChecked()) return;
  await scope.getByText(name, { exact: true }).click();
  await expect
    .poll(() => input.isChecked(), { message: `${role} "${name}" checked`, timeout: STEP_TIMEOUT_MS })
    .toBe(true);
}

/** Step 0, anonymous: Tanpa Identitas on, reporter type, e-mail and phone only. */
export async function fillIdentityAnonymous(page: Page): Promise<void> {
  const main = page.getByRole('main');
  await choose(main, 'checkbox', 'Tanpa Identitas');
  await choose(main.getByRole('radiogroup', { name: 'Identitas Pelapor' }), 'radio', 'Pribadi');
  await main.getByLabel('Email').fill('pelapor.rahasia@example.com');
  await main.getByLabel('Nomor Telepon').fill('+6281234567890');
}

/** Step 1: two ways to be contacted and a time. */
export async function fillCommunication(page: Page): Promise<void> {
  const main = page.getByRole('main');
  const ways = main.getByRole('group', { name: 'Cara Komunikasi' });
  await choose(ways, 'checkbox', 'Telepon/HP/Whatshapp/SMS');
  await choose(ways, 'checkbox', 'Tatap Muka');
  await main.getByLabel('Waktu Komunikasi').fill('Hari kerja 09.00-17.00');
}

export const REPORT_ANSWERS: Record<number, string> = {
  1: 'Dugaan penerimaan voucher belanja dari rekanan pengadaan meter air.',
  2: 'Kantor pusat, bagian pengadaan',
  3: 'Oktober 2026',
  4: 'Inisial AB, Kepala Seksi Pengadaan',
  5: 'Direktorat Umum',
  6: 'Divisi Pengadaan',
  7: 'Rekanan menyerahkan voucher setelah kontrak pengadaan ditandatangani.',
};

/** Step 2: category and the seven required questions; no protection needed. */
export async function fillReport(page: Page, category = 'Suap dan Gratifikasi'): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Kategori Pengaduan').selectOption({ label: category });
  for (const [n, answer] of Object.entries(REPORT_ANSWERS)) {
    await main.getByLabel(new RegExp(`^${n}\\. `)).fill(answer);
  }
  await choose(main.getByRole('radiogroup', { name: /^15\. / }), 'radio', 'Tidak');
}

/** Opens /case/create as a guest and fills steps 0 to 2 (anonymous), leaving the wizard on step 3. */
export async function fillGuestWizardToEvidence(page: Page): Promise<void> {
  await page.goto('/case/create');
  await waitForStep(page, 0);
  await fillIdentityAnonymous(page);
  await next(page);
  await waitForStep(page, 1);
  await fillCommunication(page);
  await next(page);
  await waitForStep(page, 2);
  await fillReport(page);
  await next(page);
  await waitForStep(page, 3);
}

/** Types the case password and its confirmation. */
export async function fillCasePassword(page: Page, password: string): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Kata sandi pengaduan', { exact: true }).fill(password);
  await main.getByLabel('Konfirmasi kata sandi pengaduan', { exact: true }).fill(password);
}

/** Save, then Simpan in the "Simpan Pengaduan" confirmation. */
export async function saveReport(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Simpan Pengaduan' });
  await confirm.getByText('Anda yakin ingin menyimpan pengaduan ini ?', { exact: true }).waitFor();
  await confirm.getByRole('button', { name: 'Simpan', exact: true }).click();
}

/** The complaint number shown in the success dialog. */
export async function shownCaseNumber(page: Page): Promise<string> {
  const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });
  const numberButton = success.getByRole('button', { name: /^Nomor Pengaduan WBS-\d{8}/ });
  await numberButton.waitFor();
  return (await numberButton.innerText()).trim();
}
