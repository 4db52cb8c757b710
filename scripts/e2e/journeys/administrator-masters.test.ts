/**
 * Type 1 (administrator) through every screen of its menu: Partner and Perusahaan (Tambah with the
 * Indonesian field messages, the initial password shown once, Lihat read-only, Ubah by mouse / Enter /
 * Space without a save confirmation, Edit with username and e-mail locked, Simpan, Hapus with their
 * dialogs) and Status Laporan. The new partner's and company's accounts then sign in with the shown
 * password, are forced through /user/changepassword and end signed in.
 */
import { describe, expect, it } from 'vitest';
import {
  confirmDialog,
  expectLocked,
  expectReadOnly,
  fill,
  firstSignIn,
  masterForm,
  openMenu,
  pressUbah,
  row,
  takeInitialPassword,
} from './master.ts';
import { signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('administrator-masters');
const stamp = Date.now().toString(36).slice(-5);

const screens = [
  {
    menu: 'Partner',
    path: '/admin/partner',
    noun: 'Partner',
    lower: 'partner',
    add: 'Tambah Partner',
    name: `Partner Uji ${stamp}`,
    username: `partner.${stamp}`,
    savedMessage: 'Partner berhasil disimpan',
  },
  {
    menu: 'Perusahaan',
    path: '/admin/company',
    noun: 'Perusahaan',
    lower: 'perusahaan',
    add: 'Tambah Perusahaan',
    name: `Perusahaan Uji ${stamp}`,
    username: `perusahaan.${stamp}`,
    savedMessage: 'Perusahaan berhasil disimpan',
  },
] as const;

describe('type 1: Partner, Perusahaan and Status Laporan', () => {
  it('walks every master screen and signs the new accounts in', async () => {
    const admin = await journey.actor('administrator');
    const { page } = admin;
    await signIn(page, 'admin', 'Admin#2026!');
    await page.waitForURL('**/admin/partner');

    for (const s of screens) {
      await openMenu(page, s.menu, s.path);
      await page.getByRole('heading', { name: s.menu, exact: true }).waitFor();

      // Tambah: every message under its Indonesian label, in Indonesian.
      await page.getByRole('button', { name: s.add, exact: true }).click();
      const add = masterForm(page, `${s.noun} Baru`);
      await add.getByRole('button', { name: 'Simpan', exact: true }).click();
      for (const message of [
        'Nama wajib diisi',
        'No. Telepon wajib diisi',
        'Alamat wajib diisi',
        'Username wajib diisi',
        'Email wajib diisi',
        'Provinsi wajib diisi',
        'Kota wajib diisi',
      ])
        await add.getByText(message, { exact: true }).waitFor();
      expect(await add.getByText(/Name wajib|Address wajib|Phone wajib/).count()).toBe(0);
      await fill(add, {
        Nama: s.name,
        'No. Telepon': '0215550001',
        Username: s.username,
        Email: `${s.username}@wbs.example.id`,
        Alamat: 'Jl. Uji 1',
      });
      await add
        .getByLabel('Provinsi', { exact: true })
        .selectOption({ label: 'Daerah Khusus Ibukota Jakarta' });
      await add
        .getByLabel('Kota', { exact: true })
        .selectOption({ label: 'Kota Administrasi Jakarta Pusat' });
      await add.getByRole('button', { name: 'Simpan', exact: true }).click();
      await confirmDialog(page, `Simpan ${s.noun}`, `Anda yakin ingin menyimpan ${s.lower} ini ?`, 'Simpan');
      await snackbar(page, s.savedMessage).first().waitFor();
      const password = await takeInitialPassword(page, s.username);

      // Lihat: nothing can change, nothing can be saved.
      await row(page, s.name).getByRole('button', { name: 'Lihat', exact: true }).click();
      const view = masterForm(page, `Lihat ${s.noun}`);
      await view.waitFor();
      expect(await view.getByLabel('Nama', { exact: true }).inputValue()).toBe(s.name);
      await expectReadOnly(view);

      // Ubah by mouse, Enter and Space: the Edit form, no confirmation.
      for (const how of ['mouse', 'Enter', 'Space'] as const) {
        const edit = await pressUbah(page, masterForm(page, `Lihat ${s.noun}`), how, `Edit ${s.noun}`);
        await expectLocked(edit, ['Username', 'Email'], ['Nama', 'No. Telepon', 'Alamat']);
        expect(await edit.getByLabel('Provinsi', { exact: true }).isDisabled()).toBe(false);
        await edit.getByRole('button', { name: 'Kembali', exact: true }).click();
        await row(page, s.name).getByRole('button', { name: 'Lihat', exact: true }).click();
        await masterForm(page, `Lihat ${s.noun}`).waitFor();
      }
      await masterForm(page, `Lihat ${s.noun}`).getByRole('button', { name: 'Kembali', exact: true }).click();

      // Ubah from the list, then Simpan through the confirmation.
      await row(page, s.name).getByRole('button', { name: 'Ubah', exact: true }).click();
      const edit = masterForm(page, `Edit ${s.noun}`);
      await edit.getByLabel('Alamat', { exact: true }).fill('Jl. Uji 2');
      await edit.getByRole('button', { name: 'Simpan', exact: true }).click();
      await confirmDialog(page, `Simpan ${s.noun}`, `Anda yakin ingin menyimpan ${s.lower} ini ?`, 'Simpan');
      await snackbar(page, `${s.noun} berhasil diubah`).first().waitFor();
      await row(page, s.name).filter({ hasText: 'Jl. Uji 2' }).waitFor();

      // The new account signs in with the password shown once.
      const owner = await journey.actor(s.username);
      await firstSignIn(owner.page, s.username, password, `Baru#${stamp}2026`);
      owner.expectClean();

      // Hapus: Tidak keeps the row, Hapus removes it.
      await row(page, s.name).getByRole('button', { name: 'Hapus', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Tidak', exact: true }).click();
      await row(page, s.name).waitFor();
      await row(page, s.name).getByRole('button', { name: 'Hapus', exact: true }).click();
      await confirmDialog(page, `Hapus ${s.noun}`, `Anda yakin ingin menghapus ${s.lower} ini ?`, 'Hapus');
      await snackbar(page, `${s.noun} berhasil dihapus`).first().waitFor();
      await row(page, s.name).waitFor({ state: 'detached' });
    }

    await openMenu(page, 'Status Laporan', '/admin/statuscase');
    await page.getByRole('heading', { name: 'Status Laporan', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Baru', exact: true }).first().waitFor();
    admin.expectClean();
  });
});
