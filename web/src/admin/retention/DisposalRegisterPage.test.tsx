/**
 * Register Pemusnahan over a fake gateway: the waiting list (overdue ones said so) with its case link,
 * the destroyed list with who and when (a status the legacy could not name as a dash), Data Tidak Ditemukan when empty, paging; Periksa sekarang says
 * its counts and reads the register again; Tandai sudah dimusnahkan asks first (Batal sends nothing and
 * gives the focus back to the row's button), sends the optional Catatan, says so, reads again and puts
 * the focus on the heading; the server's field message stays in the dialog; a mark someone made
 * meanwhile (409) is said and the register read again.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, type Reply } from '../../test/fakeGateway.ts';
import { cleanUp, renderAt } from '../../test/render.tsx';
import { notify } from '../../ui/toaster.tsx';
import type { DisposalItem } from './calls.ts';
import DisposalRegisterPage from './DisposalRegisterPage.tsx';

vi.mock('../../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
}));

const WAITING: DisposalItem = {
  id: 7,
  companyId: 1,
  companyName: 'PT Kahuripan',
  caseId: 5,
  statusName: 'Ditutup',
  closedAt: '2025-10-20T09:30:00',
  dueAt: '2026-10-20',
  storePurgedAt: '2026-10-21T01:00:04',
  state: 'waiting',
  destroyedAt: null,
  destroyedByName: null,
  note: null,
};
const OVERDUE: DisposalItem = {
  ...WAITING,
  id: 8,
  companyId: 2,
  companyName: 'PDAM Tirta Pakuan',
  caseId: 12,
  statusName: 'Ditolak',
  dueAt: '2026-09-01',
  storePurgedAt: null,
  state: 'overdue',
};
const DESTROYED: DisposalItem = {
  ...WAITING,
  id: 3,
  caseId: 2,
  // The legacy's status table could not name it.
  statusName: '',
  state: 'destroyed',
  destroyedAt: '2026-11-02T14:05:00',
  destroyedByName: 'Administrator',
  note: 'Dihapus dari basis data WBS',
};

const WAITING_KEY = 'GET /disposals?state=waiting&page=1&size=25';
const DESTROYED_KEY = 'GET /disposals?state=destroyed&page=1&size=25';

const page = (
  items: unknown[],
  summary = { waiting: 2, overdue: 1, destroyed: 1 },
  total = items.length,
) => ({
  status: 200,
  body: { items, total, summary },
});

function renderRegister() {
  return renderAt('/admin/pemusnahan', <DisposalRegisterPage />);
}

const rowCells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .slice(0, 7)
    .map((c) => c.textContent);

afterEach(cleanUp);

describe('Register Pemusnahan', () => {
  it('lists the waiting cases by company and case id, overdue ones said so, with the counts', async () => {
    const calls = fakeGateway({ [WAITING_KEY]: () => page([WAITING, OVERDUE]) });
    const location = renderRegister();
    const table = await screen.findByRole('table', { name: 'Register Pemusnahan' });
    await within(table).findByText('PT Kahuripan');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Perusahaan',
      'ID Laporan',
      'Status',
      'Ditutup',
      'Jatuh tempo',
      'Data gateway dihapus',
      'Keadaan',
      'Aksi',
    ]);
    const rows = within(table).getAllByRole('row').slice(1) as HTMLElement[];
    expect(rows.map(rowCells)).toEqual([
      [
        'PT Kahuripan',
        '5',
        'Ditutup',
        '20/10/2025 09:30 WIB',
        '20/10/2026',
        '21/10/2026 01:00 WIB',
        'Menunggu',
      ],
      ['PDAM Tirta Pakuan', '12', 'Ditolak', '20/10/2025 09:30 WIB', '01/09/2026', 'Belum', 'Melewati batas'],
    ]);
    expect(screen.getByText('Menunggu: 2 (melewati batas: 1) · Sudah dimusnahkan: 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Menunggu' }).getAttribute('aria-pressed')).toBe('true');
    // No complaint number anywhere: the case is named by its id, opened in the case screen.
    expect(document.body.textContent).not.toMatch(/WBS-\d{8}/);
    fireEvent.click(within(table).getByRole('link', { name: 'Buka laporan 12' }));
    expect(location.history.at(-1)).toBe('/admin/case/12');
    expect(calls.map((c) => c.path)).toEqual(['/disposals?state=waiting&page=1&size=25']);
  });

  it('Sudah dimusnahkan: who marked it and when, the note, no action; an empty list says so', async () => {
    const calls = fakeGateway({
      [WAITING_KEY]: () => page([], { waiting: 0, overdue: 0, destroyed: 1 }),
      [DESTROYED_KEY]: () => page([DESTROYED], { waiting: 0, overdue: 0, destroyed: 1 }),
    });
    renderRegister();
    const table = await screen.findByRole('table', { name: 'Register Pemusnahan' });
    expect(await within(table).findByText('Data Tidak Ditemukan')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sudah dimusnahkan' }));
    await within(table).findByText('Dihapus dari basis data WBS', { exact: false });
    expect(screen.getByRole('button', { name: 'Sudah dimusnahkan' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getAllByRole('cell')[2]?.textContent).toBe('-');
    expect(within(row).getAllByRole('cell')[6]?.textContent).toBe(
      'Sudah dimusnahkan02/11/2026 14:05 WIB oleh AdministratorCatatan: Dihapus dari basis data WBS',
    );
    expect(within(table).queryByRole('columnheader', { name: 'Aksi' })).toBeNull();
    expect(within(table).queryByRole('button', { name: /^Tandai/ })).toBeNull();
    expect(calls.map((c) => c.path)).toEqual([
      '/disposals?state=waiting&page=1&size=25',
      '/disposals?state=destroyed&page=1&size=25',
    ]);
  });

  it('pages through a long list', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...WAITING, id: 100 + i, caseId: 100 + i }));
    const calls = fakeGateway({
      [WAITING_KEY]: () => page(many, { waiting: 27, overdue: 0, destroyed: 0 }, 27),
      'GET /disposals?state=waiting&page=2&size=25': () =>
        page([{ ...WAITING, id: 200, caseId: 200 }], { waiting: 27, overdue: 0, destroyed: 0 }, 27),
    });
    renderRegister();
    expect(await screen.findByText('Halaman 1 dari 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Berikutnya' }));
    expect(await screen.findByRole('link', { name: 'Buka laporan 200' })).toBeTruthy();
    expect(screen.getByText('Halaman 2 dari 2')).toBeTruthy();
    expect(calls.map((c) => c.path).at(-1)).toBe('/disposals?state=waiting&page=2&size=25');
  });

  it('Periksa sekarang runs the scan, says its counts and reads the register again', async () => {
    let items = [WAITING];
    const calls = fakeGateway({
      [WAITING_KEY]: () => page(items),
      'POST /disposals/scan': () => {
        items = [WAITING, OVERDUE];
        return { status: 200, body: { purged: 1, registered: 1 } };
      },
    });
    renderRegister();
    await screen.findByRole('link', { name: 'Buka laporan 5' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Periksa sekarang' })));
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith(
        'Pemeriksaan selesai: 1 laporan masuk register, data gateway 1 laporan dihapus.',
      ),
    );
    expect(await screen.findByRole('link', { name: 'Buka laporan 12' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/disposals/scan']);
  });

  it('a refused scan is shown as the app shows a problem', async () => {
    fakeGateway({
      [WAITING_KEY]: () => page([WAITING]),
      'POST /disposals/scan': () => ({
        status: 503,
        body: { type: 'x/busy', title: 'Layanan sedang sibuk', status: 503 },
      }),
    });
    renderRegister();
    await screen.findByRole('link', { name: 'Buka laporan 5' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Periksa sekarang' })));
    await waitFor(() => expect(notify.problem).toHaveBeenCalledTimes(1));
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('Tandai sudah dimusnahkan: Batal sends nothing, the focus back on the button; Tandai sends the note', async () => {
    let items = [WAITING, OVERDUE];
    const calls = fakeGateway({
      [WAITING_KEY]: () => page(items),
      'POST /disposals/8/destroyed': () => {
        items = [WAITING];
        return { status: 200, body: { message: 'Laporan ditandai sudah dimusnahkan' } };
      },
    });
    renderRegister();
    const mark = await screen.findByRole('button', {
      name: 'Tandai sudah dimusnahkan: laporan 12, PDAM Tirta Pakuan',
    });
    mark.focus();
    fireEvent.click(mark);
    let dialog = await screen.findByRole('alertdialog', { name: 'Tandai Sudah Dimusnahkan' });
    expect(within(dialog).getByText(/laporan 12 milik PDAM Tirta Pakuan sudah dimusnahkan/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Batal' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(mark));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(mark);
    dialog = await screen.findByRole('alertdialog', { name: 'Tandai Sudah Dimusnahkan' });
    const note = within(dialog).getByRole('textbox', { name: 'Catatan' });
    expect(note.getAttribute('maxlength')).toBe('500');
    fireEvent.change(note, { target: { value: '  Dihapus dari basis data WBS  ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Tandai' })));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Laporan ditandai sudah dimusnahkan'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Buka laporan 12' })).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Register Pemusnahan' })),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/disposals/8/destroyed', body: { note: 'Dihapus dari basis data WBS' } },
    ]);
  });

  it('without a Catatan the mark carries no note; a refused note stays under its field', async () => {
    const replies: Reply[] = [
      {
        status: 400,
        body: {
          type: 'x/validation',
          title: 'Data tidak valid',
          status: 400,
          errors: { note: 'Catatan hanya boleh berisi teks biasa' },
        },
      },
      { status: 200, body: { message: 'Laporan ditandai sudah dimusnahkan' } },
    ];
    const calls = fakeGateway({
      [WAITING_KEY]: () => page([WAITING]),
      'POST /disposals/7/destroyed': () => replies.shift() as Reply,
    });
    renderRegister();
    fireEvent.click(await screen.findByRole('button', { name: /^Tandai sudah dimusnahkan: laporan 5/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Tandai Sudah Dimusnahkan' });
    const note = within(dialog).getByRole('textbox', { name: 'Catatan' });
    fireEvent.change(note, { target: { value: 'a\u202Eb' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Tandai' })));
    expect(await within(dialog).findByText('Catatan hanya boleh berisi teks biasa')).toBeTruthy();
    expect(notify.problem).not.toHaveBeenCalled();
    fireEvent.change(note, { target: { value: '   ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Tandai' })));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Laporan ditandai sudah dimusnahkan'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ note: 'a\u202Eb' }, {}]);
  });

  it('a case marked meanwhile (409): the message is shown, the dialog closes, the register is read again', async () => {
    let items = [WAITING];
    const calls = fakeGateway({
      [WAITING_KEY]: () => page(items),
      'POST /disposals/7/destroyed': () => {
        items = [];
        return {
          status: 409,
          body: { type: 'x/conflict', title: 'Laporan ini sudah ditandai dimusnahkan', status: 409 },
        };
      },
    });
    renderRegister();
    fireEvent.click(await screen.findByRole('button', { name: /^Tandai sudah dimusnahkan: laporan 5/ }));
    const dialog = await screen.findByRole('alertdialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Tandai' })));
    await waitFor(() => expect(notify.problem).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByText('Data Tidak Ditemukan')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });
});
