/**
 * Journey 3: a company analyst created with an initial password (legacy-sim `analis.baru`) signs in,
 * is made to change the password (spec sections 2 and 4), is signed in automatically with the new
 * password, adds its second factor and lands on / with a Dashboard link instead of Masuk. Signing out
 * and in again proves the change stuck: the initial password is refused, the new one (with the
 * factor) goes straight to the dashboard.
 * This journey changes legacy-sim data: no other journey uses `analis.baru`.
 */
import { describe, expect, it } from 'vitest';
import { completeSecondFactor } from './second-factor.ts';
import { signIn, snackbar, useJourney } from './support.ts';

const USERNAME = 'analis.baru';
const INITIAL_PASSWORD = 'Awal#2026!';
const NEW_PASSWORD = 'Analis#Baru2026';

const journey = useJourney('initial-password');

describe('first sign-in with an initial password', () => {
  it('forces a password change, signs in with the new password and lands on /', async () => {
    const analyst = await journey.actor('analis-baru');
    const { page } = analyst;

    await signIn(page, USERNAME, INITIAL_PASSWORD);
    await page.waitForURL('**/user/changepassword');
    const form = page.getByRole('main');
    await form.getByRole('heading', { name: 'Ubah Kata Sandi' }).waitFor();
    // No session starts while the initial password is in use; the probe says a change is pending.
    const probe = await page.request.get('/api/v1/session');
    expect(await probe.json()).toEqual({ user: null, passwordChangeRequired: true, secondFactor: null });
    // Spec §2: any /admin route leads to the change screen, in this tab and in a new one.
    await page.goto('/admin/case');
    await page.waitForURL('**/user/changepassword');
    const tab = await analyst.context.newPage();
    await tab.goto('/admin/dashboard');
    await tab.waitForURL('**/user/changepassword');
    await tab.close();

    // Section 5: minimum 8 characters, and the confirmation must match.
    await form.getByLabel('Kata sandi lama').fill(INITIAL_PASSWORD);
    await form.getByLabel('Kata sandi baru', { exact: true }).fill('pendek');
    await form.getByLabel('Konfirmasi kata sandi baru').fill('pendek');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Kata sandi baru minimal 8 karakter.', { exact: true }).waitFor();
    await form.getByText('Konfirmasi kata sandi baru minimal 8 karakter.', { exact: true }).waitFor();
    await form.getByLabel('Kata sandi baru', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Konfirmasi kata sandi baru').fill(`${NEW_PASSWORD}x`);
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Konfirmasi kata sandi baru tidak sama', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/user/changepassword');

    await form.getByLabel('Konfirmasi kata sandi baru').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Simpan' }).click();

    // Section 4: signed in again automatically, then /; a signed-in user sees Dashboard, not Masuk.
    // A staff account adds its second factor first (docs/product/second-factor.md).
    await page.waitForURL('**/auth/aktifkan-verifikasi');
    await completeSecondFactor(page, USERNAME);
    await page.waitForURL((url) => url.pathname === '/');
    const header = page.getByRole('navigation', { name: 'Navigasi utama' });
    await header.getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Masuk', exact: true }).count()).toBe(0);
    expect((await page.request.get('/api/v1/session')).status()).toBe(200);

    await header.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL('**/admin/dashboard');

    // Sign out from the top-bar menu.
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Staff Perusahaan/ })
      .click();
    await page.getByRole('menuitem', { name: 'Keluar' }).click();
    await snackbar(page, 'Berhasil Keluar').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await header.getByRole('link', { name: 'Masuk', exact: true }).waitFor();

    // The initial password no longer works (the refusal is an expected 422 of POST /session)…
    analyst.allowHttpError(422, /^\/api\/v1\/session$/, 'sign-in with the old password');
    await page.goto('/auth/login');
    await form.getByLabel('Username').fill(USERNAME);
    await form.getByLabel('Kata sandi', { exact: true }).fill(INITIAL_PASSWORD);
    await form.getByRole('button', { name: 'Masuk' }).click();
    await snackbar(page, 'Username atau kata sandi salah').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');

    // …and the new one signs in straight to the user's target (type 4: /admin/dashboard).
    await signIn(page, USERNAME, NEW_PASSWORD);
    await page.waitForURL('**/admin/dashboard');
    analyst.expectClean();
  });
});
