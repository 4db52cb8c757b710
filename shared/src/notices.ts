/**
 * What handlers are told about (docs/product/notifications.md): the kinds of notice, their Indonesian
 * names, and how each may be mailed. Shared so the gateway, its mails and the Notifikasi screen say
 * the same words.
 */

/** The kinds of notice a handler receives, in the order the preferences screen lists them. */
export const NOTICE_KINDS = [
  'new-report',
  'reporter-message',
  'reporter-evidence',
  'case-routed',
  'ack-due',
  'ack-overdue',
  'feedback-due',
  'feedback-overdue',
  'new-device',
  'second-factor-failures',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** How a kind of notice reaches the user's mailbox (the bell always shows it). */
export const MAIL_MODES = ['immediate', 'digest', 'off'] as const;
export type MailMode = (typeof MAIL_MODES)[number];

/** A security notice is always mailed at once: it cannot be switched off or deferred. */
export const LOCKED_NOTICE_KINDS: ReadonlySet<NoticeKind> = new Set(['new-device', 'second-factor-failures']);

/** The mail mode of a kind nobody chose for yet. */
export const DEFAULT_MAIL_MODE: Record<NoticeKind, MailMode> = {
  'new-report': 'immediate',
  'reporter-message': 'immediate',
  'reporter-evidence': 'immediate',
  'case-routed': 'immediate',
  'ack-due': 'digest',
  'ack-overdue': 'digest',
  'feedback-due': 'digest',
  'feedback-overdue': 'digest',
  'new-device': 'immediate',
  'second-factor-failures': 'immediate',
};

/** The name of each kind, on the bell, the preferences screen and in mails. */
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  'new-report': 'Laporan baru',
  'reporter-message': 'Pesan baru dari pelapor',
  'reporter-evidence': 'Bukti tambahan dari pelapor',
  'case-routed': 'Laporan dialihkan ke jalur Anda',
  'ack-due': 'Batas tanggapan awal dalam 24 jam',
  'ack-overdue': 'Tanggapan awal terlambat',
  'feedback-due': 'Batas umpan balik dalam 7 hari',
  'feedback-overdue': 'Umpan balik terlambat',
  'new-device': 'Masuk dari perangkat baru',
  'second-factor-failures': 'Kode verifikasi dua langkah salah berulang kali',
};

export const MAIL_MODE_LABELS: Record<MailMode, string> = {
  immediate: 'Segera',
  digest: 'Ringkasan harian (07.00 WIB)',
  off: 'Tidak dikirim',
};
