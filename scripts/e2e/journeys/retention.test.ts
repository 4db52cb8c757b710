import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../../support/browser.ts';
import { type OwnSystem, startOwnSystem } from './own-system.ts';
import { type Actor, signIn, snackbar, trackCase, useJourney } from './support.ts';

const journey = useJourney('retention');
const CASE_NUMBER = 'WBS-10000005';
const CASE_PASSWORD = 'Lapor#2026!';
const COMPANY = 'Perumda Air Minum Tirta Kahuripan';
const stamp = Date.now().toString(36);
const MESSAGE = `Apakah laporan saya masih disimpan? (${stamp})`;
const NOTE = `Dihapus dari basis data WBS oleh petugas PDP (${stamp})`;
const WARNING = /^\d+ laporan melewati masa retensi dan belum ditandai dimusnahkan$/;
/** Past the register's 30 grace days (DISPOSAL_GRACE_DAYS), with a day to spare for WIB midnight. */
const SHIFT_SECONDS = 32 * 86_400;

const startRetentionSystem = () =>
  startOwnSystem({
    name: 'retention',
    // Both clocks move: the gateway checks the legacy's tokens against its own time.
    clock: 'both',
    gatewayEnv: {
      // One process, whose clock every request reads. Jobs stay on: the case index the scan reads
      // is filled by the watcher's job.
      GATEWAY_WORKERS: '1',
      RETENTION_MONTHS: '120',
    },
  });

let system: OwnSystem | undefined;
beforeAll(async () => {
  system = await startRetentionSystem();
}, 120_000);
afterAll(async () => {
  await system?.stop();
}, 60_000);

const base = () => {
  if (!system) throw new Error('the system is not started');
  return system.url;
};

async function openMenu(page: Page, label: string, path: string) {
  await page
    .getByRole('navigation', { name: 'Menu samping' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await page.waitForURL((url) => url.pathname === path);
  await page.getByRole('main').getByRole('heading', { level: 1, name: label }).waitFor();
}

async function signInAdministrator(actor: Actor) {
  await signIn(actor.page, 'admin', 'Admin#2026!');
  await actor.page.waitForURL('**/admin/partner');
  await actor.page.getByRole('main').getByRole('heading', { level: 1, name: 'Partner' }).waitFor();
}

/** Ekspor Jejak Audit of the case list's default period: the event column of every record. */
async function auditEvents(page: Page): Promise<{ events: string[]; csv: string }> {
  await openMenu(page, 'Laporan', '/admin/case');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('main').getByRole('button', { name: 'Ekspor Jejak Audit' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8');
  const events = csv
    .split('\n')
    .slice(1)
    .map((line) => line.split('","')[2] ?? '');
  return { events, csv };
}

describe('retention and disposal', () => {
  let caseId = 0;

  it('the tracker of the report closed 13 months ago writes a message', async () => {
    const tracker = await journey.actor('tracker', { baseUrl: base() });
    const main = await trackCase(tracker.page, CASE_NUMBER, CASE_PASSWORD);
    await main.getByRole('tab', { name: 'Pesan' }).click();
    await main.getByLabel('Tulis pesan').fill(MESSAGE);
    await main.getByRole('button', { name: 'Kirim Pesan' }).click();
    await snackbar(tracker.page, 'Pesan berhasil dikirim').waitFor();
    await main.getByTestId('message').filter({ hasText: MESSAGE }).waitFor();
    tracker.expectClean();
  });

  it('a 12-month period and Periksa sekarang: the report is listed, its data deleted, the scan audited', async () => {
    const administrator = await journey.actor('administrator', { baseUrl: base() });
    const { page } = administrator;
    const main = page.getByRole('main');
    await signInAdministrator(administrator);

    // Retensi Data: the company gets its own 12 months (a value out of range refused under its field).
    administrator.allowHttpError(400, /^\/api\/v1\/retention-periods\/\d+$/, '121 months are refused');
    await openMenu(page, 'Retensi Data', '/admin/retensi');
    const periods = main.getByRole('table', { name: 'Retensi Data' });
    const company = periods.getByRole('row').filter({ hasText: COMPANY });
    await company.getByText('Bawaan grup', { exact: true }).waitFor();
    expect((await company.innerText()).replace(/\s+/g, ' ')).toContain(`${COMPANY} 120 `);
    await company.getByRole('button', { name: `Ubah ${COMPANY}` }).click();
    const months = periods.getByRole('spinbutton', { name: `Masa retensi (bulan) ${COMPANY}` });
    await expect.poll(() => months.evaluate((el) => el === document.activeElement)).toBe(true);
    await months.fill('121');
    await periods.getByRole('button', { name: 'Simpan' }).click();
    await periods.getByText('Maksimal 120 bulan', { exact: true }).waitFor();
    await months.fill('12');
    await months.press('Enter');
    await snackbar(page, 'Masa retensi berhasil disimpan').waitFor();
    await company.getByText('Khusus perusahaan', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Register Pemusnahan: the scan (again, should the case index not have read the report yet).
    await openMenu(page, 'Register Pemusnahan', '/admin/pemusnahan');
    const table = main.getByRole('table', { name: 'Register Pemusnahan' });
    const done = /^Pemeriksaan selesai: (\d+) laporan masuk register, data gateway (\d+) laporan dihapus\.$/;
    const running = 'Pemeriksaan retensi sedang berjalan; coba lagi sebentar lagi';
    administrator.allowHttpError(409, /^\/api\/v1\/disposals\/scan$/, 'a scan of the job runs meanwhile');
    let purged = 0;
    let asked = 0;
    await expect
      .poll(
        async () => {
          await main.getByRole('button', { name: 'Periksa sekarang' }).click();
          asked += 1;
          const said = snackbar(page, new RegExp(`${done.source}|^${running}$`)).nth(asked - 1);
          await said.waitFor();
          const counts = done.exec(await said.innerText());
          purged += Number(counts?.[2] ?? 0);
          return table.getByRole('row').filter({ hasText: COMPANY }).count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBeGreaterThanOrEqual(1);
    // At least this report's message.
    expect(purged).toBeGreaterThanOrEqual(1);

    // The register names no complaint number: the report is the row whose case opens as it.
    const rows = table.getByRole('row').filter({ hasText: COMPANY });
    const ids: number[] = [];
    for (const link of await rows.getByRole('link', { name: /^Buka laporan \d+$/ }).all()) {
      ids.push(Number(/(\d+)$/.exec((await link.getAttribute('aria-label')) ?? '')?.[1]));
    }
    expect(await page.content()).not.toContain(CASE_NUMBER);
    for (const id of ids) {
      await table.getByRole('link', { name: `Buka laporan ${id}`, exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/admin/case/${id}`);
      const heading = main.getByRole('heading', { level: 1, name: /^Detail Laporan WBS-\d{8}$/ });
      await heading.waitFor();
      const found = (await heading.innerText()).endsWith(CASE_NUMBER);
      await page.goBack();
      await table.waitFor();
      if (found) {
        caseId = id;
        break;
      }
    }
    expect(caseId, `${CASE_NUMBER} in the register`).toBeGreaterThan(0);
    const row = table.getByRole('row').filter({
      has: page.getByRole('link', { name: `Buka laporan ${caseId}`, exact: true }),
    });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual([COMPANY, String(caseId), 'Ditutup']);
    // Data gateway dihapus: a time, not "Belum"; Keadaan: waiting, not yet overdue.
    expect(cells[5]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB$/);
    expect(cells[6]).toBe('Menunggu');

    const { events, csv } = await auditEvents(page);
    expect(events).toContain('retention-purged');
    expect(events).toContain('retention-scan');
    expect(csv).not.toContain(CASE_NUMBER);
    administrator.expectClean();
  });

  it("the tracker's message is gone", async () => {
    const tracker = await journey.actor('tracker-again', { baseUrl: base() });
    const main = await trackCase(tracker.page, CASE_NUMBER, CASE_PASSWORD);
    await main.getByRole('tab', { name: 'Pesan' }).click();
    await main.getByText('Belum ada pesan.').waitFor();
    expect(await tracker.page.content()).not.toContain(MESSAGE);
    tracker.expectClean();
  });

  it('32 days later the landing screen warns; marked destroyed, it is listed so, audited, the warning gone', async () => {
    expect(caseId, 'the case of the previous test').toBeGreaterThan(0);
    await system?.shiftClockTo(SHIFT_SECONDS);
    const administrator = await journey.actor('administrator-later', { baseUrl: base() });
    const { page } = administrator;
    // The browser lives on the same day as the gateway (the case list's default period is this month).
    await administrator.context.clock.install({ time: Date.now() + SHIFT_SECONDS * 1000 });
    const main = page.getByRole('main');
    await signInAdministrator(administrator);
    await main.getByText(WARNING).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await main.getByRole('link', { name: 'Buka Register Pemusnahan' }).click();
    await page.waitForURL('**/admin/pemusnahan');

    const table = main.getByRole('table', { name: 'Register Pemusnahan' });
    const row = table.getByRole('row').filter({
      has: page.getByRole('link', { name: `Buka laporan ${caseId}`, exact: true }),
    });
    await row.getByText('Melewati batas', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const mark = row.getByRole('button', { name: `Tandai sudah dimusnahkan: laporan ${caseId}, ${COMPANY}` });
    await mark.click();
    const dialog = page.getByRole('alertdialog', { name: 'Tandai Sudah Dimusnahkan' });
    await dialog.getByText(`laporan ${caseId} milik ${COMPANY}`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Batal' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => mark.evaluate((el) => el === document.activeElement)).toBe(true);

    await mark.click();
    await dialog.getByLabel('Catatan').fill(NOTE);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Tandai', exact: true }).click();
    await snackbar(page, 'Laporan ditandai sudah dimusnahkan').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => mark.count()).toBe(0);
    await expect
      .poll(() =>
        main
          .getByRole('heading', { level: 1, name: 'Register Pemusnahan' })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);

    await main.getByRole('button', { name: 'Sudah dimusnahkan' }).click();
    await row.getByText(`Catatan: ${NOTE}`).waitFor();
    await row.getByText('Sudah dimusnahkan', { exact: true }).waitFor();

    // The warning left the landing screen.
    await openMenu(page, 'Partner', '/admin/partner');
    await expect.poll(() => main.getByText(WARNING).count()).toBe(0);

    const { events, csv } = await auditEvents(page);
    expect(events).toContain('disposal-destroyed');
    expect(csv).not.toContain(NOTE);
    expect(csv).not.toContain(CASE_NUMBER);
    administrator.expectClean();
  });

  it('Catatan Pemrosesan Data reads as records and prints without the menus', async () => {
    const administrator = await journey.actor('administrator-reads', { baseUrl: base() });
    const { page } = administrator;
    const main = page.getByRole('main');
    await signInAdministrator(administrator);
    await openMenu(page, 'Catatan Pemrosesan Data', '/admin/catatan-pemrosesan');
    const sections = main.getByRole('region');
    await sections.first().waitFor();
    expect(await sections.count()).toBeGreaterThanOrEqual(1);
    await main.getByText('Masa retensi', { exact: true }).first().waitFor();
    await main.getByText('Pengendali data', { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Menu samping' }).isVisible()).toBe(false);
    expect(await page.getByRole('banner').isVisible()).toBe(false);
    expect(await main.getByRole('button', { name: 'Cetak' }).isVisible()).toBe(false);
    expect(await main.getByRole('heading', { level: 1, name: 'Catatan Pemrosesan Data' }).isVisible()).toBe(
      true,
    );
    await page.emulateMedia({ media: 'screen' });
    administrator.expectClean();
  });
});
