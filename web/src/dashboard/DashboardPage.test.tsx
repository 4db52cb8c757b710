/**
 * The Dashboard screen rendered without its canvas: loading, empty and "choose a company" states,
 * the period filter and the remembered company. Charts with bars are not rendered here (happy-dom
 * has no canvas); their data shaping is covered in model.test.ts.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { FIELD_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../api/types.ts';
import { system } from '../theme.ts';
import { rememberedCompany } from './companyChoice.ts';
import { DashboardPage } from './DashboardPage.tsx';
import { defaultRange } from './model.ts';

vi.mock('../ui/toaster.tsx', () => ({ notify: { info: vi.fn(), problem: vi.fn() } }));

const baseUser: User = {
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
const partnerUser: User = { ...baseUser, username: 'holding', userTypeId: 3, partnerId: 1, companyId: null };

const emptySummary = (companyId: number, from: string, to: string) => ({
  companyId,
  companyName: companyId === 2 ? 'PDAM Tirta Pakuan' : 'Perumda Air Minum Tirta Kahuripan',
  from,
  to,
  total: 0,
  byStatus: [{ id: 1, name: 'Baru', total: 0 }],
  byCategory: [{ id: 1, name: 'Korupsi', total: 0 }],
});

let requests: string[] = [];

function renderPage(user: User) {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      requests.push(`${url.pathname}${url.search}`);
      const q = url.searchParams;
      if (url.pathname.endsWith('/companies/options')) {
        return Response.json({
          items: [
            { id: 1, name: 'Perumda Air Minum Tirta Kahuripan' },
            { id: 2, name: 'PDAM Tirta Pakuan' },
          ],
        });
      }
      if (url.pathname.endsWith('/dashboard/open-cases')) {
        return Response.json({
          companyId: Number(q.get('companyId') ?? 1),
          total: 0,
          statuses: [],
          categories: [],
        });
      }
      if (url.pathname.endsWith('/dashboard/overdue')) {
        return Response.json({
          today: '2026-11-23',
          companies: [
            { companyId: 1, companyName: 'Perumda Air Minum Tirta Kahuripan', overdue: 3, complete: true },
            ...(user.userTypeId === 3
              ? [{ companyId: 2, companyName: 'PDAM Tirta Pakuan', overdue: 0, complete: true }]
              : []),
          ],
        });
      }
      if (url.pathname.endsWith('/dashboard/companies')) {
        return Response.json({ from: q.get('from'), to: q.get('to'), total: 0, items: [] });
      }
      if (url.pathname.endsWith('/dashboard/summary')) {
        return Response.json(
          emptySummary(Number(q.get('companyId') ?? 1), q.get('from') ?? '', q.get('to') ?? ''),
        );
      }
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/problem+json' } });
    }),
  );
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map() }}>
        <DashboardPage user={user} />
      </SWRConfig>
    </ChakraProvider>,
  );
}

const settle = () => act(async () => new Promise((r) => setTimeout(r, 20)));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Dashboard screen', () => {
  it('company view: open cases of the own company, with a clear text when there are none', async () => {
    renderPage(baseUser);
    await settle();
    expect(screen.getByRole('tab', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Laporan' })).toBeTruthy();
    expect(screen.queryByLabelText('Pilih Perusahaan')).toBeNull();
    expect(requests).toContain('/api/v1/dashboard/open-cases');
    expect(screen.getByText('Tidak ada laporan yang belum selesai.')).toBeTruthy();
    // The overdue tile: the gateway's count, a link to the list filtered to overdue reports.
    const tile = screen.getByRole('region', { name: 'Pengaduan Melewati Tenggat' });
    const link = within(tile).getByRole('link', { name: 'Pengaduan Melewati Tenggat: 3' });
    expect(link.getAttribute('href')).toBe('/admin/case?overdue=1&from=2000-01-01&to=2026-11-23');
  });

  it('partner view: the overdue tile lists every company of the partner', async () => {
    renderPage(partnerUser);
    await settle();
    const tile = screen.getByRole('region', { name: 'Pengaduan Melewati Tenggat' });
    const rows = within(tile).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Perumda Air Minum Tirta Kahuripan3',
      'PDAM Tirta Pakuan0',
    ]);
    expect(rememberedCompany('holding')).toBe(0);
    fireEvent.click(within(tile).getByRole('link', { name: '3' }));
    // The list opens on the company whose overdue reports were chosen.
    expect(rememberedCompany('holding')).toBe(1);
  });

  it('company view, Laporan tab: the current month, Total Pengaduan and the empty-range text', async () => {
    renderPage(baseUser);
    await settle();
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Laporan' }));
    });
    await settle();
    const { from, to } = defaultRange();
    expect(requests).toContain(`/api/v1/dashboard/summary?from=${from}&to=${to}`);
    expect(requests.some((r) => r.startsWith('/api/v1/dashboard/companies'))).toBe(false);
    const total = screen.getByRole('region', { name: 'Total Pengaduan' });
    expect(within(total).getByText('0')).toBeTruthy();
    expect(screen.getAllByText('Tidak ada pengaduan pada periode ini.')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Terapkan' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Batal' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ekspor' })).toBeTruthy();
  });

  it('period filter: refuses a wrong range, applies a right one, Batal returns to the period in force', async () => {
    renderPage(baseUser);
    await settle();
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Laporan' }));
    });
    await settle();
    const fromInput = screen.getByLabelText('Dari tanggal') as HTMLInputElement;
    const toInput = screen.getByLabelText('Sampai tanggal') as HTMLInputElement;
    const { from } = defaultRange();
    expect(fromInput.value).toBe(`${from.slice(8, 10)}/${from.slice(5, 7)}/${from.slice(0, 4)}`);

    fireEvent.change(fromInput, { target: { value: '10062026' } });
    fireEvent.change(toInput, { target: { value: '01/06/2026' } });
    expect(fromInput.value).toBe('10/06/2026');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Terapkan' }));
    });
    expect(screen.getByText(FIELD_MESSAGES.dateRangeInvalid)).toBeTruthy();
    expect(requests.some((r) => r.includes('from=2026-06-10'))).toBe(false);

    fireEvent.change(fromInput, { target: { value: '01/05/2026' } });
    fireEvent.change(toInput, { target: { value: '15/05/2026' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Terapkan' }));
    });
    await settle();
    expect(requests).toContain('/api/v1/dashboard/summary?from=2026-05-01&to=2026-05-15');
    expect(screen.getAllByText('Periode 01/05/2026 – 15/05/2026').length).toBeGreaterThan(0);

    fireEvent.change(toInput, { target: { value: '20/05/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Batal' }));
    expect(toInput.value).toBe('15/05/2026');
  });

  it('partner view: asks for a company until one is chosen, then remembers it per user name', async () => {
    renderPage(partnerUser);
    await settle();
    expect(screen.getAllByText(UI_MESSAGES.choosePartnerCompany).length).toBeGreaterThan(0);
    expect(requests.some((r) => r.startsWith('/api/v1/dashboard/open-cases'))).toBe(false);

    const select = screen.getByLabelText('Pilih Perusahaan') as HTMLSelectElement;
    await act(async () => {
      fireEvent.change(select, { target: { value: '2' } });
    });
    await settle();
    expect(requests).toContain('/api/v1/dashboard/open-cases?companyId=2');
    expect(localStorage.getItem('wbs.company.holding')).toBe('2');

    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Laporan' }));
    });
    await settle();
    const { from, to } = defaultRange();
    expect(requests).toContain(`/api/v1/dashboard/companies?from=${from}&to=${to}`);
    expect(requests).toContain(`/api/v1/dashboard/summary?from=${from}&to=${to}&companyId=2`);
    expect(screen.getByText(/Total Pengaduan — PDAM Tirta Pakuan/)).toBeTruthy();
  });

  it('partner view: starts from the remembered company, and forgets one the partner no longer holds', async () => {
    localStorage.setItem('wbs.company.holding', '2');
    renderPage(partnerUser);
    await settle();
    expect(requests).toContain('/api/v1/dashboard/open-cases?companyId=2');
    cleanup();

    localStorage.setItem('wbs.company.holding', '7');
    renderPage(partnerUser);
    await settle();
    expect(localStorage.getItem('wbs.company.holding')).toBeNull();
    expect(requests.some((r) => r.includes('companyId=7'))).toBe(false);
    expect(screen.getAllByText(UI_MESSAGES.choosePartnerCompany).length).toBeGreaterThan(0);
  });
});
