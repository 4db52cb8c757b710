export const CASE_NUMBER_REMINDER =
  'Simpan Nomor Pengaduan ini dan kata sandi yang Anda buat dengan baik. Keduanya diperlukan untuk memantau perkembangan laporan Anda melalui menu Pantau Laporan dan tidak dapat dipulihkan apabila hilang.';
