/**
 * Journey (reporter e-mail notice, docs/product/notifications.md#pelapor): a guest asks, from the
 * success dialog, to be told by e-mail of a reply; the dialog refuses a second recipient on the spot
 * and answers the one neutral text. Tracking the report shows the address masked and waiting for its
 * link, and the button stops it. A mail link's page takes its token out of the address bar and sends
 * it only when pressed. No serious axe violation on the dialog, the panel or the link page.
 */

import { describe, expect, it } from 'vitest';
import { REPORTER_NOTICE_MESSAGES as M } from '../../../shared/src/messages.ts';
import { seriousA11yViolations } from '../../support/browser.ts';
import { makePdf } from '../../support/files.ts';
import { snackbar, trackCase, useJourney } from './support.ts';
import { fillCasePassword, fillGuestWizardToEvidence, saveReport, shownCaseNumber } from './wizard.ts';

const journey = useJourney('reporter-notice');

describe('reporter e-mail notice', () => {
  it('asked from the success dialog, shown masked on the tracked view, stopped by the button', async () => {
    const guest = await journey.actor('guest');
    const { page } = guest;
    const password = `Kabar-${Date.now().toString(36)}-Sandi`;
    await fillGuestWizardToEvidence(page);
    await page
      .getByRole('main')
      .getByLabel('Bukti Pendukung', { exact: true })
      .setInputFiles(makePdf(`bukti-kabar-${Date.now()}.pdf`, 'Bukti kabar'));
    await fillCasePassword(page, password);
    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);

    const success = page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' });
    const form = success.getByRole('form', { name: M.title });
    await form.getByText(/alamat e-mail terpisah atau sekali pakai/).waitFor();
    const field = form.getByLabel(M.emailLabel);
    await field.fill('satu@contoh.example, dua@contoh.example');
    await form.getByRole('button', { name: M.submit }).click();
    await form.getByText(M.emailInvalid, { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await field.fill('sekali.pakai@kotak.example');
    await form.getByRole('button', { name: M.submit }).click();
    await form.getByRole('status').filter({ hasText: M.requested }).waitFor();
    expect(await field.inputValue()).toBe('');
    await success.getByRole('button', { name: 'Tutup', exact: true }).click();

    const main = await trackCase(page, caseNumber, password);
    const panel = main.getByRole('region', { name: M.title });
    await panel.getByText('Menunggu konfirmasi untuk s***@k***.example.', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await panel.getByRole('button', { name: M.stop }).click();
    await snackbar(page, M.stopped).waitFor();
    await panel.getByText(M.none, { exact: true }).waitFor();
    expect(await panel.getByRole('button', { name: M.stop }).count()).toBe(0);
    guest.expectClean();
  });

  it('a link page takes the token from the fragment, sends it on a press, and says when it is spent', async () => {
    const reader = await journey.actor('reader');
    const { page } = reader;
    reader.allowHttpError(404, /^\/api\/v1\/reporter-notices\/confirm$/, 'a link that was never issued');
    const token = 'A'.repeat(43);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/reporter-notices/')) sent.push(request.postData() ?? '');
    });
    await page.goto(`/notifikasi/konfirmasi#${token}`);
    const main = page.getByRole('main');
    const button = main.getByRole('button', { name: M.confirmButton });
    await button.waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect(sent).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await button.click();
    await main.getByText(M.confirmFailed, { exact: true }).waitFor();
    expect(sent).toEqual([JSON.stringify({ token })]);

    await page.goto('/notifikasi/berhenti#terpotong');
    await main.getByText(M.linkMissing, { exact: true }).waitFor();
    expect(await main.getByRole('button').count()).toBe(0);
    reader.expectClean();
  });
});
