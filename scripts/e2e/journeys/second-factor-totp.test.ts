/**
 * The second factor by authenticator app (docs/product/second-factor.md): `analis.raharja` (type 4,
 * company 3), whose type must have a factor, is sent from the password to Aktifkan Verifikasi Dua
 * Langkah, enrols an authenticator app (QR code and key; codes computed from the key as an app does)
 * and keeps the ten recovery codes. Later sign-ins stop at Verifikasi Dua Langkah: a wrong code is
 * refused beside the field, the app's code goes on; a recovery code works once, the same code twice
 * is refused. This journey changes the account's factors: no other journey uses `analis.raharja`.
 */
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../../support/browser.ts';
import { enrolTotp, totpCode, wrongTotpCode } from './second-factor.ts';
import { signIn, signOut, snackbar, useJourney } from './support.ts';

const USERNAME = 'analis.raharja';
const PASSWORD = 'Demo#2026!';
const TYPE_NAME = 'Staff Perusahaan';

const journey = useJourney('second-factor-totp');

describe('second factor by authenticator app', () => {
  it('enrols, signs in with a code, refuses a wrong one; a recovery code works once', async () => {
    const analyst = await journey.actor('analis-raharja');
    const { page } = analyst;
    const main = page.getByRole('main');
    // Each screen of the second factor passes axe (WCAG 2.1 A/AA) with nothing serious.
    const findings: string[] = [];
    const scan = async (screen: string) => {
      for (const v of await seriousA11yViolations(page)) findings.push(`${screen}: ${v}`);
    };
    // Refusals the journey provokes: the browser logs each 400 as a console error.
    analyst.allowHttpError(400, /^\/api\/v1\/session\/second-factor$/, 'wrong and used codes on purpose');

    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/aktifkan-verifikasi');
    await main.getByText(/dapat melihat data pelapor/).waitFor();
    // Nothing else opens before a factor is added; the page asked for opens after it.
    await page.goto('/admin/case');
    await page.waitForURL('**/auth/aktifkan-verifikasi');
    await main.getByRole('button', { name: 'Aplikasi autentikator' }).waitFor();
    await scan('Aktifkan Verifikasi Dua Langkah');
    const { secret, recoveryCodes } = await enrolTotp(page, scan);
    await page.waitForURL('**/admin/case');
    await snackbar(page, 'Login berhasil').first().waitFor();
    const state = await (await page.request.get('/api/v1/session')).json();
    expect(state.secondFactor).toMatchObject({ status: 'done', methods: ['totp'], recoveryCodesLeft: 10 });

    // The next sign-in asks for the app's code; a wrong one is refused beside the field.
    await signOut(page, TYPE_NAME);
    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/verifikasi');
    await main.getByRole('heading', { name: 'Verifikasi Dua Langkah' }).waitFor();
    const field = main.getByLabel('Kode autentikator');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill(await wrongTotpCode(secret));
    await main.getByRole('button', { name: 'Verifikasi', exact: true }).click();
    await main.getByText('Kode atau passkey tidak valid', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/verifikasi');
    await scan('Verifikasi Dua Langkah, a refused code');
    // The enrolment used this time step's code: the app's next one (the gateway allows a step of drift).
    await field.fill(await totpCode(secret, 30));
    await main.getByRole('button', { name: 'Verifikasi', exact: true }).click();
    await page.waitForURL('**/admin/dashboard');

    // A recovery code instead of the app: once.
    const [first, second] = recoveryCodes;
    await signOut(page, TYPE_NAME);
    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/verifikasi');
    await main.getByRole('button', { name: 'Gunakan kode pemulihan' }).click();
    await main.getByLabel('Kode pemulihan').fill(first ?? '');
    await main.getByRole('button', { name: 'Verifikasi', exact: true }).click();
    await page.waitForURL('**/admin/dashboard');

    await signOut(page, TYPE_NAME);
    await signIn(page, USERNAME, PASSWORD, { secondFactor: false });
    await page.waitForURL('**/auth/verifikasi');
    await main.getByRole('button', { name: 'Gunakan kode pemulihan' }).click();
    await main.getByLabel('Kode pemulihan').fill(first ?? '');
    await main.getByRole('button', { name: 'Verifikasi', exact: true }).click();
    await main.getByText('Kode atau passkey tidak valid', { exact: true }).waitFor();
    // Typed the way people copy them: upper case, spaces around.
    await main.getByLabel('Kode pemulihan').fill(` ${(second ?? '').toUpperCase()} `);
    await main.getByRole('button', { name: 'Verifikasi', exact: true }).click();
    await page.waitForURL('**/admin/dashboard');

    // Keamanan Akun counts what is left.
    await page.goto('/admin/keamanan');
    await main.getByRole('heading', { level: 1, name: 'Keamanan Akun' }).waitFor();
    await main.getByText('Sisa kode pemulihan: 8', { exact: true }).waitFor();
    await main.getByText('Verifikasi dua langkah aktif', { exact: true }).waitFor();
    await scan('Keamanan Akun');
    expect(findings, `serious/critical axe violations:\n${findings.join('\n')}`).toEqual([]);
    analyst.expectClean();
  });
});
