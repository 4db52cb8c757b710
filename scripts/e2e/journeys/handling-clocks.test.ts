/**
 * Journey (handling clocks): the report legacy-sim seeds as filed 8 days ago and never
 * touched (WBS-10000004) is overdue for its handler: in the dashboard's tile, in the case list filtered
 * to overdue reports, in its detail. Its reporter, tracking it, sees the promised date. The group
 * administrator gives a company its own deadlines on Tenggat Penanganan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isoToDisplay } from '../../../shared/src/dates.ts';
import { addDays } from '../../../shared/src/handling-clock.ts';
import { makePdf } from '../../support/files.ts';
import { apiSignIn, findCase, jakartaDay, signIn, snackbar, trackCase, useJourney } from './support.ts';
import { fillCasePassword, fillGuestWizardToEvidence, saveReport } from './wizard.ts';

const journey = useJourney('handling-clocks');
const OVERDUE_NUMBER = 'WBS-10000004';
const OVERDUE_PASSWORD = 'Lapor#2026!';

describe('handling clocks', () => {
  /**
   * Filed 8 days before the system was seeded (WIB): the acknowledgement was due 7 days after its
   * filing day. Read from that day, not from today: a run passing midnight WIB between the seeding and
   * this file would expect a day too late.
   */
  let ackDue = '';
  beforeAll(async () => {
    const admin = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    const { createdAt } = await findCase(admin, OVERDUE_NUMBER);
    ackDue = isoToDisplay(addDays(createdAt.slice(0, 10), 7));
  });

  it('a guest filing a report is told at once by when it will be acknowledged', async () => {
    const guest = await journey.actor('guest');
    const { page } = guest;
    await fillGuestWizardToEvidence(page);
    await page
      .getByRole('main')
      .getByLabel('Bukti Pendukung', { exact: true })
      .setInputFiles(makePdf(`bukti-tenggat-${Date.now()}.pdf`, 'Bukti tenggat'));
    await fillCasePassword(page, `Tenggat-${Date.now().toString(36)}`);
    await saveReport(page);
    const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });
    const promise = success.getByTestId('reply-promise');
    await promise.waitFor();
    expect(await promise.innerText()).toBe(
      `Laporan Anda akan ditanggapi paling lambat ${isoToDisplay(jakartaDay(-7))}`,
    );
    guest.expectClean();
  });

  it('the untouched report is overdue on the dashboard tile, in the overdue list and in its detail', async () => {
    const admin = await journey.actor('company-admin');
    const { page } = admin;
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');
    const main = page.getByRole('main');

    const tile = main.getByRole('region', { name: 'Pengaduan Melewati Tenggat' });
    const count = tile.getByRole('link', { name: /^Pengaduan Melewati Tenggat: \d+$/ });
    await count.waitFor();
    expect(Number(await count.innerText())).toBeGreaterThanOrEqual(1);
    await count.click();
    await page.waitForURL((url) => url.pathname === '/admin/case' && url.searchParams.get('overdue') === '1');

    await expect.poll(() => main.getByLabel('Hanya yang melewati tenggat').isChecked()).toBe(true);
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    const row = table.getByRole('row').filter({ hasText: OVERDUE_NUMBER });
    await row.waitFor();
    await row.getByText(ackDue, { exact: true }).waitFor();
    await row.getByText('Terlambat', { exact: true }).waitFor();
    // Every row of the filtered list is late; the day-old demo report is not among them.
    const rows = table.getByRole('row').filter({ hasText: /WBS-\d{8}/ });
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    expect(await rows.filter({ hasNotText: 'Terlambat' }).count()).toBe(0);
    expect(await table.getByRole('row').filter({ hasText: 'WBS-10000001' }).count()).toBe(0);

    await row.getByRole('button', { name: 'Lihat' }).click();
    await main.getByRole('heading', { level: 1, name: `Detail Laporan ${OVERDUE_NUMBER}` }).waitFor();
    const deadlines = main.getByLabel('Tenggat penanganan');
    await deadlines.getByText(`Tenggat tanda terima: ${ackDue}`).waitFor();
    await deadlines.getByText('Terlambat', { exact: true }).waitFor();
    admin.expectClean();
  });

  it('the reporter tracking it sees by when the report will be answered', async () => {
    const reporter = await journey.actor('reporter');
    const { page } = reporter;
    const main = await trackCase(page, OVERDUE_NUMBER, OVERDUE_PASSWORD);
    await main.getByText(`Laporan Anda akan ditanggapi paling lambat ${ackDue}`, { exact: true }).waitFor();
    // The reporter sees the promise, not the staff's deadline panel.
    expect(await main.getByLabel('Tenggat penanganan').count()).toBe(0);
    reporter.expectClean();
  });

  it('the group administrator gives a company its own deadlines, and returns it to the default', async () => {
    const administrator = await journey.actor('administrator');
    const { page } = administrator;
    await signIn(page, 'admin', 'Admin#2026!');
    await page.getByRole('navigation').getByRole('link', { name: 'Tenggat Penanganan' }).first().click();
    await page.waitForURL('**/admin/deadlines');
    const main = page.getByRole('main');
    const table = main.getByRole('table', { name: 'Tenggat Penanganan' });
    const pakuan = table.getByRole('row').filter({ hasText: 'Pakuan' });
    await pakuan.getByText('Bawaan grup', { exact: true }).waitFor();

    administrator.allowHttpError(
      400,
      /^\/api\/v1\/handling-deadlines\/\d+$/,
      'a deadline of 0 days is refused',
    );
    await pakuan.getByRole('button', { name: /^Ubah / }).click();
    const days = table.getByRole('spinbutton', { name: /^Tanda terima \(hari\) .*Pakuan/ });
    const months = table.getByRole('spinbutton', { name: /^Tanggapan \(bulan\) .*Pakuan/ });
    await days.fill('0');
    await table.getByRole('button', { name: 'Simpan' }).click();
    await table.getByText('Minimal 1 hari', { exact: true }).waitFor();
    await days.fill('5');
    await months.fill('2');
    await table.getByRole('button', { name: 'Simpan' }).click();
    await snackbar(page, 'Tenggat penanganan berhasil disimpan').waitFor();
    const saved = table.getByRole('row').filter({ hasText: 'Pakuan' });
    await saved.getByText('Khusus perusahaan', { exact: true }).waitFor();
    expect((await saved.innerText()).replace(/\s+/g, ' ')).toContain('5 2');

    await saved.getByRole('button', { name: 'Kembalikan ke bawaan' }).click();
    await snackbar(page, 'Tenggat penanganan kembali mengikuti bawaan grup').waitFor();
    await table
      .getByRole('row')
      .filter({ hasText: 'Pakuan' })
      .getByText('Bawaan grup', { exact: true })
      .waitFor();
    administrator.expectClean();
  });
});
