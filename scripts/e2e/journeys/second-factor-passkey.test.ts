/**
 * The second factor by passkey, with Chromium's virtual authenticator standing in for the device's
 * (DevTools WebAuthn: a platform authenticator that verifies the user): `analis.pakuan` (type 4,
 * company 2) registers a passkey on Aktifkan Verifikasi Dua Langkah, keeps its recovery codes, and
 * signs in later with "Gunakan passkey" alone; Keamanan Akun lists the passkey with its last use and
 * renames it. This journey changes the account's factors: no other journey uses `analis.pakuan`.
 */
import { describe, expect, it } from 'vitest';
import { keepRecoveryCodes, virtualAuthenticator } from './second-factor.ts';
import { signIn, signOut, snackbar, useJourney } from './support.ts';

const USERNAME = 'analis.pakuan';
const PASSWORD = 'Demo#2026!';
const TYPE_NAME = 'Staff Perusahaan';

const journey = useJourney('second-factor-passkey');

describe('second factor by passkey', () => {
  it('registers a passkey, signs in with it, and manages it in Keamanan Akun', async () => {
    const analyst = await journey.actor('analis-pakuan');
    const { page } = analyst;
    const main = page.getByRole('main');
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/aktifkan-verifikasi');
    await main.getByRole('button', { name: 'Passkey', exact: true }).click();
    await main.getByRole('button', { name: 'Daftarkan passkey' }).click();
    await main.getByText('Nama passkey harus diisi', { exact: true }).waitFor();
    await main.getByLabel('Nama passkey').fill('Laptop uji');
    await main.getByRole('button', { name: 'Daftarkan passkey' }).click();
    await keepRecoveryCodes(page);
    await page.waitForURL('**/admin/dashboard');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.rpId).toBe('localhost');

    // Signed in again: the passkey is asked for, no code.
    await signOut(page, TYPE_NAME);
    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/verifikasi');
    await main.getByRole('heading', { name: 'Verifikasi Dua Langkah' }).waitFor();
    expect(await main.getByLabel('Kode autentikator').count()).toBe(0);
    await main.getByRole('button', { name: 'Gunakan passkey' }).click();
    await page.waitForURL('**/admin/dashboard');
    await snackbar(page, 'Login berhasil').first().waitFor();

    // Keamanan Akun, from the top bar: the passkey with its dates; renamed.
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(`${TYPE_NAME}$`) })
      .click();
    await page.getByRole('menuitem', { name: 'Keamanan Akun' }).click();
    await page.waitForURL('**/admin/keamanan');
    const table = main.getByRole('table', { name: 'Passkey' });
    const row = table.getByRole('row').filter({ hasText: 'Laptop uji' });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB$/);
    expect(cells[2]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB$/);
    await row.getByRole('button', { name: 'Ubah Nama Laptop uji' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ubah Nama Passkey' });
    await dialog.getByLabel('Nama passkey').fill('Laptop kantor');
    await dialog.getByRole('button', { name: 'Simpan', exact: true }).click();
    await snackbar(page, 'Nama passkey berhasil diubah').first().waitFor();
    await table.getByRole('cell', { name: 'Laptop kantor', exact: true }).waitFor();
    await main.getByText('Belum ada aplikasi autentikator.', { exact: true }).waitFor();
    analyst.expectClean();
  });
});
