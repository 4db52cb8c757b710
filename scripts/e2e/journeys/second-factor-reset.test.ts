/**
 * Reset Faktor Kedua (docs/product/second-factor.md#removing-and-resetting): `admin.raharja` (type 2,
 * company 3) creates an analyst, who signs in, changes the initial password and adds its second
 * factor. The analyst then loses it: its manager opens the analyst's record and resets the factor,
 * asked first. The analyst's open session ends at its next step ("Sesi Anda telah berakhir", back to
 * /), and the next sign-in leads to Aktifkan Verifikasi Dua Langkah again. The analyst is new; no
 * other journey uses `admin.raharja`.
 */
import { describe, expect, it } from 'vitest';
import { confirmDialog, firstSignIn, masterForm, openMenu, row, takeInitialPassword } from './master.ts';
import { completeSecondFactor, ENROL_PATH } from './second-factor.ts';
import { signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('second-factor-reset');
const stamp = Date.now().toString(36).slice(-5);
const ANALYST = { fullName: `Analis Reset ${stamp}`, username: `analis.reset.${stamp}` };
const NEW_PASSWORD = `Reset#${stamp}2026`;

describe('Reset Faktor Kedua', () => {
  it("the manager resets a user's factor: its session ends and it enrols again", async () => {
    const manager = await journey.actor('admin-raharja');
    const { page } = manager;
    await signIn(page, 'admin.raharja', 'Demo#2026!');
    await page.waitForURL('**/admin/dashboard');

    // A new analyst of company 3.
    await openMenu(page, 'Analis', '/admin/supportagent');
    await page.getByRole('button', { name: 'Tambah Analis', exact: true }).click();
    const add = masterForm(page, 'Analis Baru');
    await add.getByLabel('Nama Lengkap', { exact: true }).fill(ANALYST.fullName);
    await add.getByLabel('Alamat Email', { exact: true }).fill(`${ANALYST.username}@wbs.example.id`);
    await add.getByLabel('Username', { exact: true }).fill(ANALYST.username);
    await add.getByLabel('Jalur Otorisasi', { exact: true }).selectOption({ label: 'Jalur SPI' });
    await add.getByRole('button', { name: 'Simpan', exact: true }).click();
    await confirmDialog(page, 'Simpan Staff', 'Anda yakin ingin menyimpan staff ini ?', 'Simpan');
    const initialPassword = await takeInitialPassword(page, ANALYST.username);

    // The analyst's first sign-in: the password, then the second factor.
    const analyst = await journey.actor('new-analyst');
    analyst.allowHttpError(401, /^\/api\/v1\//, 'the session ended by the reset');
    const own = analyst.page;
    await firstSignIn(own, ANALYST.username, initialPassword, NEW_PASSWORD);
    await own.waitForURL(`**${ENROL_PATH}`);
    await completeSecondFactor(own, ANALYST.username);
    await own.goto('/admin/dashboard');
    const before = await (await own.request.get('/api/v1/session')).json();
    expect(before.secondFactor).toMatchObject({ status: 'done', methods: ['passkey'] });

    // The manager resets it from the analyst's record, asked first.
    await row(page, ANALYST.fullName).getByRole('button', { name: 'Lihat', exact: true }).click();
    const view = masterForm(page, 'Lihat Staff');
    await view.waitFor();
    await view.getByRole('button', { name: 'Reset Faktor Kedua', exact: true }).click();
    const question = page.getByRole('alertdialog', { name: 'Reset Faktor Kedua' });
    await question.getByText(/sesinya diakhiri/).waitFor();
    await question.getByRole('button', { name: 'Tidak', exact: true }).click();
    await question.waitFor({ state: 'detached' });
    await view.getByRole('button', { name: 'Reset Faktor Kedua', exact: true }).click();
    await question.getByRole('button', { name: 'Oke', exact: true }).click();
    await snackbar(page, 'Faktor kedua pengguna telah direset; pengguna mendaftarkannya lagi saat masuk')
      .first()
      .waitFor();
    manager.expectClean();

    // The analyst's session has ended: its next step says so and leaves the admin area.
    await own
      .getByRole('navigation', { name: 'Menu samping' })
      .getByRole('link', { name: 'Laporan', exact: true })
      .click();
    await snackbar(own, 'Sesi Anda telah berakhir').first().waitFor();
    await own.waitForURL((url) => url.pathname === '/');
    expect((await (await own.request.get('/api/v1/session')).json()).user).toBeNull();

    // Signing in again leads to the enrolment, as for a new account.
    await signIn(own, ANALYST.username, NEW_PASSWORD, { secondFactor: false });
    await own.waitForURL(`**${ENROL_PATH}`);
    await own.getByRole('main').getByRole('heading', { name: 'Aktifkan Verifikasi Dua Langkah' }).waitFor();
    await completeSecondFactor(own, ANALYST.username);
    await own.waitForURL('**/admin/dashboard');
    analyst.expectClean();
  });
});
