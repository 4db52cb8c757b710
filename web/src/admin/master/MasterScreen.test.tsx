/**
 * The master scaffold in happy-dom over a fake gateway: View cannot change or save anything, Ubah opens
 * Edit with no confirmation, a server field error lands under its field, and a record that cannot be
 * read says so with Kembali instead of spinning forever. (The browser journeys walk the same in Chromium.)
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeGateway, ok } from '../../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../../test/render.tsx';
import { CategoryPage } from '../CategoryPage.tsx';
import { PartnerPage } from '../OrganisationPages.tsx';

const PARTNER = {
  id: 7,
  code: 'PRT-007',
  name: 'Partner Tujuh',
  phone: '021',
  address: 'Jl. Tujuh',
  provinceId: 31,
  provinceName: 'DKI',
  cityId: 3171,
  cityName: 'Jakpus',
  username: 'p7',
  email: 'p7@x.co',
};

function renderScreen(node: ReactNode) {
  renderWithProviders(node);
}

afterEach(cleanUp);

const partnerRoutes = {
  'GET /partners?page=1&pageSize=10': ok({ items: [PARTNER], total: 1, page: 1, pageSize: 10 }),
  'GET /partners/7': ok(PARTNER),
  'GET /regions/provinces': ok({ items: [{ id: 31, name: 'DKI' }] }),
  'GET /regions/provinces/31/cities': ok({ items: [{ id: 3171, name: 'Jakpus' }] }),
};

describe('master scaffold', () => {
  it('View: nothing changes, nothing is saved; Ubah opens Edit without a confirmation', async () => {
    const calls = fakeGateway(partnerRoutes);
    renderScreen(<PartnerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Lihat' }));
    const view = await screen.findByRole('form', { name: 'Lihat Partner' });
    await waitFor(() => expect((screen.getByLabelText('Kota') as HTMLSelectElement).value).toBe('3171'));
    const province = screen.getByLabelText('Provinsi') as HTMLSelectElement;
    expect(province.disabled).toBe(true);
    expect((screen.getByLabelText('Nama') as HTMLInputElement).readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText('Nama'), { target: { value: 'Diubah' } });
    fireEvent.submit(view);
    expect(screen.queryByRole('button', { name: 'Simpan' })).toBeNull();
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Ubah' }));
    await screen.findByRole('form', { name: 'Edit Partner' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((screen.getByLabelText('Nama') as HTMLInputElement).value).toBe('Partner Tujuh');
    expect((screen.getByLabelText('Username') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText('Provinsi') as HTMLSelectElement).disabled).toBe(false);
  });

  it('a server field error appears under its field', async () => {
    fakeGateway({
      ...partnerRoutes,
      'PUT /partners/7': () => ({
        status: 400,
        body: {
          type: 'x/validation',
          title: 'Data yang dikirim tidak valid',
          errors: { address: 'Alamat ditolak server' },
        },
      }),
    });
    renderScreen(<PartnerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ubah' }));
    await screen.findByRole('form', { name: 'Edit Partner' });
    await waitFor(() =>
      expect((screen.getByLabelText('Nama') as HTMLInputElement).value).toBe('Partner Tujuh'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Simpan' }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 5_000 });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Simpan' })));
    expect(await screen.findByText('Alamat ditolak server')).toBeTruthy();
  });

  it('a record that cannot be read says so, with Kembali', async () => {
    fakeGateway({
      'GET /partners?page=1&pageSize=10': partnerRoutes['GET /partners?page=1&pageSize=10'],
    });
    renderScreen(<PartnerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Lihat' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Data Tidak Ditemukan');
    fireEvent.click(screen.getByRole('button', { name: 'Kembali' }));
    await screen.findByRole('button', { name: 'Tambah Partner' });
  });

  it('pages through a server-paged list', async () => {
    const calls = fakeGateway({
      'GET /partners?page=1&pageSize=10': ok({ items: [PARTNER], total: 25, page: 1, pageSize: 10 }),
      'GET /partners?page=2&pageSize=10': ok({
        items: [{ ...PARTNER, id: 8, name: 'Partner Delapan' }],
        total: 25,
      }),
    });
    renderScreen(<PartnerPage />);
    await screen.findByText('Halaman 1 dari 3');
    fireEvent.click(screen.getByRole('button', { name: 'Berikutnya' }));
    await screen.findByText('Partner Delapan');
    expect(screen.getByText('Halaman 2 dari 3')).toBeTruthy();
    expect(calls.some((c) => c.path === '/partners?page=2&pageSize=10')).toBe(true);
  });

  it('Kategori Laporan offers no Hapus', async () => {
    fakeGateway({
      'GET /case-categories': ok({ items: [{ id: 1, name: 'Fraud', groupId: null, groupName: null }] }),
      'GET /case-category-groups': ok({ items: [] }),
    });
    renderScreen(<CategoryPage />);
    await screen.findByRole('button', { name: 'Lihat' });
    expect(screen.queryByRole('button', { name: 'Hapus' })).toBeNull();
  });
});
