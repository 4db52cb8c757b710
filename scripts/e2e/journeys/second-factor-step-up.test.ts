/**
 * Step-up (docs/product/second-factor.md#step-up): revealing a masked contact needs a second factor
 * used within the last ten minutes. `analis.direksi` signs in (its factor fresh), and ten minutes later
 * by the gateway's clock "Tampilkan kontak" opens Verifikasi Ulang instead of revealing: declined, the
 * contact stays masked and nothing else happens; given (the account's passkey), the same reveal goes
 * on and the contact is shown.
 *
 * Ten minutes are not waited for: this file starts a system of its own whose gateway loads
 * ../clock-shift.ts, and moves that gateway's clock forward (the shared system's clock is left alone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../../support/browser.ts';
import { makePdf } from '../../support/files.ts';
import { type OwnSystem, startOwnSystem } from './own-system.ts';
import { addTestPasskey } from './second-factor.ts';
import { fileGuestReport, signIn, useJourney } from './support.ts';

const journey = useJourney('second-factor-step-up');

/** A minute past the step-up window (STEP_UP_SECONDS, 600). */
const SHIFT_SECONDS = 660;

/** legacy-sim (fresh data) and a gateway on the embedded store whose clock the journey moves forward. */
const startClockSystem = () =>
  startOwnSystem({
    name: 'clock',
    clock: 'gateway',
    // One process, whose clock every request reads; no background jobs, whose queue keeps the
    // database's own time.
    gatewayEnv: { GATEWAY_WORKERS: '1', JOBS_ENABLED: 'false' },
  });

let system: OwnSystem | undefined;
let caseNumber = '';

beforeAll(async () => {
  system = await startClockSystem();
  const stamp = Date.now().toString(36);
  caseNumber = await fileGuestReport({
    password: `Pantau-${stamp}`,
    evidence: makePdf(`laporan-${stamp}.pdf`, `Kronologi ${stamp}`),
    baseUrl: system.url,
  });
});

afterAll(async () => {
  await system?.stop();
});

describe('step-up', () => {
  it('Tampilkan kontak asks for the factor again after ten minutes, then reveals', async () => {
    if (!system) throw new Error('no system');
    const handler = await journey.actor('analis-direksi', { baseUrl: system.url });
    handler.allowHttpError(401, /^\/api\/v1\/cases\/\d+\/contact-reveal$/, 'step-up asked on purpose');
    const { page } = handler;
    const main = page.getByRole('main');

    await signIn(page, 'analis.direksi', 'Analis#2026!');
    await page.waitForURL('**/admin/dashboard');
    await page.goto('/admin/case');
    await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(caseNumber);
    const row = main
      .getByRole('table', { name: 'Daftar laporan' })
      .getByRole('row')
      .filter({ hasText: caseNumber });
    await row.getByRole('button', { name: 'Lihat' }).click();
    await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
    await main.getByText('p***@e***.com', { exact: true }).waitFor();

    // Ten minutes (and one) later, by the gateway's clock.
    await system.shiftClockTo(SHIFT_SECONDS);
    await main.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    const reveal = page.getByRole('dialog', { name: 'Tampilkan kontak pelapor' });
    await reveal.getByLabel('Alasan').fill('Menghubungi pelapor untuk klarifikasi bukti');
    await reveal.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    const prompt = page.getByRole('alertdialog', { name: 'Verifikasi Ulang' });
    await prompt.getByText('Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Declined: nothing is revealed, no error is shown, the reason stays typed.
    await prompt.getByRole('button', { name: 'Batal', exact: true }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await reveal.getByLabel('Alasan').inputValue()).toBe(
      'Menghubungi pelapor untuk klarifikasi bukti',
    );
    expect(await page.content()).not.toContain('pelapor.e2e@example.com');
    expect(await page.getByRole('region', { name: 'Notifikasi' }).getByRole('status').count()).toBe(0);

    // Given: the same reveal goes on by itself.
    await reveal.getByRole('button', { name: 'Tampilkan', exact: true }).click();
    await prompt.waitFor();
    await addTestPasskey(page, 'analis.direksi');
    await prompt.getByRole('button', { name: 'Gunakan passkey' }).click();
    await reveal.waitFor({ state: 'detached' });
    await main.getByText('pelapor.e2e@example.com', { exact: true }).waitFor();
    await main.getByText('+6281234567890', { exact: true }).waitFor();
    const state = await (await page.request.get('/api/v1/session')).json();
    expect(state.secondFactor.stepUpUntil).not.toBeNull();
    handler.expectClean();
  });
});
