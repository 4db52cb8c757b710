/**
 * Journey: the case workflow, walked in the browser from Baru to the final status.
 * One guest report per handler kind — a company admin (type 2, `admin.kahuripan`) and a partner user
 * (type 3, `holding`, choosing the company) — is moved through every stage of the legacy's status
 * table with Buat Catatan Aktivitas. At each stage the log form must offer exactly the choices of
 * spec §4's rule (computed here from GET /case-statuses with the shared rule, never from status
 * names), and the reporter, tracking the report as a guest with number and password, sees the new
 * status. Also: a stale choice refused by the server shows its message on the Status field; the
 * list at 1024 px cuts nothing; the administrator (type 1) reads the list and a detail only.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  caseLineClosed,
  isFinalStatus,
  nextStatusChoices,
  requiresCaseLine,
  type StatusLike,
} from '../../../shared/src/status.ts';
import { makePdf } from '../../support/files.ts';
import {
  apiGet,
  apiSignIn,
  baseUrl,
  fileGuestReport,
  findCase,
  STEP_TIMEOUT_MS,
  signIn,
  useJourney,
} from './support.ts';

const journey = useJourney('case-workflow');

const stamp = Date.now().toString(36);
const COMPANY_1 = 'Perumda Air Minum Tirta Kahuripan';
const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR ?? join(tmpdir(), 'wbs-e2e-artifacts');

type Status = StatusLike & { open: boolean };
let table: Status[] = [];
const reports = {
  admin: { number: '', password: `Alur-admin-${stamp}` },
  partner: { number: '', password: `Alur-partner-${stamp}` },
  race: { number: '', password: `Alur-race-${stamp}` },
};

beforeAll(async () => {
  table = (await apiGet<{ items: Status[] }>('/case-statuses')).items;
  for (const [key, report] of Object.entries(reports)) {
    report.number = await fileGuestReport({
      password: report.password,
      evidence: makePdf(`bukti-${key}-${stamp}.pdf`, `Bukti alur ${key} ${stamp}`),
      what: `Dugaan pengaturan lelang (${key} ${stamp}).`,
    });
  }
});

const statusById = (id: number) => {
  const status = table.find((s) => s.id === id);
  if (!status) throw new Error(`status ${id} is not in the legacy table`);
  return status;
};

/**
 * The next stage of the walk: the open choice with the smallest order above the current one; when
 * none is left, the final choice (the last step). Ditolak (final, beside Verifikasi) is never taken.
 */
function nextStage(current: Status): Status {
  const choices = nextStatusChoices(table, current.id);
  const forward = choices.filter((s) => s.open && s.order > current.order);
  const next = forward[0] ?? choices.find((s) => isFinalStatus(s) && Number.isInteger(s.order));
  if (!next) throw new Error(`no stage after ${current.name}`);
  return next;
}

/** The detail's header (title, date and status badge). */
const detailHeader = (page: Page, number: string) =>
  page
    .getByRole('main')
    .getByRole('heading', { level: 1, name: `Detail Laporan ${number}` })
    .locator('xpath=..');

async function optionLabels(select: Locator): Promise<string[]> {
  return select.evaluate((s: HTMLSelectElement) =>
    [...s.options].filter((o) => o.value !== '').map((o) => o.textContent ?? ''),
  );
}

/** Opens Buat Catatan Aktivitas on the open detail and waits for its status list. */
async function openLogDialog(page: Page) {
  await page.getByRole('main').getByRole('button', { name: 'Buat Catatan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buat Catatan Aktivitas' });
  const status = dialog.getByLabel('Status');
  await expect
    .poll(async () => (await optionLabels(status)).length, { timeout: STEP_TIMEOUT_MS })
    .toBeGreaterThan(0);
  return { dialog, status, line: dialog.getByLabel('Jalur Otorisasi') };
}

async function saveLog(page: Page, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Simpan', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Simpan Status Pengaduan' });
  await confirm.getByRole('button', { name: 'Simpan', exact: true }).click();
}

/** The reporter tracks the report as a guest and must see `statusName` in the detail header. */
async function trackerSees(page: Page, report: { number: string; password: string }, statusName: string) {
  const main = page.getByRole('main');
  await page.goto('/admin/checkcase');
  await main.getByLabel('Nomor Laporan').fill(report.number);
  await main.getByLabel('Kata sandi', { exact: true }).fill(report.password);
  await main.getByRole('button', { name: 'Cari Laporan' }).click();
  await detailHeader(page, report.number).getByText(statusName, { exact: true }).waitFor();
}

/** Opens the case list, picking company 1 when the user chooses a company, and filters by number. */
async function openCaseInList(page: Page, number: string, picksCompany: boolean) {
  const main = page.getByRole('main');
  await page
    .getByRole('navigation', { name: 'Menu samping' })
    .getByRole('link', { name: 'Laporan', exact: true })
    .click();
  await page.waitForURL('**/admin/case');
  if (picksCompany) await main.getByLabel('Perusahaan').selectOption({ label: COMPANY_1 });
  await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(number);
  const row = main
    .getByRole('table', { name: 'Daftar laporan' })
    .getByRole('row')
    .filter({ hasText: number });
  await row.waitFor();
  return row;
}

async function walkToFinal(
  who: { name: string; username: string; password: string; picksCompany: boolean },
  report: { number: string; password: string },
) {
  const handler = await journey.actor(who.name);
  const reporter = await journey.actor(`${who.name}-reporter`);
  const { page } = handler;
  await signIn(page, who.username, who.password);
  const row = await openCaseInList(page, report.number, who.picksCompany);
  await row.getByRole('button', { name: 'Lihat' }).click();
  const header = detailHeader(page, report.number);
  await header.getByText('Baru', { exact: true }).waitFor();
  await trackerSees(reporter.page, report, 'Baru');

  let current = statusById(1);
  const walked: string[] = [];
  for (let step = 0; step < table.length && !isFinalStatus(current); step++) {
    const { dialog, status, line } = await openLogDialog(page);
    const expected = nextStatusChoices(table, current.id).map((s) => s.name);
    expect(await optionLabels(status), `choices at ${current.name}`).toEqual(expected);
    // The line is chosen while the case is routed (ids 1 and 11); later it is no longer sent.
    expect(await line.isDisabled(), `line selector at ${current.name}`).toBe(caseLineClosed(current.id));
    if (requiresCaseLine(current.id) && (await line.inputValue()) === '') {
      await line.selectOption({ label: 'Jalur SPI' });
    }
    const next = nextStage(current);
    await status.selectOption({ label: next.name });
    await dialog.getByLabel('Catatan Aktivitas').fill(`Tahap ${next.name} (${who.name} ${stamp}).`);
    await saveLog(page, dialog);
    await dialog.waitFor({ state: 'detached' });
    await header.getByText(next.name, { exact: true }).waitFor();
    await trackerSees(reporter.page, report, next.name);
    walked.push(next.name);
    current = next;
  }
  // Every stage of the table's main line, ending on the order-11 status.
  expect(walked).toEqual(table.filter((s) => s.order > 1 && Number.isInteger(s.order)).map((s) => s.name));
  expect(current.order).toBe(11);

  // The final status takes a note, never a change: its only choice is itself.
  const { dialog, status, line } = await openLogDialog(page);
  expect(await optionLabels(status)).toEqual([current.name]);
  expect(await status.inputValue()).toBe(String(current.id));
  expect(await line.isDisabled()).toBe(true);
  await dialog.getByText(/sudah berstatus akhir/).waitFor();
  await dialog.getByLabel('Catatan Aktivitas').fill(`Catatan penutup (${who.name} ${stamp}).`);
  await saveLog(page, dialog);
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('main').getByRole('tab', { name: 'Catatan Aktivitas' }).click();
  await page
    .getByRole('main')
    .getByRole('table', { name: 'Catatan Aktivitas' })
    .getByRole('row')
    .filter({ hasText: `Catatan penutup (${who.name} ${stamp}).` })
    .waitFor();
  await header.getByText(current.name, { exact: true }).waitFor();
  handler.expectClean();
  reporter.expectClean();
}

describe('the case workflow, Baru to the final status', () => {
  it('a company admin (type 2) walks a report through every stage; the reporter sees each', async () => {
    await walkToFinal(
      {
        name: 'admin-perusahaan',
        username: 'admin.kahuripan',
        password: 'Perusahaan#2026!',
        picksCompany: false,
      },
      reports.admin,
    );
  });

  it('a partner user (type 3) walks a report of one of its companies through every stage', async () => {
    await walkToFinal(
      { name: 'partner', username: 'holding', password: 'Partner#2026!', picksCompany: true },
      reports.partner,
    );
  });

  it('a choice made stale by another handler is refused on its field, not only in a toast', async () => {
    const admin = await journey.actor('admin-race');
    const { page } = admin;
    admin.allowHttpError(400, /^\/api\/v1\/cases\/\d+\/logs$/, 'the stale status choice is refused');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    const row = await openCaseInList(page, reports.race.number, false);
    await row.getByRole('button', { name: 'Lihat' }).click();
    const { dialog, status, line } = await openLogDialog(page);
    await line.selectOption({ label: 'Jalur Direksi' });
    await status.selectOption({ label: statusById(11).name });
    await dialog.getByLabel('Catatan Aktivitas').fill('Diterima untuk ditelaah.');

    // Meanwhile another handler (a privileged analyst on its own line) rejects the report, a final status.
    const other = await apiSignIn('analis.direksi', 'Analis#2026!');
    const { id } = await findCase(other, reports.race.number);
    const rejected = table.find((s) => isFinalStatus(s) && !Number.isInteger(s.order));
    if (!rejected) throw new Error('the table has no final branch status');
    const form = new FormData();
    form.append('statusId', String(rejected.id));
    form.append('caseLineId', '1');
    form.append('message', 'Ditolak: bukan ranah WBS.');
    const reply = await fetch(`${baseUrl}/api/v1/cases/${id}/logs`, {
      method: 'POST',
      headers: { origin: new URL(baseUrl).origin, cookie: other.cookie },
      body: form,
    });
    expect(reply.status).toBe(201);

    await saveLog(page, dialog);
    await dialog.getByText('Status pengaduan Tidak Valid', { exact: true }).waitFor();
    expect(await status.getAttribute('aria-invalid')).toBe('true');
    admin.expectClean();
  });
});

describe('the case list at 1024 px', () => {
  it('cuts no date, select or action', async () => {
    const admin = await journey.actor('admin-1024', { viewport: { width: 1024, height: 768 } });
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page
      .getByRole('navigation', { name: 'Menu samping' })
      .getByRole('link', { name: 'Laporan', exact: true })
      .click();
    await page.waitForURL('**/admin/case');
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    await table.getByRole('button', { name: 'Buat Catatan' }).first().waitFor();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const shot = join(ARTIFACTS_DIR, `case-list-1024-${stamp}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    console.info(`case list at 1024 px: ${shot}`);

    // Nothing scrolls sideways: neither the page nor the table's own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    const box = table.locator('xpath=..');
    const overflow = await box.evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(overflow, 'the case table fits its box').toBeLessThanOrEqual(0);
    // Every filter control shows its whole value (a date reads DD/MM/YYYY in full): the text's
    // measured width fits the control's content box.
    const filters = main.getByRole('group', { name: 'Filter laporan' });
    // Text and select controls (the overdue checkbox has no value text to cut).
    const valueControls = 'input:not([aria-hidden="true"]):not([type="checkbox"]), select';
    for (const control of await filters.locator(valueControls).all()) {
      const spare = await control.evaluate((e) => {
        const field = e as HTMLInputElement | HTMLSelectElement;
        const style = getComputedStyle(field);
        const text =
          field instanceof HTMLSelectElement
            ? (field.selectedOptions[0]?.textContent ?? '')
            : field.value || field.placeholder;
        const context = document.createElement('canvas').getContext('2d');
        if (!context) return -1;
        context.font = style.font;
        const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
        return field.clientWidth - padding - context.measureText(text).width;
      });
      const what = await control.evaluate((e) => e.outerHTML.slice(0, 80));
      expect(spare, `filter ${what} is cut`).toBeGreaterThanOrEqual(0);
    }
    for (const value of await filters
      .locator('input:not([aria-hidden="true"]):not([type="checkbox"])')
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))) {
      if (/^\d/.test(value)) expect(value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    }
    // Date cells and the row actions lie wholly inside the table's visible box.
    const visible = await box.boundingBox();
    if (!visible) throw new Error('the case table is not displayed');
    for (const cell of await table.getByRole('row').nth(1).getByRole('cell').all()) {
      const cut = await cell.evaluate((e) => e.scrollWidth - e.clientWidth);
      expect(cut, `cell "${await cell.textContent()}" is cut`).toBeLessThanOrEqual(0);
    }
    for (const button of await table.getByRole('button').all()) {
      const b = await button.boundingBox();
      if (!b) throw new Error('a row action is not displayed');
      expect(b.x + b.width).toBeLessThanOrEqual(visible.x + visible.width + 0.5);
    }
    admin.expectClean();
  });
});

describe('the administrator (type 1)', () => {
  it('reads the case list of any company of the group and a detail, and handles nothing', async () => {
    const admin = await journey.actor('administrator');
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin', 'Admin#2026!');
    await page.waitForURL('**/admin/partner');
    await page
      .getByRole('navigation', { name: 'Menu samping' })
      .getByRole('link', { name: 'Laporan', exact: true })
      .click();
    await page.waitForURL('**/admin/case');
    await main.getByRole('heading', { level: 1, name: 'Laporan' }).waitFor();
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    await table.getByText('Silahkan Pilih Perusahaan', { exact: true }).waitFor();
    await main.getByLabel('Perusahaan').selectOption({ label: COMPANY_1 });
    await main
      .getByRole('group', { name: 'Filter laporan' })
      .getByLabel('Nomor Laporan')
      .fill(reports.admin.number);
    const row = table.getByRole('row').filter({ hasText: reports.admin.number });
    await row.waitFor();
    expect(await main.getByRole('button', { name: 'Ekspor Data' }).count()).toBe(0);
    expect(await table.getByRole('button', { name: 'Buat Catatan' }).count()).toBe(0);

    await row.getByRole('button', { name: 'Lihat' }).click();
    const header = detailHeader(page, reports.admin.number);
    await header.waitFor();
    expect(await main.getByRole('button', { name: 'Buat Catatan' }).count()).toBe(0);
    expect(await main.getByRole('button', { name: /^Unduh/ }).count()).toBe(0);
    expect(await page.content()).not.toContain('pelapor.e2e@example.com');
    expect(await page.content()).not.toContain('+6281234567890');
    await main.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
    await main.getByText('**********', { exact: true }).first().waitFor();
    expect(await page.content()).not.toContain(`(admin-perusahaan ${stamp})`);
    admin.expectClean();
  });
});
