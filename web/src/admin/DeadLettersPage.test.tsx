/**
 * Surel Gagal Terkirim over a fake gateway: each mail by its kind in plain words (an unknown queue by
 * its own name) and since when in WIB; Kirim ulang asks first, then sends it back, says so and reads
 * the list again; Tidak sends nothing.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../test/render.tsx';
import { notify } from '../ui/toaster.tsx';
import DeadLettersPage from './DeadLettersPage.tsx';
import { mailQueueLabel } from './notices.ts';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

const MAIL = {
  id: '6f1c2a4e-0b7d-4c1e-9a53-2d8e5b7f9c10',
  queue: 'notice-mail',
  createdAt: '2026-05-03T08:15:00',
};
const OTHER = {
  id: '0c9e7d4b-3a2f-4e8d-b1c6-5f7a9e2d4b83',
  queue: 'archive-sync',
  createdAt: '2026-05-04T21:05:00',
};

function renderPage() {
  renderWithProviders(<DeadLettersPage />);
}

afterEach(cleanUp);

describe('Surel Gagal Terkirim', () => {
  it('names each queue in plain words (others as they are) and since when', async () => {
    fakeGateway({ 'GET /mail/dead-letters': () => ({ status: 200, body: { items: [MAIL, OTHER] } }) });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Surel Gagal Terkirim' });
    await within(table).findByText('Notifikasi petugas');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 2)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Notifikasi petugas', '03/05/2026 08:15 WIB'],
      ['archive-sync', '04/05/2026 21:05 WIB'],
    ]);
    expect(mailQueueLabel('notice-digest')).toBe('Ringkasan harian');
    expect(mailQueueLabel('reporter-notice')).toBe('Pemberitahuan pelapor');
    expect(mailQueueLabel('reporter-confirmation')).toBe('Konfirmasi e-mail pelapor');
    expect(mailQueueLabel('constructor')).toBe('constructor');
  });

  it('Kirim ulang: asks, sends the mail back, says so and reads the list again; Tidak sends nothing', async () => {
    let items = [MAIL, OTHER];
    const calls = fakeGateway({
      'GET /mail/dead-letters': () => ({ status: 200, body: { items } }),
      [`POST /mail/dead-letters/${MAIL.id}/retry`]: () => {
        items = [OTHER];
        return { status: 200, body: { message: 'Surel dikirim ulang' } };
      },
    });
    renderPage();
    const retry = await screen.findByRole('button', {
      name: 'Kirim ulang Notifikasi petugas 03/05/2026 08:15 WIB',
    });

    fireEvent.click(retry);
    let dialog = await screen.findByRole('alertdialog', {}, { timeout: 5_000 });
    expect(within(dialog).getByText('Anda yakin ingin mengirim ulang surel ini ?')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Tidak' })));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(retry);
    dialog = await screen.findByRole('alertdialog', {}, { timeout: 5_000 });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Oke' })));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Surel dikirim ulang'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/mail/dead-letters/${MAIL.id}/retry`,
    ]);
    await waitFor(() => expect(screen.queryByText('Notifikasi petugas')).toBeNull());
    expect(screen.getByText('archive-sync')).toBeTruthy();
  });

  it('an empty list says there is nothing to send again', async () => {
    fakeGateway({ 'GET /mail/dead-letters': () => ({ status: 200, body: { items: [] } }) });
    renderPage();
    expect(await screen.findByText('Tidak ada surel yang gagal terkirim')).toBeTruthy();
  });
});
