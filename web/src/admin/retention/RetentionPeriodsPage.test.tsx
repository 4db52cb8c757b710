/**
 * Retensi Data over a fake gateway: each company's period and where it comes from; Ubah opens the
 * field with the focus in it, a refused value is shown under the field, a saved one is said and the
 * table read again with the focus back on Ubah; Kembalikan ke bawaan only for a company's own period.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../../test/fakeGateway.ts';
import { cleanUp, renderWithProviders } from '../../test/render.tsx';
import { notify } from '../../ui/toaster.tsx';
import RetentionPeriodsPage from './RetentionPeriodsPage.tsx';

vi.mock('../../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
}));

const KAHURIPAN = { companyId: 1, companyName: 'PT Kahuripan', months: 12, own: false };
const PAKUAN = { companyId: 2, companyName: 'PDAM Tirta Pakuan', months: 24, own: true };

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .slice(0, 3)
    .map((c) => c.textContent);

afterEach(cleanUp);

describe('Retensi Data', () => {
  it('lists each company with its months and source, the group default in the introduction', async () => {
    fakeGateway({
      'GET /retention-periods': () => ({
        status: 200,
        body: { defaultMonths: 12, companies: [KAHURIPAN, PAKUAN] },
      }),
    });
    renderWithProviders(<RetentionPeriodsPage />);
    const table = await screen.findByRole('table', { name: 'Retensi Data' });
    await within(table).findByText('PT Kahuripan');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cellsOf)).toEqual([
      ['PT Kahuripan', '12', 'Bawaan grup'],
      ['PDAM Tirta Pakuan', '24', 'Khusus perusahaan'],
    ]);
    expect(screen.getByText(/Bawaan grup: 12 bulan\./)).toBeTruthy();
    expect(
      within(rows[0] as HTMLElement).queryByRole('button', { name: /^Kembalikan ke bawaan/ }),
    ).toBeNull();
    expect(
      within(rows[1] as HTMLElement).getByRole('button', { name: 'Kembalikan ke bawaan PDAM Tirta Pakuan' }),
    ).toBeTruthy();
  });

  it('Ubah: a refused value under its field, a saved one said and read again, the focus back on Ubah', async () => {
    let companies = [KAHURIPAN, PAKUAN];
    const calls = fakeGateway({
      'GET /retention-periods': () => ({ status: 200, body: { defaultMonths: 12, companies } }),
      'PUT /retention-periods/1': (body: { months: number }) => {
        if (body.months > 120) {
          return {
            status: 400,
            body: {
              type: 'x/validation',
              title: 'Data tidak valid',
              status: 400,
              errors: { months: 'Maksimal 120 bulan' },
            },
          };
        }
        companies = [{ ...KAHURIPAN, months: body.months, own: true }, PAKUAN];
        return { status: 200, body: { message: 'Masa retensi berhasil disimpan' } };
      },
    });
    renderWithProviders(<RetentionPeriodsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ubah PT Kahuripan' }));
    const field = screen.getByRole('spinbutton', { name: 'Masa retensi (bulan) PT Kahuripan' });
    await waitFor(() => expect(document.activeElement).toBe(field));

    fireEvent.change(field, { target: { value: '121' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Simpan' })));
    expect(await screen.findByText('Maksimal 120 bulan')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(notify.problem).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: '18' } });
    expect(screen.queryByText('Maksimal 120 bulan')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Simpan' })));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Masa retensi berhasil disimpan'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { months: 121 },
      { months: 18 },
    ]);
    const table = screen.getByRole('table', { name: 'Retensi Data' });
    await waitFor(() =>
      expect(cellsOf(within(table).getAllByRole('row')[1] as HTMLElement)).toEqual([
        'PT Kahuripan',
        '18',
        'Khusus perusahaan',
      ]),
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ubah PT Kahuripan' })),
    );
  });

  it('Batal sends nothing; Kembalikan ke bawaan deletes the own period and says so', async () => {
    let companies = [KAHURIPAN, PAKUAN];
    const calls = fakeGateway({
      'GET /retention-periods': () => ({ status: 200, body: { defaultMonths: 12, companies } }),
      'DELETE /retention-periods/2': () => {
        companies = [KAHURIPAN, { ...PAKUAN, months: 12, own: false }];
        return { status: 200, body: { message: 'Masa retensi kembali mengikuti bawaan grup' } };
      },
    });
    renderWithProviders(<RetentionPeriodsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ubah PDAM Tirta Pakuan' }));
    fireEvent.click(screen.getByRole('button', { name: 'Batal' }));
    expect(screen.queryByRole('spinbutton')).toBeNull();

    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Kembalikan ke bawaan PDAM Tirta Pakuan' })),
    );
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith('Masa retensi kembali mengikuti bawaan grup'),
    );
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Kembalikan ke bawaan PDAM Tirta Pakuan' })).toBeNull(),
    );
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /retention-periods/2',
    ]);
  });

  it('a failed read shows Data Tidak Ditemukan in the table', async () => {
    fakeGateway({}, { otherwise: { status: 503, body: { type: 'x/busy', title: 'Layanan sedang sibuk' } } });
    renderWithProviders(<RetentionPeriodsPage />);
    const table = await screen.findByRole('table', { name: 'Retensi Data' });
    expect(await within(table).findByText('Data Tidak Ditemukan')).toBeTruthy();
  });
});
