/**
 * Type 3 (partner) through its master screen Analis (/admin/partnerstaff): Tambah Staff, the initial
 * password shown once, Lihat read-only, Ubah by mouse / Enter / Space without a confirmation, Edit with
 * username, e-mail AND full name locked, Akses Level, the new staff member's first sign-in, Reset
 * Password in View, Hapus.
 */
import { describe, it } from 'vitest';
import { walkStaffScreen } from './master.ts';
import { signIn, useJourney } from './support.ts';

const journey = useJourney('partner-admin-masters');
const stamp = Date.now().toString(36).slice(-5);

describe('type 3: partner staff', () => {
  it('walks the staff screen; the new staff member signs in with the password shown once', async () => {
    const partner = await journey.actor('partner');
    await signIn(partner.page, 'holding', 'Partner#2026!');
    await walkStaffScreen(
      partner.page,
      {
        menu: 'Analis',
        path: '/admin/partnerstaff',
        add: 'Tambah Staff',
        titles: { add: 'Staff Baru', view: 'Lihat Staff', edit: 'Edit Staff' },
        saved: 'Staff berhasil disimpan',
        changed: 'Staff berhasil diubah',
        removed: 'Staff berhasil dihapus',
        remove: { title: 'Hapus Staff', message: 'Anda yakin ingin menghapus staff ini ?' },
        lockedInEdit: ['Nama Lengkap'],
        resetIn: 'view',
      },
      { fullName: `Staff Uji ${stamp}`, username: `staff.${stamp}` },
      (name) => journey.actor(name),
    );
    partner.expectClean();
  });
});
