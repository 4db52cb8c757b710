/**
 * Peta Laporan and Statistik in the browser, over the screens' default period (this month, which
 * holds legacy-sim's map demo: Jawa Timur 7 reports over two cities, Bali 2, 4 without location):
 * - the company admin's map and its table give each province the gateway's figure, a small one as
 *   "<5" without drill-down; a province from 5 opens its cities (in the address: a reload keeps it,
 *   Back returns to the map), and an area's link opens the case
 *   list filtered by it, whose total is the map's count for that area; Ekspor PNG names the period;
 * - Statistik shows the gateway's figures and its XLSX, CSV and PNG files arrive with the period in
 *   their names;
 * - an analyst (type 4) gets no company choice and only the figures of its own scope; another
 *   company asked for by hand is 404.
 */
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isoToDisplay } from '../../../shared/src/dates.ts';
import {
  type ApiSession,
  apiGet,
  apiSignIn,
  jakartaMonth,
  settledMap,
  signIn,
  useJourney,
} from './support.ts';

const journey = useJourney('insights');

/** The screens' default period. */
const { from: FROM, to: TO } = jakartaMonth();
const PERIOD = `from=${FROM}&to=${TO}`;
/** The period as the screens write it into file names: '01-05-2026 sd 31-05-2026'. */
const PERIOD_IN_NAME = `${isoToDisplay(FROM).replaceAll('/', '-')} sd ${isoToDisplay(TO).replaceAll('/', '-')}`;

type Area = { total: number | null; suppressed: boolean };
type Provinces = {
  total: number;
  unread: number;
  provinces: (Area & { provinceId: number; provinceName: string })[];
  unlocated: number;
  companies: { companyId: number; companyName: string }[];
};
type Cities = { total: number; cities: (Area & { cityId: number; cityName: string })[]; unlocated: number };
type Statistics = { overall: { filed: number; closed: number } };

const counted = (a: Area) => !a.suppressed && (a.total ?? 0) >= 5;

/** Puts the screen's period filter on the journey's period (typed, as a user would). */
async function applyPeriod(page: Page) {
  const form = page.getByRole('main').getByRole('form', { name: 'Filter periode' });
  await form.getByLabel('Dari tanggal', { exact: true }).fill(isoToDisplay(FROM));
  await form.getByLabel('Sampai tanggal', { exact: true }).fill(isoToDisplay(TO));
  await form.getByRole('button', { name: 'Terapkan' }).click();
}

async function downloadBy(page: Page, button: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('main').getByRole('button', { name: button }).click(),
  ]);
  return download;
}

/** Waits for the key-figure tile `label` to show `value` (the tile reads label, value, note). */
async function tileShows(page: Page, label: string, value: number) {
  await page
    .getByRole('main')
    .getByRole('region', { name: 'Angka utama' })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) })
    .filter({ hasText: new RegExp(`^${label}${value}(?!\\d)`) })
    .waitFor();
}

/** The figure in the second cell of the row headed `name` of `table`. */
async function figureOf(table: ReturnType<Page['getByRole']>, name: string) {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name, exact: true }) });
  return (await row.getByRole('cell').last().textContent())?.trim();
}

describe('Peta Laporan', () => {
  it('shows the figures with small areas suppressed, drills into a province and opens its cases', async () => {
    const session = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    const map = await settledMap<Provinces>(PERIOD, session);
    expect(map.unread).toBe(0);
    const big = map.provinces.find(counted);
    const small = map.provinces.find((p) => p.suppressed);
    expect(big, 'the demo data has a province with at least 5 reports').toBeDefined();
    expect(small, 'the demo data has a province with 1 to 4 reports').toBeDefined();
    if (!big || !small) return;

    const admin = await journey.actor('admin-kahuripan');
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page.getByRole('navigation').getByRole('link', { name: 'Peta Laporan' }).first().click();
    await main.getByRole('heading', { level: 1, name: 'Peta Laporan' }).waitFor();

    const table = main.getByRole('table', { name: 'Jumlah laporan per provinsi' });
    await main.getByText(`Total laporan: ${map.total}`).waitFor();
    expect(await figureOf(table, small.provinceName)).toBe('<5');
    expect(await table.getByRole('button', { name: new RegExp(small.provinceName) }).count()).toBe(0);
    expect(await figureOf(table, big.provinceName)).toBe(String(big.total));
    expect(await figureOf(table, 'Tanpa lokasi')).toBe(String(map.unlocated));
    await main.getByText(/CC BY 4\.0/).waitFor();
    // The map is drawn (a canvas) and exported with the period in the file name.
    await main
      .getByRole('img', { name: /^Peta provinsi Indonesia/ })
      .locator('canvas')
      .waitFor();
    const png = await downloadBy(page, 'Ekspor PNG');
    expect(png.suggestedFilename()).toContain(PERIOD_IN_NAME);
    expect(png.suggestedFilename()).toMatch(/^Peta Laporan - .*\.png$/);

    // Drill-down into the province.
    const cities = await apiGet<Cities>(`/maps/provinces/${big.provinceId}/cities?${PERIOD}`, session);
    await table.getByRole('button', { name: big.provinceName, exact: true }).click();
    const cityTable = main.getByRole('table', {
      name: `Jumlah laporan per kota dan kabupaten di ${big.provinceName}`,
    });
    await cityTable.waitFor();
    for (const city of cities.cities) {
      expect(await figureOf(cityTable, city.cityName)).toBe(city.suppressed ? '<5' : String(city.total));
    }
    // The province is in the address: a reload keeps it, the browser's Back returns to the map.
    expect(new URL(page.url()).searchParams.get('province')).toBe(String(big.provinceId));
    await page.reload();
    await cityTable.waitFor();
    await page.goBack();
    await table.waitFor();
    expect(await cityTable.count()).toBe(0);
    await page.goForward();
    await cityTable.waitFor();

    // An area's link opens the case list filtered by it: exactly its reports.
    const city = cities.cities.find(counted);
    const [link, expected] = city
      ? [cityTable.getByRole('link', { name: city.cityName, exact: true }), city.total]
      : [main.getByRole('link', { name: `Buka daftar laporan ${big.provinceName}` }), big.total];
    await link.click();
    await page.waitForURL((url) => url.pathname === '/admin/case');
    await main
      .getByRole('status')
      .filter({ hasText: `Wilayah: ${big.provinceName}` })
      .waitFor();
    await main.getByText(`Total ${expected}`, { exact: true }).waitFor();
    // Cleared, the list is the company's whole period again.
    await main.getByRole('button', { name: 'Hapus filter wilayah' }).click();
    expect(await main.getByText(/^Wilayah:/).count()).toBe(0);
    admin.expectClean();
  });
});

describe('Statistik', () => {
  it('shows the figures and exports XLSX, CSV and PNG named with the period', async () => {
    const session = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    await settledMap(PERIOD, session);
    const stats = await apiGet<Statistics>(`/statistics?${PERIOD}`, session);
    const admin = await journey.actor('admin-kahuripan-stats');
    const { page } = admin;
    const main = page.getByRole('main');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await main
      .getByRole('navigation', { name: 'Bagian dashboard' })
      .getByRole('link', { name: 'Statistik' })
      .click();
    await page.waitForURL('**/admin/statistik');
    await applyPeriod(page);
    await tileShows(page, 'Laporan masuk', stats.overall.filed);
    await tileShows(page, 'Laporan selesai', stats.overall.closed);

    const dates = [FROM, TO];
    const named = (name: string) =>
      name.includes(PERIOD_IN_NAME) ||
      dates.every((d) => name.includes(d) || name.includes(isoToDisplay(d).replaceAll('/', '-')));
    const xlsx = await downloadBy(page, 'Ekspor XLSX');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(named(xlsx.suggestedFilename()), xlsx.suggestedFilename()).toBe(true);
    const csv = await downloadBy(page, 'Ekspor CSV');
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    expect(named(csv.suggestedFilename()), csv.suggestedFilename()).toBe(true);
    await main.locator('canvas').first().waitFor();
    const png = await downloadBy(page, 'Ekspor PNG');
    expect(png.suggestedFilename()).toMatch(/^Statistik - .*\.png$/);
    expect(png.suggestedFilename()).toContain(PERIOD_IN_NAME);
    admin.expectClean();
  });
});

describe('an analyst (type 4)', () => {
  it('sees only its own scope on both screens', async () => {
    const own: ApiSession = await apiSignIn('analis.direksi', 'Analis#2026!');
    const map = await settledMap<Provinces>(PERIOD, own);
    const stats = await apiGet<Statistics>(`/statistics?${PERIOD}`, own);
    expect(map.companies.map((c) => c.companyId)).toEqual([1]);
    // Another company, asked for by hand: as if it did not exist.
    await expect(apiGet(`/maps/provinces?${PERIOD}&companyId=2`, own)).rejects.toThrow(/HTTP 404/);

    const analyst = await journey.actor('analis-direksi');
    const { page } = analyst;
    const main = page.getByRole('main');
    await signIn(page, 'analis.direksi', 'Analis#2026!');
    await page.goto('/admin/maps');
    await applyPeriod(page);
    await main.getByText(`Total laporan: ${map.total}`).waitFor();
    expect(await main.getByRole('combobox', { name: 'Perusahaan' }).count()).toBe(0);

    await page.goto('/admin/statistik');
    await applyPeriod(page);
    await tileShows(page, 'Laporan masuk', stats.overall.filed);
    expect(await main.getByRole('combobox', { name: 'Perusahaan' }).count()).toBe(0);
    analyst.expectClean();
  });
});
