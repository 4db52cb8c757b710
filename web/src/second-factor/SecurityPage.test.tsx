/**
 * Keamanan Akun over a fake gateway: the status, the authenticator app, the passkeys (name, created,
 * last used) and the recovery codes left; removing asks first and shows the gateway's refusal of the
 * last factor; a passkey is renamed; a new set of recovery codes is shown once.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../api/client.ts';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../test/render.tsx';
import { notify } from '../ui/toaster.tsx';
import SecurityPage from './SecurityPage.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
}));

const STATE = {
  status: 'done',
  required: true,
  methods: ['totp', 'passkey'],
  recoveryCodesLeft: 2,
  stepUpUntil: null,
};
const FACTORS = {
  secondFactor: STATE,
  totp: { createdAt: '2026-11-20T09:30:00' },
  passkeys: [
    {
      id: '6f1c1a52-4c1e-4d0e-9a34-0d6a1f1b2c3d',
      name: 'Laptop kantor',
      createdAt: '2026-11-21T10:00:00',
      lastUsedAt: '2026-11-25T08:05:00',
    },
  ],
};
const CODES = ['abcde-fghij', 'bcdef-ghijk', 'cdefg-hijkl'];

function renderPage() {
  renderWithProviders(<SecurityPage />);
}

afterEach(cleanUp);

async function answer(action: 'Hapus' | 'Oke' | 'Tidak') {
  const dialog = await screen.findByRole('alertdialog', {}, { timeout: 5_000 });
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: action })));
}

describe('Keamanan Akun', () => {
  it('shows the status, the authenticator app, the passkeys and the recovery codes left', async () => {
    fakeGateway({ 'GET /account/second-factors': ok(FACTORS) });
    renderPage();
    await screen.findByText('Verifikasi dua langkah aktif');
    expect(screen.getByText('Jenis akun Anda wajib memakai verifikasi dua langkah.')).toBeTruthy();
    expect(screen.getByText('Aktif sejak 20/11/2026 09:30 WIB')).toBeTruthy();
    const row = within(screen.getByRole('table', { name: 'Passkey' })).getAllByRole('row')[1];
    expect(
      within(row as HTMLElement)
        .getAllByRole('cell')
        .slice(0, 3)
        .map((c) => c.textContent),
    ).toEqual(['Laptop kantor', '21/11/2026 10:00 WIB', '25/11/2026 08:05 WIB']);
    expect(screen.getByText('Sisa kode pemulihan: 2')).toBeTruthy();
    expect(screen.getByText('Kode pemulihan Anda hampir habis. Buat kode pemulihan baru.')).toBeTruthy();
  });

  it('removing asks first; the last required factor is refused with the gateway message', async () => {
    const calls = fakeGateway({
      'GET /account/second-factors': ok(FACTORS),
      'DELETE /account/second-factors/totp': () => ({
        status: 409,
        body: {
          type: 'https://wbs.example/problems/last-factor-required',
          title: 'Faktor terakhir tidak dapat dihapus karena akun Anda wajib memakai verifikasi dua langkah',
          status: 409,
        },
      }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Hapus Aplikasi Autentikator' }));
    await answer('Tidak');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Hapus Aplikasi Autentikator' }));
    await answer('Hapus');
    await waitFor(() => expect(notify.problem).toHaveBeenCalledTimes(1));
    const error = vi.mocked(notify.problem).mock.calls[0]?.[0] as ApiError;
    expect(error.type).toBe('last-factor-required');
    expect(error.messages).toEqual([
      'Faktor terakhir tidak dapat dihapus karena akun Anda wajib memakai verifikasi dua langkah',
    ]);
  });

  it('removes and renames a passkey', async () => {
    let factors = FACTORS;
    const calls = fakeGateway({
      'GET /account/second-factors': () => ({ status: 200, body: factors }),
      [`PATCH /account/second-factors/passkeys/${FACTORS.passkeys[0]?.id}`]: (body: { name: string }) => {
        factors = { ...factors, passkeys: factors.passkeys.map((p) => ({ ...p, name: body.name })) };
        return { status: 200, body: factors.passkeys[0] };
      },
      [`DELETE /account/second-factors/passkeys/${FACTORS.passkeys[0]?.id}`]: () => {
        factors = { ...factors, passkeys: [], secondFactor: { ...STATE, methods: ['totp'] } };
        return { status: 200, body: { secondFactor: factors.secondFactor } };
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Ubah Nama Laptop kantor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ubah Nama Passkey' });
    fireEvent.change(within(dialog).getByLabelText('Nama passkey'), { target: { value: 'Kunci USB' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Simpan' }));
    await screen.findByRole('cell', { name: 'Kunci USB' });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Kunci USB' });
    expect(notify.success).toHaveBeenCalledWith('Nama passkey berhasil diubah');

    fireEvent.click(screen.getByRole('button', { name: 'Hapus Kunci USB' }));
    const confirmText = await screen.findByText('Anda yakin ingin menghapus passkey "Kunci USB" ?');
    expect(confirmText).toBeTruthy();
    await answer('Hapus');
    await screen.findByText('Belum ada passkey.');
    expect(notify.success).toHaveBeenCalledWith('Passkey berhasil dihapus');
  });

  it('a new set of recovery codes is shown once', async () => {
    fakeGateway({
      'GET /account/second-factors': ok(FACTORS),
      'POST /account/second-factors/recovery-codes': ok({
        secondFactor: { ...STATE, recoveryCodesLeft: 10 },
        recoveryCodes: CODES,
      }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Buat kode pemulihan baru' }));
    await answer('Oke');
    const list = await screen.findByRole('list', { name: 'Daftar kode pemulihan' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    const close = screen.getByRole('button', { name: 'Tutup' }) as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Saya sudah menyimpan kode pemulihan' }));
    await waitFor(() => expect(close.disabled).toBe(false));
    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Daftar kode pemulihan' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Buat kode pemulihan baru' })).toBeTruthy();
  });
});
