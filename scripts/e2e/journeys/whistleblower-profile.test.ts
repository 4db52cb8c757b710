/**
 * Type 6 (signed-in whistleblower): Profil. A saved name is in the top bar at once (not at the next
 * sign-in); an empty name is refused under its field.
 */
import { describe, expect, it } from 'vitest';
import { confirmDialog } from './master.ts';
import { signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('whistleblower-profile');

describe('type 6: Profil', () => {
  it('saves the name and the top bar shows it at once', async () => {
    const reporter = await journey.actor('pelapor');
    const { page } = reporter;
    await signIn(page, 'pelapor', 'Pelapor#2026!');
    // Profil is in the top-bar menu (spec section 2).
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Pelapor/ })
      .click();
    await page.getByRole('menuitem', { name: 'Profil', exact: true }).click();
    await page.waitForURL('**/admin/profile');
    const main = page.getByRole('main');
    const name = main.getByLabel('Nama Pengguna', { exact: true });
    // The form fills in once the profile has loaded.
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).not.toBe('');
    const original = await name.inputValue();

    await name.fill('');
    await main.getByRole('button', { name: 'Simpan', exact: true }).click();
    await main.getByText('Username wajib diisi', { exact: true }).waitFor();

    const renamed = `${original} Baru`;
    await name.fill(renamed);
    await main.getByRole('button', { name: 'Simpan', exact: true }).click();
    await confirmDialog(page, 'Simpan Profil', 'Anda yakin ingin menyimpan profil ?', 'Simpan');
    await snackbar(page, /berhasil/)
      .first()
      .waitFor();
    await page.getByRole('banner').getByText(renamed, { exact: true }).first().waitFor();
    // It stays after a reload (the session itself carries it).
    await page.reload();
    await page.getByRole('banner').getByText(renamed, { exact: true }).first().waitFor();

    // Put the demo name back for the other journeys.
    await main.getByLabel('Nama Pengguna', { exact: true }).fill(original);
    await main.getByRole('button', { name: 'Simpan', exact: true }).click();
    await confirmDialog(page, 'Simpan Profil', 'Anda yakin ingin menyimpan profil ?', 'Simpan');
    await page.getByRole('banner').getByText(original, { exact: true }).first().waitFor();
    reporter.expectClean();
  });
});
