/** Indonesian texts of the reporter's copy (the button on Pantau Laporan and the PDF). */
export const REPORTER_COPY_TEXTS = {
  button: 'Unduh salinan laporan saya',
  failed: 'Salinan laporan tidak dapat dibuat. Silakan coba lagi.',
  title: 'Salinan Laporan Saya',
  intro:
    'Salinan ini memuat apa yang ditampilkan Pantau Laporan kepada Anda pada {time}: isi laporan, ' +
    'nama lampiran, catatan aktivitas, dan pesan dengan Tim Penanganan WBS.',
  keepSafe:
    'Simpan dokumen ini di tempat yang aman: siapa pun yang memegangnya dapat membaca laporan Anda. ' +
    'Kata sandi laporan tidak dicantumkan.',
  substituted:
    'Beberapa karakter (misalnya emoji atau aksara yang tidak didukung huruf dokumen ini) ditulis ' +
    'sebagai kodenya, misalnya [U+1F600].',
  page: 'Halaman {page} dari {pages}',
} as const;
