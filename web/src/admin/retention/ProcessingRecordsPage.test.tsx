/**
 * Catatan Pemrosesan Data over a fake gateway: the controller and when the records were generated,
 * one titled section per activity with its terms and lists; Cetak opens the browser's print; a failed
 * read says Data Tidak Ditemukan and offers nothing to print.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, ok } from '../../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../../test/render.tsx';
import ProcessingRecordsPage from './ProcessingRecordsPage.tsx';

vi.mock('../../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
}));

const RECORDS = {
  generatedAt: '2026-11-26T10:15:00',
  controller: 'Grup Holding (administrator sistem WBS)',
  activities: [
    {
      name: 'Penerimaan laporan pelanggaran',
      purpose: 'Menerima dan menangani laporan dugaan pelanggaran.',
      subjects: 'Pelapor, terlapor, saksi',
      dataCategories: ['Identitas pelapor (jika tidak anonim)', 'Isi laporan dan lampiran'],
      storedIn: 'Sistem WBS (legacy)',
      access: ['Admin Perusahaan', 'Analis'],
      retention: '12 bulan sejak status akhir (bawaan grup); PDAM Tirta Pakuan 24 bulan',
      legalBasis: 'Kewajiban hukum (UU 27/2022 Pasal 20 ayat 2 huruf c)',
    },
    {
      name: 'Pesan antara pelapor dan penanganan',
      purpose: 'Komunikasi lanjutan tentang laporan.',
      subjects: 'Pelapor',
      dataCategories: ['Isi pesan'],
      storedIn: 'Basis data gateway (PGlite), terenkripsi AES-256-GCM',
      access: [],
      retention: 'Dihapus otomatis saat masa retensi laporan berakhir',
      legalBasis: 'Kewajiban hukum',
    },
  ],
};

afterEach(cleanUp);

describe('Catatan Pemrosesan Data', () => {
  it('shows each activity as a titled section of terms, and prints', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    fakeGateway({ 'GET /processing-records': ok(RECORDS) });
    renderWithProviders(<ProcessingRecordsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Catatan Pemrosesan Data' })).toBeTruthy();
    const first = await screen.findByRole('region', { name: '1. Penerimaan laporan pelanggaran' });
    expect(screen.getByText('Grup Holding (administrator sistem WBS)')).toBeTruthy();
    expect(screen.getByText('26/11/2026 10:15 WIB')).toBeTruthy();

    const terms = within(first)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual([
      'Tujuan',
      'Subjek data',
      'Kategori data',
      'Tempat penyimpanan',
      'Yang dapat mengakses',
      'Masa retensi',
      'Dasar pemrosesan',
    ]);
    expect(
      within(first)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([
      'Identitas pelapor (jika tidak anonim)',
      'Isi laporan dan lampiran',
      'Admin Perusahaan',
      'Analis',
    ]);
    expect(
      within(first).getByText('12 bulan sejak status akhir (bawaan grup); PDAM Tirta Pakuan 24 bulan'),
    ).toBeTruthy();

    const second = screen.getByRole('region', { name: '2. Pesan antara pelapor dan penanganan' });
    // Nobody listed: a dash, not an empty list.
    expect(within(second).getAllByRole('listitem')).toHaveLength(1);
    expect(within(second).getByText('-')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cetak' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('a failed read says Data Tidak Ditemukan and offers nothing to print', async () => {
    fakeGateway({}, { otherwise: { status: 503, body: { type: 'x/busy', title: 'Layanan sedang sibuk' } } });
    renderWithProviders(<ProcessingRecordsPage />);
    expect(await screen.findByText('Data Tidak Ditemukan')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Cetak' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
