/**
 * What the bell, the Notifikasi page and the administrator's failed-mail list share: their texts,
 * how a notice's time is shown, and the plain names of the mail queues. The kinds' own names and the
 * mail modes come from @wbs/shared/notices, so the screens say what the mails say.
 */
import { wibWallTime } from '@wbs/shared/handling-clock';
import { format } from '@wbs/shared/messages';
import { formatDateTime } from '../case/detail.ts';

export const NOTICE_TEXTS = {
  bell: 'Notifikasi',
  bellUnread: 'Notifikasi, {count} belum dibaca',
  title: 'Notifikasi',
  markAll: 'Tandai semua dibaca',
  more: 'Muat lagi',
  empty: 'Belum ada notifikasi',
  unread: 'Belum dibaca',
  unreadCount: '{count} belum dibaca',
  allRead: 'Semua notifikasi sudah dibaca',
  loadFailed: 'Notifikasi belum dapat dimuat.',
  retry: 'Coba lagi',
  close: 'Tutup',
  preferencesLink: 'Atur pengiriman surel notifikasi',
  justNow: 'Baru saja',
  minutesAgo: '{n} menit lalu',
  hoursAgo: '{n} jam lalu',
} as const;

export const PREFERENCE_TEXTS = {
  title: 'Notifikasi',
  intro:
    'Setiap notifikasi selalu tampil di lonceng. Pilih bagaimana setiap jenis notifikasi juga dikirim ke ' +
    'surel Anda.',
  noEmail:
    'Akun Anda belum memiliki alamat surel, sehingga notifikasi hanya tampil di lonceng dan tidak dikirim ' +
    'lewat surel.',
  locked: 'Notifikasi keamanan selalu dikirim segera.',
  kind: 'Jenis notifikasi',
  save: 'Simpan',
  loadFailed: 'Preferensi notifikasi belum dapat dimuat.',
  retry: 'Coba lagi',
} as const;

export const DEAD_LETTER_TEXTS = {
  title: 'Surel Gagal Terkirim',
  intro:
    'Surel yang tetap gagal dikirim setelah semua percobaan ulang, misalnya karena server surel menolak ' +
    'atau tidak dapat dihubungi. Alamat tujuan dan isi surel tidak ditampilkan. Kirim ulang setelah ' +
    'masalahnya teratasi.',
  queue: 'Jenis surel',
  since: 'Sejak',
  actions: 'Aksi',
  retry: 'Kirim ulang',
  empty: 'Tidak ada surel yang gagal terkirim',
  loadFailed: 'Daftar surel gagal terkirim belum dapat dimuat.',
  confirmTitle: 'Kirim Ulang Surel',
  confirmMessage: 'Anda yakin ingin mengirim ulang surel ini ?',
} as const;

/** The mail queues in plain words; a queue not named here is shown by its own name. */
const MAIL_QUEUE_LABELS: Readonly<Record<string, string>> = {
  'notice-mail': 'Notifikasi petugas',
  'notice-digest': 'Ringkasan harian',
  'notices-deliver': 'Pengolahan notifikasi',
  'reporter-confirmation': 'Konfirmasi e-mail pelapor',
  'reporter-notice': 'Pemberitahuan pelapor',
};

export const mailQueueLabel = (queue: string): string =>
  Object.hasOwn(MAIL_QUEUE_LABELS, queue) ? (MAIL_QUEUE_LABELS[queue] ?? queue) : queue;

/** The bell's accessible name: how many notices are unread, if any. */
export const bellLabel = (unread: number): string =>
  unread > 0 ? format(NOTICE_TEXTS.bellUnread, { count: unread }) : NOTICE_TEXTS.bell;

/** A WIB wall time of the API ('2026-05-03T08:15:00') as shown with its zone: '03/05/2026 08:15 WIB'. */
export const wibDisplay = (wallTime: string): string => `${formatDateTime(wallTime)} WIB`;

/**
 * When a notice came: relative within a day ('5 menit lalu', '3 jam lalu'), else the WIB date and
 * time. Measured against WIB wall time now, so the browser's own zone plays no part.
 */
export function noticeTime(createdAt: string, now: number = Date.now()): string {
  const at = Date.parse(`${createdAt.slice(0, 19)}Z`);
  const current = Date.parse(`${wibWallTime(now)}Z`);
  if (Number.isNaN(at)) return createdAt;
  const minutes = Math.floor((current - at) / 60_000);
  // A clock a little ahead of the browser's still reads as "just now", never as a time to come.
  if (minutes < 1) return NOTICE_TEXTS.justNow;
  if (minutes < 60) return format(NOTICE_TEXTS.minutesAgo, { n: minutes });
  if (minutes < 24 * 60) return format(NOTICE_TEXTS.hoursAgo, { n: Math.floor(minutes / 60) });
  return wibDisplay(createdAt);
}
