/** The words of a per-company setting table (CompanySettingsTable.tsx), shared by its screens' texts. */
export const COMPANY_SETTING_TEXTS = {
  company: 'Perusahaan',
  source: 'Sumber',
  own: 'Khusus perusahaan',
  groupDefault: 'Bawaan grup',
  edit: 'Ubah',
  save: 'Simpan',
  cancel: 'Batal',
  reset: 'Kembalikan ke bawaan',
  actions: 'Aksi',
} as const;
