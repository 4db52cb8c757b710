/** The Indonesian texts of Retensi Data, Register Pemusnahan, Catatan Pemrosesan Data and the banner. */

import type { DisposalState } from '@wbs/shared/retention';
import { formatDateTime } from '../../case/detail.ts';
import { COMPANY_SETTING_TEXTS } from '../companySettingTexts.ts';

export const RETENTION_TEXTS = {
  ...COMPANY_SETTING_TEXTS,
  title: 'Retensi Data',
  intro:
    'Data pribadi dalam laporan dimusnahkan setelah masa retensinya berakhir (UU 27/2022 Pasal 42–44). ' +
    'Masa retensi dihitung dalam bulan sejak laporan mencapai status akhir. Perubahan berlaku pada ' +
    'pemeriksaan berikutnya.',
  months: 'Masa retensi (bulan)',
} as const;

export const REGISTER_TEXTS = {
  title: 'Register Pemusnahan',
  intro:
    'Laporan yang masa retensinya telah berakhir. Pesan dan data pribadi yang disimpan gateway sudah ' +
    'dihapus otomatis; laporan di sistem WBS dimusnahkan oleh petugas, lalu ditandai di sini.',
  filterLabel: 'Tampilkan',
  waiting: 'Menunggu',
  destroyed: 'Sudah dimusnahkan',
  company: 'Perusahaan',
  caseId: 'ID Laporan',
  status: 'Status',
  closedAt: 'Ditutup',
  dueAt: 'Jatuh tempo',
  storePurgedAt: 'Data gateway dihapus',
  state: 'Keadaan',
  actions: 'Aksi',
  openCase: 'Buka laporan {id}',
  mark: 'Tandai sudah dimusnahkan',
  markFor: 'Tandai sudah dimusnahkan: laporan {id}, {company}',
  scan: 'Periksa sekarang',
  scanDone:
    'Pemeriksaan selesai: {registered} laporan masuk register, data gateway {purged} laporan dihapus.',
  notPurged: 'Belum',
  dialogTitle: 'Tandai Sudah Dimusnahkan',
  dialogMessage:
    'Anda menyatakan bahwa laporan {id} milik {company} sudah dimusnahkan di sistem WBS. Tindakan ini ' +
    'tercatat di jejak audit dan tidak dapat dibatalkan.',
  note: 'Catatan',
  noteHelper: 'Opsional, maksimal 500 karakter. Jangan tulis identitas pelapor.',
  noteTooLong: 'Maksimal 500 Karakter',
  confirm: 'Tandai',
  cancel: 'Batal',
  destroyedBy: 'oleh {name}',
  summary: 'Menunggu: {waiting} (melewati batas: {overdue}) · Sudah dimusnahkan: {destroyed}',
} as const;

export const STATE_LABELS: Record<DisposalState, string> = {
  waiting: 'Menunggu',
  overdue: 'Melewati batas',
  destroyed: 'Sudah dimusnahkan',
};

export const RECORDS_TEXTS = {
  title: 'Catatan Pemrosesan Data',
  intro:
    'Catatan kegiatan pemrosesan data pribadi (UU 27/2022), disusun dari konfigurasi sistem yang ' +
    'sedang berjalan sehingga selalu sesuai dengan keadaannya.',
  generatedAt: 'Disusun pada',
  controller: 'Pengendali data',
  print: 'Cetak',
  purpose: 'Tujuan',
  subjects: 'Subjek data',
  dataCategories: 'Kategori data',
  storedIn: 'Tempat penyimpanan',
  access: 'Yang dapat mengakses',
  retention: 'Masa retensi',
  legalBasis: 'Dasar pemrosesan',
} as const;

export const BANNER_TEXTS = {
  overdue: '{count} laporan melewati masa retensi dan belum ditandai dimusnahkan',
  open: 'Buka Register Pemusnahan',
} as const;

/** A WIB wall time as the screens print it: 03/05/2026 08:15 WIB; empty stays a dash. */
export const wibTime = (wallTime: string | null): string =>
  wallTime ? `${formatDateTime(wallTime)} WIB` : '-';

/** A YYYY-MM-DD day as 03/05/2026. */
export const dayDisplay = (day: string): string => formatDateTime(day);
