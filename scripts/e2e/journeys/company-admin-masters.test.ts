/**
 * Type 2 (company admin) through its master screens: Analis (Tambah Analis, initial password shown
 * once, Lihat read-only, Ubah by mouse / Enter / Space without a confirmation, Edit with username and
 * e-mail locked, Akses Level, the new analyst's first sign-in, Reset Password in Edit, Hapus) and
 * Kategori Laporan (Tambah, Lihat read-only, Ubah, Simpan).
 */
import { describe, expect, it } from 'vitest';
import {
  confirmDialog,
  expectReadOnly,
  masterForm,
  openMenu,
  pressUbah,
  row,
  walkStaffScreen,
} from './master.ts';
import { signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('company-admin-masters');
const stamp = Date.now().toString(36).slice(-5);

describe('type 2: Analis and Kategori Laporan', () => {
  it('walks both screens; the new analyst signs in with the password shown once', async () => {
    const admin = await journey.actor('company-admin');
    const { page } = admin;
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');

    await walkStaffScreen(
      page,
      {
        menu: 'Analis',
        path: '/admin/supportagent',
        add: 'Tambah Analis',
        titles: { add: 'Analis Baru', view: 'Lihat Staff', edit: 'Edit Analis' },
        saved: 'Analis berhasil disimpan',
        changed: 'Analis berhasil diubah',
        removed: 'Analis berhasil dihapus',
        remove: { title: 'Hapus Analis', message: 'Anda yakin ingin menghapus analis ini ?' },
        line: 'Jalur SPI',
        lockedInEdit: [],
        resetIn: 'edit',
      },
      { fullName: `Analis Uji ${stamp}`, username: `analis.${stamp}` },
      (name) => journey.actor(name),
    );

    await openMenu(page, 'Kategori Laporan', '/admin/categorycase');
    await page.getByRole('button', { name: 'Tambah Kategori', exact: true }).click();
    const add = masterForm(page, 'Kategori Pengaduan Baru');
    await add.getByRole('button', { name: 'Simpan', exact: true }).click();
    await add.getByText('Nama kategori wajib diisi', { exact: true }).waitFor();
    const group = add.getByLabel('Grup Kategori', { exact: true });
    if ((await group.count()) > 0) await group.selectOption({ index: 1 });
    const name = `Kategori Uji ${stamp}`;
    await add.getByLabel('Nama Kategori', { exact: true }).fill(name);
    await add.getByRole('button', { name: 'Simpan', exact: true }).click();
    await confirmDialog(page, 'Simpan Kategori', 'Anda yakin ingin menyimpan kategori ini ?', 'Simpan');
    await snackbar(page, /Kategori berhasil/)
      .first()
      .waitFor();

    await row(page, name).getByRole('button', { name: 'Lihat', exact: true }).click();
    const view = masterForm(page, 'Lihat Kategori Pegaduan');
    await view.waitFor();
    await expectReadOnly(view);
    const edit = await pressUbah(page, view, 'Enter', 'Edit Kategori Pengaduan');
    expect(await edit.getByLabel('Nama Kategori', { exact: true }).inputValue()).toBe(name);
    await edit.getByLabel('Nama Kategori', { exact: true }).fill(`${name} Ubah`);
    await edit.getByRole('button', { name: 'Simpan', exact: true }).click();
    await confirmDialog(page, 'Simpan Kategori', 'Anda yakin ingin menyimpan kategori ini ?', 'Simpan');
    await row(page, `${name} Ubah`).waitFor();
    // Kategori Laporan offers no Hapus (spec section 2).
    expect(await row(page, `${name} Ubah`).getByRole('button', { name: 'Hapus' }).count()).toBe(0);
    admin.expectClean();
  });
});
