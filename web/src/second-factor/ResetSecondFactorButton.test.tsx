/**
 * Reset Faktor Kedua on the master View screens: asked first, then the account's reset route, and
 * the gateway's message as the snackbar; never offered while editing.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartnerPage } from '../admin/OrganisationPages.tsx';
import { AnalystPage } from '../admin/StaffPages.tsx';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../test/render.tsx';
import { notify } from '../ui/toaster.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
}));

const MESSAGE = 'Faktor kedua pengguna telah direset; pengguna mendaftarkannya lagi saat masuk';
const PARTNER = {
  id: 7,
  code: 'P7',
  name: 'Partner Tujuh',
  phone: null,
  address: null,
  username: 'p7',
  email: null,
};
const ANALYST = {
  id: 31,
  fullName: 'Analis Satu',
  username: 'analis.satu',
  email: 'a@x.co',
  roleId: 2,
  roleName: 'Staff',
  caseLineId: 1,
  caseLineName: 'Direksi',
  initialPassword: false,
  password: null,
};

function renderScreen(node: ReactNode) {
  renderWithProviders(node);
}

afterEach(cleanUp);

async function answer(action: 'Oke' | 'Tidak') {
  const dialog = await screen.findByRole('alertdialog', { name: 'Reset Faktor Kedua' }, { timeout: 5_000 });
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: action })));
}

describe('Reset Faktor Kedua', () => {
  it('a partner (type 1): asked first, then reset, with the gateway message', async () => {
    const calls = fakeGateway({
      'GET /partners?page=1&pageSize=10': ok({ items: [PARTNER], total: 1 }),
      'GET /partners/7': ok(PARTNER),
      'GET /regions/provinces': ok({ items: [] }),
      'POST /partners/7/second-factor-reset': ok({ message: MESSAGE }),
    });
    renderScreen(<PartnerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Lihat' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reset Faktor Kedua' }));
    await answer('Tidak');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Faktor Kedua' }));
    await answer('Oke');
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(MESSAGE));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/partners/7/second-factor-reset',
    ]);
    // Editing offers no reset.
    fireEvent.click(screen.getByRole('button', { name: 'Ubah' }));
    await screen.findByRole('form', { name: 'Edit Partner' });
    expect(screen.queryByRole('button', { name: 'Reset Faktor Kedua' })).toBeNull();
  });

  it("an analyst (type 2) goes to the analysts' route", async () => {
    const calls = fakeGateway({
      'GET /analysts?page=1&pageSize=10': ok({ items: [ANALYST], total: 1 }),
      'GET /analysts/31': ok(ANALYST),
      'GET /user-roles': ok({ items: [] }),
      'GET /case-lines': ok({ items: [] }),
      'POST /analysts/31/second-factor-reset': ok({ message: MESSAGE }),
    });
    renderScreen(<AnalystPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Lihat' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reset Faktor Kedua' }));
    await answer('Oke');
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(MESSAGE));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/analysts/31/second-factor-reset',
    ]);
  });
});
