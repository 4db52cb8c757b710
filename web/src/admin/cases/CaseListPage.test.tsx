/**
 * Laporan over a fake gateway: the filters go in the search body (never the URL), a changed filter
 * asks again, and Ekspor Data sends the same filters without paging and saves the file
 * under the name the gateway gave it.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { User } from '../../api/types.ts';
import { system } from '../../theme.ts';
import { CaseListPage } from './CaseListPage.tsx';

vi.mock('../../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

const admin: User = {
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

const ROW = {
  id: 42,
  number: 'WBS-10000042',
  createdAt: '2026-05-03T08:15:00',
  companyId: 1,
  companyName: 'Perumda Air Minum Tirta Kahuripan',
  categoryId: 1,
  categoryName: 'Korupsi',
  caseLineId: null,
  caseLineName: null,
  status: { id: 1, name: 'Baru', order: 1 },
  handling: null,
  unreadFromReporter: null,
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[] = [];

function renderList(path = '/') {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = await request.text();
      calls.push({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        body: text ? JSON.parse(text) : null,
      });
      if (url.pathname === '/api/v1/cases/search')
        return Response.json({ items: [ROW], total: 1, page: 1, pageSize: 10 });
      if (url.pathname === '/api/v1/cases/export') {
        return new Response('xlsx', {
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': "attachment; filename*=UTF-8''AllCases%20-%20Mei.xlsx",
          },
        });
      }
      return Response.json({ items: [] });
    }),
  );
  const { hook, searchHook } = memoryLocation({ path });
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <Router hook={hook} searchHook={searchHook}>
          <CaseListPage user={admin} />
        </Router>
      </SWRConfig>
    </ChakraProvider>,
  );
}

const settle = () => act(async () => new Promise((r) => setTimeout(r, 20)));
const searches = () => calls.filter((c) => c.path === '/api/v1/cases/search');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('case list', () => {
  it('searches with the filters in the body, never in a URL, and again when one changes', async () => {
    renderList();
    expect(await screen.findByText('WBS-10000042')).toBeTruthy();
    expect(searches()[0]?.body).toMatchObject({ page: 1, pageSize: 10, sort: '-createdAt' });
    fireEvent.change(screen.getByLabelText('Nomor Laporan'), { target: { value: ' WBS-10000042 ' } });
    await settle();
    expect(searches().at(-1)?.body).toMatchObject({ number: 'WBS-10000042', page: 1 });
    expect(calls.every((c) => !c.path.includes('WBS-'))).toBe(true);
  });

  it("Ekspor Data: the filters without paging, saved under the gateway's file name", async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:case-export');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    renderList();
    await screen.findByText('WBS-10000042');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ekspor Data' }));
    });
    await settle();
    const exported = calls.find((c) => c.path === '/api/v1/cases/export');
    expect(exported?.method).toBe('POST');
    expect(exported?.body).not.toHaveProperty('page');
    expect(exported?.body).not.toHaveProperty('sort');
    expect(exported?.body).toHaveProperty('from');
    expect(saved).toEqual(['AllCases - Mei.xlsx']);
  });

  it('Ekspor Data from an overdue list of an area: sends neither filter and says so under it', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:case-export');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    renderList('/?overdue=1&province=35');
    await screen.findByText('WBS-10000042');
    expect(searches()[0]?.body).toMatchObject({ overdue: true, provinceId: 35 });
    const note =
      'Filter terlambat dan wilayah tidak berlaku untuk Ekspor Data: file berisi semua laporan yang sesuai dengan filter lainnya';
    expect(screen.getByText(note)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ekspor Data' }).getAttribute('aria-describedby')).toBe(
      screen.getByText(note).id,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ekspor Data' }));
    });
    await settle();
    const exported = calls.find((c) => c.path === '/api/v1/cases/export');
    expect(exported?.body).not.toHaveProperty('overdue');
    expect(exported?.body).not.toHaveProperty('provinceId');
  });

  it('Ekspor Data without overdue or area filters: no note', async () => {
    renderList();
    await screen.findByText('WBS-10000042');
    expect(screen.queryByText(/tidak berlaku untuk Ekspor Data/)).toBeNull();
  });
});
