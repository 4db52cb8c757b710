/**
 * The bell over a fake gateway: its name says how many notices are unread, the list shows each kind's
 * name, company and time with the unread ones marked, Muat lagi asks for the older page, a row marks
 * its notice read and opens its case, Tandai semua dibaca clears the count, and a gateway that cannot
 * answer leaves the bell in place with a short note instead of a list.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { fakeGateway, ok, type Reply, type Routes } from '../test/fakeGateway.ts';
import { cleanUp, renderAt } from '../test/render.tsx';
import { notify } from '../ui/toaster.tsx';
import { BELL_REFRESH_MS, NoticeBell } from './NoticeBell.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

const minutesAgo = (minutes: number) => wibWallTime(Date.now() - minutes * 60_000);

const NEW_REPORT = {
  id: 40,
  kind: 'new-report',
  companyId: 1,
  companyName: 'Perumda Air Minum Tirta Kahuripan',
  caseId: 42,
  createdAt: minutesAgo(5),
  read: false,
};
const MESSAGE = {
  id: 39,
  kind: 'reporter-message',
  companyId: 1,
  companyName: 'Perumda Air Minum Tirta Kahuripan',
  caseId: 41,
  createdAt: minutesAgo(180),
  read: true,
};
const DEVICE = {
  id: 12,
  kind: 'new-device',
  companyId: null,
  companyName: null,
  caseId: null,
  createdAt: '2026-05-03T08:15:00',
  read: false,
};

/** A gateway that is busy for every call its routes do not name (the bell's failure is a refusal). */
const BUSY: Reply = {
  status: 503,
  body: { type: 'x/busy', title: 'Layanan sedang sibuk', detail: 'Coba lagi' },
};
const busyGateway = (routes: Routes) => fakeGateway(routes, { otherwise: BUSY });

/** The bell by its name; while the panel is open the page behind it is hidden from the tree (modal). */
const bellNamed = (name: string) => screen.findByRole('button', { name, hidden: true });

function renderBell() {
  return renderAt(
    '/admin/dashboard',
    <Route path="/admin" nest>
      <NoticeBell />
    </Route>,
    // As the app's own: a failed load is reported as a snackbar unless the hook says otherwise.
    { loading: false, confirm: false, swr: { onError: (error) => notify.problem(error) } },
  );
}

afterEach(cleanUp);

describe('the bell', () => {
  it('names the unread count, lists the notices newest first and loads the older page', async () => {
    const calls = busyGateway({
      'GET /notices': ok({ items: [NEW_REPORT, MESSAGE], unread: 3, more: true }),
      'GET /notices?before=39': ok({ items: [DEVICE], unread: 3, more: false }),
    });
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifikasi, 3 belum dibaca' });
    expect(bell.textContent).toContain('3');
    fireEvent.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifikasi' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Belum dibaca: Laporan baruPerumda Air Minum Tirta Kahuripan5 menit lalu',
      'Pesan baru dari pelaporPerumda Air Minum Tirta Kahuripan3 jam lalu',
    ]);
    expect(within(panel).getByText('Laporan baru').closest('p')?.textContent).toContain('Belum dibaca');

    fireEvent.click(within(panel).getByRole('button', { name: 'Muat lagi' }));
    await within(panel).findByText('Masuk dari perangkat baru');
    expect(calls.some((c) => c.path === '/notices?before=39')).toBe(true);
    expect(within(panel).getByText('03/05/2026 08:15 WIB')).toBeTruthy();
    // The last page has no more below it.
    expect(within(panel).queryByRole('button', { name: 'Muat lagi' })).toBeNull();
    const link = within(panel).getByRole('link', { name: 'Atur pengiriman surel notifikasi' });
    expect(link.getAttribute('href')).toBe('/admin/notifikasi');
  });

  it('a row marks its notice read and opens its case; one without a case is only marked read', async () => {
    let unread = 2;
    const calls = busyGateway({
      'GET /notices': ok({ items: [NEW_REPORT, DEVICE], unread, more: false }),
      'POST /notices/read': (body) => {
        unread -= (body as { ids: number[] }).ids.length;
        return { status: 200, body: { unread } };
      },
    });
    const location = renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifikasi, 2 belum dibaca' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifikasi' });

    fireEvent.click(within(panel).getByRole('button', { name: /Masuk dari perangkat baru/ }));
    await bellNamed('Notifikasi, 1 belum dibaca');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ ids: [12] }]);
    // Read and about no case: nothing to open any more.
    expect(within(panel).queryByRole('button', { name: /Masuk dari perangkat baru/ })).toBeNull();
    expect(location.history.at(-1)).toBe('/admin/dashboard');

    fireEvent.click(within(panel).getByRole('button', { name: /Laporan baru/ }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/case/42'));
    await bellNamed('Notifikasi');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { ids: [12] },
      { ids: [40] },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Tandai semua dibaca clears the count; with nothing left it is disabled', async () => {
    const calls = busyGateway({
      'GET /notices': ok({ items: [NEW_REPORT, MESSAGE], unread: 1, more: false }),
      'POST /notices/read': ok({ unread: 0 }),
    });
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifikasi, 1 belum dibaca' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifikasi' });
    expect(within(panel).getByText('1 belum dibaca')).toBeTruthy();
    const markAll = within(panel).getByRole('button', { name: 'Tandai semua dibaca' });
    await act(async () => fireEvent.click(markAll));
    await bellNamed('Notifikasi');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ all: true });
    expect((markAll as HTMLButtonElement).disabled).toBe(true);
    expect(within(panel).queryByText(/Belum dibaca:/)).toBeNull();
    expect(within(panel).getByText('Semua notifikasi sudah dibaca')).toBeTruthy();
  });

  it('asks again every minute and when the window gets focus back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let unread = 1;
      const calls = busyGateway({
        'GET /notices': () => ({ status: 200, body: { items: [NEW_REPORT], unread, more: false } }),
      });
      renderBell();
      await bellNamed('Notifikasi, 1 belum dibaca');
      const asked = () => calls.filter((c) => c.path === '/notices').length;
      expect(asked()).toBe(1);
      unread = 4;
      await act(async () => vi.advanceTimersByTimeAsync(BELL_REFRESH_MS));
      await bellNamed('Notifikasi, 4 belum dibaca');
      expect(asked()).toBe(2);
      unread = 5;
      await act(async () => {
        window.dispatchEvent(new Event('focus'));
      });
      await bellNamed('Notifikasi, 5 belum dibaca');
      expect(asked()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an empty list says so', async () => {
    busyGateway({ 'GET /notices': ok({ items: [], unread: 0, more: false }) });
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifikasi' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifikasi' });
    expect(await within(panel).findByText('Belum ada notifikasi')).toBeTruthy();
  });

  it('a gateway that cannot answer leaves the bell, without a snackbar, and the list says it could not load', async () => {
    const calls = busyGateway({});
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifikasi' });
    await waitFor(() => expect(calls.some((c) => c.path === '/notices')).toBe(true));
    fireEvent.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifikasi' });
    expect(await within(panel).findByText('Notifikasi belum dapat dimuat.')).toBeTruthy();
    expect(notify.problem).not.toHaveBeenCalled();
  });
});
