/**
 * Notifikasi over a fake gateway: one radio group per kind with the three mail modes, the security
 * notice fixed at Segera with its note, the no-e-mail note, and Simpan sending every choice but the
 * locked one, then the gateway's message as a snackbar (and its problem when it refuses).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LOCKED_NOTICE_KINDS, NOTICE_KINDS, type NoticeKind } from '@wbs/shared/notices';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../test/render.tsx';
import { notify } from '../ui/toaster.tsx';
import NoticePreferencesPage from './NoticePreferencesPage.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

const PREFERENCES = {
  items: NOTICE_KINDS.map((kind) => ({
    kind,
    mail: LOCKED_NOTICE_KINDS.has(kind) || kind === 'new-report' ? 'immediate' : 'digest',
    locked: LOCKED_NOTICE_KINDS.has(kind),
  })),
  hasEmail: true,
};

function renderPage() {
  // Simpan asks nothing first: the page is tested without the confirm dialog.
  renderWithProviders(<NoticePreferencesPage />, { confirm: false });
}

afterEach(cleanUp);

const group = (name: string) => screen.getByRole('radiogroup', { name });
const radio = (groupName: string, mode: string) =>
  within(group(groupName)).getByRole('radio', { name: mode }) as HTMLInputElement;

describe('Notifikasi preferences', () => {
  it('one group per kind with the three modes; the security notice is fixed at Segera with its note', async () => {
    fakeGateway({ 'GET /notice-preferences': ok(PREFERENCES) });
    renderPage();
    await screen.findByRole('form', { name: 'Notifikasi' });
    expect(screen.getAllByRole('radiogroup')).toHaveLength(NOTICE_KINDS.length);
    expect(radio('Laporan baru', 'Segera').checked).toBe(true);
    expect(radio('Umpan balik terlambat', 'Ringkasan harian (07.00 WIB)').checked).toBe(true);
    expect(radio('Umpan balik terlambat', 'Tidak dikirim').checked).toBe(false);

    const locked = group('Masuk dari perangkat baru');
    const radios = within(locked).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.every((r) => r.disabled)).toBe(true);
    expect(radio('Masuk dari perangkat baru', 'Segera').checked).toBe(true);
    const note = document.getElementById(locked.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toBe('Notifikasi keamanan selalu dikirim segera.');
    // The account has an address: no note about the bell alone.
    expect(screen.queryByText(/belum memiliki alamat surel/)).toBeNull();
  });

  it('an account without an e-mail address is told only the bell shows notices', async () => {
    fakeGateway({ 'GET /notice-preferences': ok({ ...PREFERENCES, hasEmail: false }) });
    renderPage();
    expect(
      await screen.findByText(
        'Akun Anda belum memiliki alamat surel, sehingga notifikasi hanya tampil di lonceng dan tidak dikirim lewat surel.',
      ),
    ).toBeTruthy();
  });

  it("Simpan sends every choice but the locked kind's and shows the gateway's message", async () => {
    const calls = fakeGateway({
      'GET /notice-preferences': ok(PREFERENCES),
      'PUT /notice-preferences': ok({ message: 'Preferensi notifikasi disimpan' }),
    });
    renderPage();
    await screen.findByRole('form', { name: 'Notifikasi' });
    fireEvent.click(radio('Laporan baru', 'Tidak dikirim'));
    await waitFor(() => expect(radio('Laporan baru', 'Tidak dikirim').checked).toBe(true));
    fireEvent.click(radio('Pesan baru dari pelapor', 'Ringkasan harian (07.00 WIB)'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Simpan' })));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Preferensi notifikasi disimpan'));
    const put = calls.find((c) => c.method === 'PUT');
    const { items } = (put?.body ?? { items: [] }) as { items: { kind: string; mail: string }[] };
    expect(items).toHaveLength(NOTICE_KINDS.length - LOCKED_NOTICE_KINDS.size);
    expect(items.some((item) => LOCKED_NOTICE_KINDS.has(item.kind as NoticeKind))).toBe(false);
    expect(items).toContainEqual({ kind: 'new-report', mail: 'off' });
    expect(items).toContainEqual({ kind: 'reporter-message', mail: 'digest' });
    expect(items).toContainEqual({ kind: 'ack-due', mail: 'digest' });
    // Read again after the save.
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });

  it('a refused save shows the problem, as the other forms do', async () => {
    fakeGateway({
      'GET /notice-preferences': ok(PREFERENCES),
      'PUT /notice-preferences': () => ({
        status: 503,
        body: { type: 'x/store-unavailable', title: 'Layanan belum tersedia', detail: 'Coba lagi nanti' },
      }),
    });
    renderPage();
    await screen.findByRole('form', { name: 'Notifikasi' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Simpan' })));
    await waitFor(() => expect(notify.problem).toHaveBeenCalledTimes(1));
    expect(vi.mocked(notify.problem).mock.calls[0]?.[0]).toMatchObject({
      status: 503,
      messages: ['Coba lagi nanti'],
    });
    expect(notify.success).not.toHaveBeenCalled();
  });
});
