/**
 * Peta Laporan and Statistik over a fake gateway, without their canvases (happy-dom draws none: the
 * map and the bar chart are stubbed): small areas show "<5" and open nothing, a province from 5
 * opens its cities with links to the filtered case list, the case list reads that area and sends it
 * in its search body, and Statistik shows the gateway's figures and asks it for the exports.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaseListPage } from '../admin/cases/CaseListPage.tsx';
import type { User } from '../api/types.ts';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderAt } from '../test/render.tsx';
import MapsPage from './MapsPage.tsx';
import StatisticsPage from './StatisticsPage.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));
vi.mock('./ProvinceMap.tsx', () => ({ default: () => <div data-testid="map" /> }));
vi.mock('../dashboard/BarChart.tsx', () => ({ default: () => <div data-testid="bars" /> }));
const saved: string[] = [];
vi.mock('../ui/saveFile.ts', () => ({ saveFile: (_file: unknown, name: string) => saved.push(name) }));

afterEach(cleanUp);

const companyAdmin: User = {
  id: 9,
  username: 'admin.kahuripan',
  email: null,
  displayName: 'Perumda Air Minum Tirta Kahuripan',
  userTypeId: 2,
  userTypeName: 'Admin Perusahaan',
  role: 1,
  partnerId: null,
  companyId: 1,
  caseLineId: null,
  whistleblowerId: null,
  staffId: null,
};
const partner: User = { ...companyAdmin, username: 'holding', userTypeId: 3, partnerId: 1, companyId: null };

const covered = {
  from: '2026-05-01',
  to: '2026-05-31',
  companyId: null,
  companies: [{ companyId: 1, companyName: 'Perumda Air Minum Tirta Kahuripan' }],
};
const provincesReply = {
  ...covered,
  total: 19,
  provinces: [
    { provinceId: 31, provinceName: 'DKI Jakarta', total: null, suppressed: true },
    { provinceId: 32, provinceName: 'Jawa Barat', total: 12, suppressed: false },
    { provinceId: 33, provinceName: 'Jawa Tengah', total: 0, suppressed: false },
  ],
  unlocated: 4,
  unread: 2,
};
const citiesReply = {
  ...covered,
  provinceId: 32,
  provinceName: 'Jawa Barat',
  total: 12,
  cities: [
    { cityId: 3201, cityName: 'Kabupaten Bogor', total: 8, suppressed: false },
    { cityId: 3273, cityName: 'Kota Bandung', total: null, suppressed: true },
  ],
  unlocated: 1,
};

const routes = {
  'GET /maps/provinces': ok(provincesReply),
  'GET /maps/provinces/32/cities': ok(citiesReply),
  'GET /companies/options': ok({
    items: [
      { id: 1, name: 'Perumda Air Minum Tirta Kahuripan' },
      { id: 2, name: 'PDAM Tirta Pakuan' },
    ],
  }),
};

describe('Peta Laporan', () => {
  it('shows small areas as "<5" without drill-down, the unlocated count and the unread note', async () => {
    fakeGateway(routes, { query: false });
    renderAt('/admin/maps', <MapsPage user={companyAdmin} />);
    const table = await screen.findByRole('table', { name: 'Jumlah laporan per provinsi' });
    const jakarta = within(table).getByRole('rowheader', { name: 'DKI Jakarta' }).closest('tr');
    expect(jakarta?.textContent).toContain('<5');
    expect(within(table).queryByRole('button', { name: /DKI Jakarta/ })).toBeNull();
    expect(within(table).getByRole('button', { name: 'Jawa Barat' })).toBeTruthy();
    expect(screen.getByText(/2 laporan belum terbaca lokasinya/)).toBeTruthy();
    const unlocated = within(table).getByRole('link', { name: 'Tanpa lokasi' });
    expect(unlocated.getAttribute('href')).toMatch(/^\/admin\/case\?unlocated=1&from=/);
    expect(screen.getByText(/CC BY 4.0/)).toBeTruthy();
  });

  it("opens a province's cities, with links to the case list of each counted area", async () => {
    const calls = fakeGateway(routes, { query: false });
    renderAt('/admin/maps', <MapsPage user={companyAdmin} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Jawa Barat' }));
    const table = await screen.findByRole('table', {
      name: 'Jumlah laporan per kota dan kabupaten di Jawa Barat',
    });
    expect(calls.some((c) => c.path === '/maps/provinces/32/cities')).toBe(true);
    const bogor = within(table).getByRole('link', { name: 'Kabupaten Bogor' });
    expect(bogor.getAttribute('href')).toMatch(/^\/admin\/case\?province=32&city=3201&from=/);
    expect(within(table).queryByRole('link', { name: /Kota Bandung/ })).toBeNull();
    expect(
      within(table).getByRole('rowheader', { name: 'Kota Bandung' }).closest('tr')?.textContent,
    ).toContain('<5');
    expect(screen.getByRole('link', { name: 'Buka daftar laporan Jawa Barat' }).getAttribute('href')).toMatch(
      /^\/admin\/case\?province=32&from=/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Kembali ke peta' }));
    expect(await screen.findByRole('table', { name: 'Jumlah laporan per provinsi' })).toBeTruthy();
  });

  it('keeps the period and the province in the address: a drill-down is one history entry', async () => {
    fakeGateway(routes, { query: false });
    const location = renderAt('/admin/maps', <MapsPage user={companyAdmin} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Jawa Barat' }));
    await screen.findByRole('table', { name: 'Jumlah laporan per kota dan kabupaten di Jawa Barat' });
    const drilled = location.history.at(-1) ?? '';
    expect(drilled).toMatch(/^\/admin\/maps\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&province=32$/);
    cleanUp();
    // The same address opened afresh (a reload, a copied link) shows the same province.
    fakeGateway(routes, { query: false });
    renderAt(drilled, <MapsPage user={companyAdmin} />);
    expect(
      await screen.findByRole('table', { name: 'Jumlah laporan per kota dan kabupaten di Jawa Barat' }),
    ).toBeTruthy();
  });

  it("asks a partner's figures for all its companies, then for the one chosen", async () => {
    const calls = fakeGateway(routes, {
      otherwise: (key) =>
        key.startsWith('GET /maps/provinces?') ? { status: 200, body: provincesReply } : { status: 404 },
    });
    localStorage.clear();
    renderAt('/admin/maps', <MapsPage user={partner} />);
    await screen.findByRole('table', { name: 'Jumlah laporan per provinsi' });
    expect(calls.find((c) => c.path.startsWith('/maps/provinces'))?.path).not.toContain('companyId');
    fireEvent.change(screen.getByRole('combobox', { name: 'Perusahaan' }), { target: { value: '2' } });
    await waitFor(() => expect(calls.some((c) => c.path.includes('companyId=2'))).toBe(true));
  });
});

describe('Laporan filtered by an area', () => {
  it('sends the area in the search body, shows it by name and clears it', async () => {
    const calls = fakeGateway(
      {
        'POST /cases/search': ok({ items: [], total: 0, page: 1, pageSize: 10 }),
        'GET /regions/provinces': ok({ items: [{ id: 32, name: 'Jawa Barat' }] }),
        'GET /regions/provinces/32/cities': ok({ items: [{ id: 3201, name: 'Kabupaten Bogor' }] }),
      },
      { query: false, otherwise: { status: 200, body: { items: [] } } },
    );
    renderAt(
      '/admin/case?province=32&city=3201&from=2026-05-01&to=2026-05-31',
      <CaseListPage user={companyAdmin} />,
    );
    expect(await screen.findByText(/Jawa Barat › Kabupaten Bogor/)).toBeTruthy();
    const search = calls.find((c) => c.path === '/cases/search');
    expect(search?.body).toMatchObject({
      provinceId: 32,
      cityId: 3201,
      from: '2026-05-01',
      to: '2026-05-31',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Hapus filter wilayah' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/cases/search').at(-1)?.body as Record<string, unknown>;
      expect(last.provinceId).toBeUndefined();
      expect(last.cityId).toBeUndefined();
    });
    expect(screen.queryByText(/Wilayah:/)).toBeNull();
  });

  it('sends the unlocated filter', async () => {
    const calls = fakeGateway(
      { 'POST /cases/search': ok({ items: [], total: 0, page: 1, pageSize: 10 }) },
      { query: false, otherwise: { status: 200, body: { items: [] } } },
    );
    renderAt('/admin/case?unlocated=1', <CaseListPage user={companyAdmin} />);
    expect(await screen.findByText(/Tanpa lokasi/)).toBeTruthy();
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/cases/search')?.body).toMatchObject({ unlocated: true }),
    );
  });
});

const figures = {
  filed: 20,
  closed: 8,
  acknowledge: { measured: 10, medianDays: 2, p90Days: 6.5, withinDeadline: 0.9 },
  answer: { measured: 5, medianDays: 11, p90Days: null, withinDeadline: null },
  anonymous: { anonymous: 5, identified: 15, unknown: 0 },
  returned: 4,
};
const statisticsReply = {
  ...covered,
  overall: figures,
  months: [{ month: '2026-05', filed: 20, closed: 8 }],
  channels: [{ id: 1, name: 'Situs web', total: 20 }],
  outcomes: [{ id: 5, name: 'Selesai', total: 8 }],
  companies: [{ companyId: 1, companyName: 'Perumda Air Minum Tirta Kahuripan', figures }],
};

describe('Statistik', () => {
  it('shows the figures under the dashboard tabs and exports XLSX and CSV through the gateway', async () => {
    saved.length = 0;
    const calls = fakeGateway(
      {
        'GET /statistics': ok(statisticsReply),
      },
      {
        query: false,
        otherwise: (key) => (key === 'GET /statistics/export' ? { status: 200, body: 'x' } : { status: 404 }),
      },
    );
    renderAt('/admin/statistik', <StatisticsPage user={companyAdmin} />);
    expect(await screen.findByText('Laporan masuk')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Bagian dashboard' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Statistik' }).getAttribute('aria-current')).toBe('page');
    const figuresBox = screen.getByRole('region', { name: 'Angka utama' });
    expect(figuresBox.textContent).toContain('90%');
    expect(figuresBox.textContent).toContain('25%');
    expect(figuresBox.textContent).toContain('6,5 hari');
    fireEvent.click(screen.getByRole('button', { name: 'Ekspor CSV' }));
    await waitFor(() => expect(saved.length).toBe(1));
    expect(saved[0]).toMatch(
      /^Statistik - Perumda Air Minum Tirta Kahuripan - \d\d-\d\d-\d{4} sd \d\d-\d\d-\d{4}\.csv$/,
    );
    expect(calls.some((c) => c.path === '/statistics/export')).toBe(true);
  });

  it('is a screen of its own for the administrator, with the per-company table', async () => {
    fakeGateway(
      { 'GET /statistics': ok(statisticsReply), 'GET /companies/options': ok({ items: [] }) },
      { query: false },
    );
    renderAt(
      '/admin/statistik',
      <StatisticsPage user={{ ...companyAdmin, userTypeId: 1, companyId: null }} />,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Statistik' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Bagian dashboard' })).toBeNull();
    expect(await screen.findByRole('table', { name: 'Angka utama per perusahaan' })).toBeTruthy();
  });
});
