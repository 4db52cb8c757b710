/**
 * Journey 4: staff of another company cannot reach a company-1 case. In the UI the company-2 admin
 * (`admin.pakuan`) filtering by the company-1 number finds nothing, while its own company's report
 * is found the same way; opening the company-1 case by its address (/admin/case/{id}) shows no detail
 * and returns to the list with 'Data tidak ditemukan', while its own case opens that way. Through
 * the API, with the browser's own session cookie, the company-1 case, its attachment and its log
 * form all answer 404 (as if they did not exist).
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { isoToDisplay } from '../../../shared/src/dates.ts';
import {
  apiGet,
  apiSignIn,
  type CaseListItem,
  findCase,
  jakartaDay,
  signIn,
  snackbar,
  useJourney,
} from './support.ts';

const journey = useJourney('scope');

/** Demo cases of legacy-sim: WBS-10000001 belongs to company 1, WBS-10000003 to company 2. */
const OTHER_COMPANY_CASE = 'WBS-10000001';
const OWN_COMPANY_CASE = 'WBS-10000003';

let foreign: CaseListItem;
let foreignAttachmentId: number;
let own: CaseListItem;

beforeAll(async () => {
  // Set-up through the API as the case's own company admin.
  const kahuripan = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
  foreign = await findCase(kahuripan, OTHER_COMPANY_CASE);
  const detail = await apiGet<{ attachments: { id: number }[] }>(`/cases/${foreign.id}`, kahuripan);
  const attachment = detail.attachments[0];
  if (!attachment) throw new Error(`${OTHER_COMPANY_CASE} has no attachment`);
  foreignAttachmentId = attachment.id;
  own = await findCase(await apiSignIn('admin.pakuan', 'Perusahaan#2026!'), OWN_COMPANY_CASE);
  expect(own.companyId).not.toBe(foreign.companyId);
});

describe('another company cannot open a company-1 case', () => {
  it('the case list of the company-2 admin does not show it', async () => {
    const admin = await journey.actor('admin-pakuan');
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin.pakuan', 'Perusahaan#2026!');
    await page.goto('/admin/case');
    const filters = main.getByRole('group', { name: 'Filter laporan' });
    const table = main.getByRole('table', { name: 'Daftar laporan' });
    // The demo cases are a few days old: widen the date range past the start of the month.
    // Typed as the list shows dates, DD/MM/YYYY.
    await filters.getByLabel('Dari tanggal', { exact: true }).fill(isoToDisplay(jakartaDay(60)));

    // Its own company's report is found by number…
    await filters.getByLabel('Nomor Laporan').fill(OWN_COMPANY_CASE);
    await table.getByRole('row').filter({ hasText: OWN_COMPANY_CASE }).waitFor();
    // …the other company's is not.
    await filters.getByLabel('Nomor Laporan').fill(OTHER_COMPANY_CASE);
    await table.getByText('Data Tidak Ditemukan', { exact: true }).waitFor();
    expect(await table.getByText(OTHER_COMPANY_CASE).count()).toBe(0);
    expect(await table.getByRole('button', { name: 'Lihat' }).count()).toBe(0);
    admin.expectClean();
  });

  it('opening the case by its address shows nothing of it', async () => {
    const admin = await journey.actor('admin-pakuan-url');
    const { page } = admin;
    admin.allowHttpError(404, /^\/api\/v1\/cases\/\d+$/, "the other company's case, opened by URL");
    await signIn(page, 'admin.pakuan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');

    // Control: its own case opens by address, with a working Kembali.
    await page.goto(`/admin/case/${own.id}`);
    const heading = page.getByRole('heading', { name: /Detail Laporan/ });
    await heading.waitFor();
    await page.getByText(OWN_COMPANY_CASE).first().waitFor();
    await page.getByRole('button', { name: 'Kembali' }).click();
    await page.waitForURL(/\/admin\/case$/);

    await page.goto(`/admin/case/${foreign.id}`);
    await snackbar(page, 'Data tidak ditemukan').waitFor();
    await page.waitForURL(/\/admin\/case$/);
    expect(await heading.count()).toBe(0);
    expect(await page.getByText(OTHER_COMPANY_CASE).count()).toBe(0);
    admin.expectClean();
  });

  it('the API answers 404 to the same browser session for the case, its file and its log form', async () => {
    const admin = await journey.actor('admin-pakuan-api');
    const { page } = admin;
    await signIn(page, 'admin.pakuan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');

    // Control: its own case opens.
    const ownCase = await page.request.get(`/api/v1/cases/${own.id}`);
    expect(ownCase.status()).toBe(200);

    const detail = await page.request.get(`/api/v1/cases/${foreign.id}`);
    expect(detail.status(), await detail.text()).toBe(404);
    expect(await detail.text()).not.toContain(OTHER_COMPANY_CASE);
    expect((await detail.json()).type).toMatch(/not-found$/);

    const file = await page.request.get(`/api/v1/cases/${foreign.id}/attachments/${foreignAttachmentId}`);
    expect(file.status()).toBe(404);

    const log = await page.request.post(`/api/v1/cases/${foreign.id}/logs`, {
      headers: { origin: new URL(page.url()).origin },
      multipart: { statusId: '11', caseLineId: '1', message: 'Catatan dari perusahaan lain' },
    });
    expect(log.status(), await log.text()).toBe(404);
    admin.expectClean();
  });
});
