/**
 * Journey 5: axe-core with the WCAG 2.1 A/AA rules on the public and staff screens, in the states a
 * user meets them (validation messages shown, dialogs open, phone menu open): no serious or critical
 * violation. Failures list each rule with the offending elements.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../../support/browser.ts';
import { apiSignIn, jakartaMonth, PHONE, settledMap, signIn, trackCase, useJourney } from './support.ts';
import { fillCommunication, fillIdentityAnonymous, fillReport, next, waitForStep } from './wizard.ts';

const journey = useJourney('accessibility');

/** Scans each screen, collects every finding, and fails once at the end with all of them. */
function scanner() {
  const findings: string[] = [];
  return {
    async scan(page: Page, screen: string) {
      for (const v of await seriousA11yViolations(page)) findings.push(`${screen}: ${v}`);
    },
    expectNone() {
      expect(findings, `serious/critical axe violations:\n${findings.join('\n')}`).toEqual([]);
    },
  };
}

describe('accessibility (axe, WCAG 2.1 A/AA)', () => {
  it('landing page, sign-in form and tracking form, on a desktop and on a phone', async () => {
    const axe = scanner();
    const guest = await journey.actor('guest');
    const { page } = guest;
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Whistleblowing System' }).waitFor();
    await axe.scan(page, 'landing');

    await page.goto('/auth/login');
    await page.getByRole('main').getByRole('button', { name: 'Masuk' }).click();
    await page.getByText('Username wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'sign-in with validation messages');

    await page.goto('/admin/checkcase');
    await page.getByRole('main').getByRole('button', { name: 'Cari Laporan' }).click();
    await page.getByText('Nomor Pengaduan wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'tracking form with validation message');

    const phone = await journey.actor('guest-phone', PHONE);
    await phone.page.goto('/');
    await phone.page.getByRole('button', { name: 'Menu' }).click();
    await phone.page.getByRole('navigation', { name: 'Navigasi utama' }).waitFor();
    await axe.scan(phone.page, 'landing on a phone, menu open');

    axe.expectNone();
    guest.expectClean();
    phone.expectClean();
  });

  it('every step of the report wizard, with its validation messages', async () => {
    const axe = scanner();
    const guest = await journey.actor('reporter');
    const { page } = guest;
    await page.goto('/case/create');
    await waitForStep(page, 0);
    await axe.scan(page, 'wizard step 0');
    await next(page);
    await page.getByText('Identitas Pelapor wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'wizard step 0 with validation messages');
    await fillIdentityAnonymous(page);
    await axe.scan(page, 'wizard step 0, anonymous');
    await next(page);

    await waitForStep(page, 1);
    await next(page);
    await page.getByText('Cara Komunikasi wajib pilih minimal 1', { exact: true }).waitFor();
    await axe.scan(page, 'wizard step 1 with validation messages');
    await fillCommunication(page);
    await next(page);

    await waitForStep(page, 2);
    await next(page);
    await page.getByText('Kategori pengaduan wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'wizard step 2 with validation messages');
    await fillReport(page);
    await next(page);

    await waitForStep(page, 3);
    await page.getByRole('main').getByRole('button', { name: 'Tambah Pihak Terkait' }).click();
    await page.getByRole('main').getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Bukti Pendukung wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'wizard step 3 with validation messages');

    axe.expectNone();
    guest.expectClean();
  });

  it('tracking a report: both tabs of the case detail', async () => {
    const axe = scanner();
    const guest = await journey.actor('tracker');
    const { page } = guest;
    const main = await trackCase(page, 'WBS-10000002', 'Lapor#2026!');
    await axe.scan(page, 'tracked case, Informasi Laporan');
    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    await main.getByText('Text disembunyikan demi keamanan').first().waitFor();
    await axe.scan(page, 'tracked case, Catatan Aktivitas');

    axe.expectNone();
    guest.expectClean();
  });

  it('the case list, a case detail and the Buat Catatan dialog of a company admin', async () => {
    const axe = scanner();
    const admin = await journey.actor('admin-kahuripan');
    const { page } = admin;
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page.goto('/admin/case');
    const main = page.getByRole('main');
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    await table.getByRole('button', { name: 'Lihat' }).first().waitFor();
    await axe.scan(page, 'case list');

    await table.getByRole('button', { name: 'Lihat' }).first().click();
    await main.getByRole('heading', { level: 1, name: /^Detail Laporan WBS-\d{8}$/ }).waitFor();
    await axe.scan(page, 'case detail, Informasi Laporan');
    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    await main.getByRole('table', { name: 'Catatan Aktivitas' }).waitFor();
    await axe.scan(page, 'case detail, Catatan Aktivitas');

    await main.getByRole('button', { name: 'Buat Catatan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buat Catatan Aktivitas' });
    await dialog.getByRole('button', { name: 'Simpan' }).click();
    await dialog.getByText('Catatan Aktivitas wajib diisi', { exact: true }).waitFor();
    await axe.scan(page, 'Buat Catatan Aktivitas with validation messages');

    axe.expectNone();
    admin.expectClean();
  });
  it("Peta Laporan (map, table, a province's cities) and Statistik of a company admin", async () => {
    const axe = scanner();
    const admin = await journey.actor('admin-kahuripan-insights');
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    // Once the gateway has read the demo reports' locations, the map has a province to open.
    const { from, to } = jakartaMonth();
    await settledMap(`from=${from}&to=${to}`, await apiSignIn('admin.kahuripan', 'Perusahaan#2026!'));
    await page.goto('/admin/maps');
    const table = main.getByRole('table', { name: 'Jumlah laporan per provinsi' });
    await table.waitFor();
    await main.locator('canvas').first().waitFor();
    await axe.scan(page, 'Peta Laporan');
    await table.getByRole('button').first().click();
    await main.getByRole('table', { name: /^Jumlah laporan per kota dan kabupaten di / }).waitFor();
    await main.locator('canvas').first().waitFor();
    await axe.scan(page, 'Peta Laporan, cities of a province');

    await page.goto('/admin/statistik');
    await main.getByRole('region', { name: 'Angka utama' }).waitFor();
    await axe.scan(page, 'Statistik');

    axe.expectNone();
    admin.expectClean();
  });
});
