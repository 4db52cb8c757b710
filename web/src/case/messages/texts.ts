/** Indonesian texts of the case view's Pesan tab, identity-access history and Tambah Bukti. */
export const MESSAGE_TEXTS = {
  tab: 'Pesan',
  required: 'Pesan wajib diisi',
  sent: 'Pesan berhasil dikirim',
  loadFailed: 'Pesan tidak dapat dimuat.',
  retry: 'Coba Lagi',
  empty: 'Belum ada pesan.',
  reporterIntro:
    'Percakapan dengan Tim Penanganan WBS tentang laporan ini. Jangan menulis hal yang dapat mengungkap identitas Anda bila Anda ingin tetap anonim.',
  newReplies: 'balasan baru sejak kunjungan terakhir Anda',
  unreadFromReporter: 'pesan pelapor belum dibaca',
  newBadge: 'Baru',
  unreadBadge: 'Belum dibaca',
  writeLabel: 'Tulis pesan',
  placeholder: 'Tulis pesan Anda di sini…',
  send: 'Kirim Pesan',
  readOnly: 'Anda dapat membaca percakapan ini, tetapi tidak dapat mengirim pesan.',
  identityTitle: 'Siapa yang melihat identitas saya',
  identityIntro:
    'Setiap kali petugas membuka laporan ini beserta identitas Anda, atau membuka kontak Anda yang disamarkan, tercatat di sini: tanggal dan peran petugas, tanpa nama.',
  identityAnonymous:
    'Laporan ini anonim: tidak ada identitas yang dapat dibuka. Pembukaan kontak yang disamarkan tetap tercatat di sini.',
  identityEmpty: 'Belum ada petugas yang melihat identitas atau kontak Anda.',
  identityRead: 'Membuka detail laporan dengan identitas',
  identityReveal: 'Membuka kontak yang disamarkan',
  evidenceTitle: 'Tambah Bukti',
  evidenceIntro: 'Tambahkan lampiran bukti pendukung. Satu laporan paling banyak memiliki 5 lampiran.',
  evidenceRemaining: 'Sisa lampiran yang dapat ditambahkan: {n}.',
  evidenceFull: 'Lampiran sudah mencapai batas maksimal',
  evidenceNone: 'Pilih minimal satu file.',
  evidenceSend: 'Unggah Bukti',
  evidenceSent: 'Bukti berhasil ditambahkan',
} as const;
