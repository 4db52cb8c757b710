/** Indonesian texts used by both the gateway and the web app, worded as the spec words them. */
import { isoToDisplay, SUPPORTED_DAYS } from './dates.ts';

/** The first and last day the API accepts (docs/product/handling.md#dates), as shown: DD/MM/YYYY. */
const FIRST_DAY = isoToDisplay(SUPPORTED_DAYS.min);
const LAST_DAY = isoToDisplay(SUPPORTED_DAYS.max);

export const FIELD_MESSAGES = {
  usernameRequired: 'Username wajib diisi',
  usernameRequiredLower: 'username wajib diisi',
  passwordRequired: 'Kata sandi wajib diisi',
  emailInvalid: 'Email tidak valid',
  emailRequired: 'Email wajib diisi',
  oldPasswordRequired: 'Kata sandi lama wajib diisi',
  newPasswordMin: 'Kata sandi baru minimal 8 karakter.',
  newPasswordRequired: 'Kata sandi baru wajib diisi',
  confirmPasswordMin: 'Konfirmasi kata sandi baru minimal 8 karakter.',
  confirmPasswordMismatch: 'Konfirmasi kata sandi baru tidak sama',
  confirmPasswordRequired: 'Konfirmasi kata sandi baru wajib diisi',
  // The spec words these three in English (Name / Phone / Address); every visible text is Indonesian (docs/product/roles-and-screens.md#master-data).
  nameRequired: 'Nama wajib diisi',
  phoneRequired: 'No. Telepon wajib diisi',
  phoneInvalid: 'No. Telepon hanya boleh berisi angka',
  addressRequired: 'Alamat wajib diisi',
  provinceInvalid: 'Provinsi Tidak Valid',
  provinceRequired: 'Provinsi wajib diisi',
  cityInvalid: 'Kota Tidak Valid',
  cityRequired: 'Kota wajib diisi',
  districtRequired: 'Kecamatan wajib diisi',
  partnerInvalid: 'Partner Tidak Valid',
  fullNameRequired: 'Nama Lengkap wajib diisi',
  roleInvalid: 'Akses Level tidak valid',
  caseLineInvalid: 'Jalur Pengaduan tidak valid',
  caseLineRequired: 'Jalur Pengaduan wajib diisi',
  caseNumberRequired: 'Nomor Pengaduan wajib diisi',
  statusInvalid: 'Status pengaduan Tidak Valid',
  statusRequired: 'Status pengaduan wajib diisi',
  logLineInvalid: 'Jalur Otorisasi Tidak Valid',
  logLineRequired: 'Jalur Otorisasi wajib diisi',
  logMessageRequired: 'Catatan Aktivitas wajib diisi',
  statusNameRequired: 'Nama Status wajib diisi',
  statusOrderRequired: 'Order wajib diisi',
  categoryNameRequired: 'Nama kategori wajib diisi',
  categoryGroupInvalid: 'Gorup kategori tidak valid',
  categoryGroupRequired: 'Gorup kategori wajib diisi',
  profileNameRequired: 'Username wajib diisi',
  reporterTypeRequired: 'Identitas Pelapor wajib diisi',
  reporterEmailInvalid: 'Alamat Email Tidak Valid',
  reporterPhoneInvalid: 'Nomor Telepon tidak valid',
  reporterPhoneMin: 'minimal 3 nomor.',
  communicationTypeRequired: 'Cara Komunikasi wajib pilih minimal 1',
  communicationTimeRequired: 'Waktu Komunikasi wajib diisi',
  categoryRequired: 'Kategori pengaduan wajib diisi',
  caseWhatRequired: 'Mohon isi kejadian apa yang ingin dilaporkan',
  caseWhereRequired: 'Mohon isi di mana kejadian ini terjadi',
  caseWhenRequired: 'Mohon isi kapan kejadian ini terjadi',
  casePerpetratorRequired: 'Mohon isi nama dan jabatan terlapor',
  caseDirectorateRequired: 'Mohon isi Unit Direktorat',
  caseDivisionRequired: 'Mohon isi Unit Divisi',
  caseHowRequired: 'Mohon isi bagaimana kejadian ini terjadi',
  max255: 'Maksimal 255 Karakter',
  max500: 'Maksimal 500 Karakter',
  evidenceRequired: 'Bukti Pendukung wajib diisi',
  evidenceLinkInvalid:
    'Tautan Bukti Pendukung harus berupa alamat web lengkap yang diawali http:// atau https://',
  casePasswordRequired: 'Kata sandi pengaduan wajib diisi',
  casePasswordMin: 'Kata sandi pengaduan minimal 10 karakter.',
  casePasswordTrivial:
    'Kata sandi pengaduan terlalu mudah ditebak: jangan gunakan karakter yang berulang atau berurutan.',
  casePasswordCommon:
    'Kata sandi pengaduan ini termasuk kata sandi yang umum dipakai dan mudah ditebak. Gunakan kata sandi lain atau buat frasa sandi acak.',
  casePasswordMismatch: 'Konfirmasi kata sandi pengaduan tidak sama',
  companyRequired: 'Perusahaan wajib diisi',
  channelInvalid: 'Saluran pengaduan tidak valid',
  dateFromRequired: 'Tanggal awal wajib diisi',
  dateToRequired: 'Tanggal akhir wajib diisi',
  dateInvalid: 'Tanggal tidak valid',
  dateRangeInvalid: 'Tanggal awal tidak boleh melebihi tanggal akhir',
  dateOutOfRange: `Tanggal harus di antara ${FIRST_DAY} dan ${LAST_DAY}`,
  auditPeriodTooLong: 'Periode berisi terlalu banyak catatan audit; pilih periode yang lebih pendek',
  dateAfterToday: 'Tanggal tidak boleh melebihi hari ini',
  caseNumberInvalid: 'Nomor Pengaduan tidak valid',
  passwordInvalid: 'Kata sandi tidak valid',
  sortInvalid: 'Urutan tidak valid',
  revealReasonRequired: 'Alasan wajib diisi',
  revealReasonMin: 'Alasan minimal 10 karakter',
  revealReasonWords: 'Alasan harus berisi minimal 2 kata dengan total minimal 10 huruf',
  messageRequired: 'Pesan wajib diisi',
  messageTooLong: 'Pesan tidak boleh melebihi 4000 karakter',
  secondFactorCodeFormat: 'Kode terdiri dari 6 angka',
  recoveryCodeFormat: 'Kode pemulihan terdiri dari 10 huruf dan angka',
  passkeyResponseInvalid: 'Jawaban passkey tidak valid',
  passkeyNameRequired: 'Nama passkey harus diisi',
  passkeyNameTooLong: 'Nama passkey maksimal 60 karakter',
  passkeyNotFound: 'Passkey tidak ditemukan',
} as const;

/** Messages with placeholders; fill them through `format`. */
export const TEMPLATE_MESSAGES = {
  fileTooLarge: 'Ukuran file {name} melebihi 10 MB',
  fileDuplicate: 'Lampiran {name} telah dipilih',
  tooManyAttachments: 'Lampiran tidak boleh melebihi {limit}',
  filesTooLarge: 'Ukuran seluruh lampiran tidak boleh melebihi {limit} MB',
  involvedNameRequired: 'Nama pihak terkait wajib diisi di baris {n}',
  involvedPositionRequired: 'Posisi pihak terkait wajib diisi di baris {n}',
  downloadSucceeded: 'Lampiran {name} berhasil di unduh',
  fileTypeNotAllowed: 'Jenis file {name} tidak diizinkan',
  fileContentMismatch: 'Isi file {name} tidak sesuai dengan jenisnya',
  fileTooComplex:
    'File {name} terlalu berat untuk dibersihkan dari metadata; simpan ulang dengan ukuran lebih kecil atau kirim tanpa file ini',
  fileNotProcessable: 'Gambar {name} tidak dapat diproses; simpan ulang atau perkecil gambar lalu coba lagi',
  retryInMinutes: 'Terlalu banyak percobaan, silakan coba lagi dalam {minutes} menit',
  floodRetryInMinutes:
    'Terlalu banyak pengiriman dalam waktu singkat, silakan coba lagi dalam {minutes} menit',
  conversationFull: 'Pesan dari pihak Anda pada laporan ini telah mencapai batas {limit} pesan',
  retryInSeconds: 'Terlalu banyak percobaan, silakan coba lagi dalam {seconds} detik',
  retryInHours: 'Terlalu banyak percobaan, silakan coba lagi dalam {hours} jam',
  /** A validation problem's `detail` when its one field error says only that the data is invalid. */
  invalidField: 'Isian {field} tidak valid',
  /** A validation problem's `detail` with several field errors; {fields} names them (fieldList). */
  invalidFields: 'Terdapat {count} isian yang tidak valid: {fields}',
  /** The tail of a field list too long to name whole. */
  moreFields: 'dan {count} lainnya',
} as const;

export const UI_MESSAGES = {
  noticePreferencesSaved: 'Preferensi notifikasi disimpan',
  digestStopped: 'Ringkasan harian tidak akan dikirim lagi',
  deadLetterRetried: 'Surel dikirim ulang',
  attachmentsLimitReached: 'Lampiran sudah mencapai batas maksimal',
  exporting: 'Mengekspor data',
  caseNumberCopied: 'Nomor Pengaduan berhasil di salin',
  loading: 'Memuat...',
  loadingHint: 'Mohon jangan menutup halaman ini',
  loggingOut: 'Proses Logout',
  loggedOut: 'Berhasil Keluar',
  /** The legacy's own sign-in message (spec §4: shown about 3 s). */
  loginSucceeded: 'Login berhasil',
  notFoundData: 'Data Tidak Ditemukan',
  missingEntity: 'Data tidak ditemukan',
  choosePartnerCompany: 'Silahkan Pilih Perusahaan',
  maskedNote: '**********',
  handlingDeadlinesSaved: 'Tenggat penanganan berhasil disimpan',
  handlingDeadlinesReset: 'Tenggat penanganan kembali mengikuti bawaan grup',
  retentionPeriodSaved: 'Masa retensi berhasil disimpan',
  retentionPeriodReset: 'Masa retensi kembali mengikuti bawaan grup',
  disposalMarked: 'Laporan ditandai sudah dimusnahkan',
  /** The reporter's promise (docs/product/handling.md#handling-clocks); {date} DD/MM/YYYY. */
  replyPromise: 'Laporan Anda akan ditanggapi paling lambat {date}',
  replyGiven: 'Laporan Anda telah ditanggapi pada {date}',
  maskedNoteHint: 'Text disembunyikan demi keamanan',
  networkError: 'Network Error',
  contactMaskedHint: 'Disamarkan untuk melindungi pelapor',
  identityHiddenHint: 'Disembunyikan atas permintaan pelapor',
  revealContact: 'Tampilkan',
  revealTitle: 'Tampilkan kontak pelapor',
  revealExplanation:
    'Email dan nomor telepon pelapor disamarkan untuk melindunginya. Tuliskan alasan Anda membukanya; ' +
    'alasan dan nama Anda dicatat.',
  revealReasonLabel: 'Alasan',
  handlerTeam: 'Tim Penanganan WBS',
  reporterLabel: 'Pelapor',
} as const;

/** Problem texts the gateway answers with; stable, neutral, Indonesian. */
export const PROBLEM_MESSAGES = {
  validation: 'Data yang dikirim tidak valid',
  unauthorized: 'Sesi Anda telah berakhir, silakan masuk kembali',
  forbidden: 'Anda tidak memiliki akses untuk tindakan ini',
  notFound: 'Data tidak ditemukan',
  methodNotAllowed: 'Metode ini tidak berlaku untuk alamat ini',
  csrf: 'Permintaan ditolak karena berasal dari situs lain',
  passwordChangeRequired: 'Anda harus mengganti kata sandi awal sebelum melanjutkan',
  legacyUnavailable: 'Layanan sedang tidak dapat dihubungi, silakan coba beberapa saat lagi',
  legacyTimeout: 'Layanan tidak merespons tepat waktu, silakan coba beberapa saat lagi',
  legacyBadReply: 'Layanan memberikan jawaban yang tidak dikenali, silakan coba beberapa saat lagi',
  internal: 'Terjadi kesalahan pada server, silakan coba beberapa saat lagi',
  tooManyRequests: 'Terlalu banyak percobaan, silakan coba beberapa saat lagi',
  payloadTooLarge: 'Ukuran file melebihi batas yang diizinkan',
  trackingFailed: 'Nomor Pengaduan atau kata sandi tidak sesuai',
  forgotPasswordSent: 'Jika email terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim',
  idempotencyConflict: 'Permintaan yang sama sedang diproses',
  uploadInterrupted: 'Unggahan terputus sebelum selesai, silakan kirim ulang',
  uploadDraftMissing: 'Sesi unggahan tidak ditemukan atau sudah kedaluwarsa; pilih kembali file Anda',
  uploadNotFinished: 'Masih ada file yang sedang diunggah; tunggu hingga selesai lalu kirim lagi',
  uploadOffsetMismatch: 'Posisi unggahan tidak cocok; unggahan dilanjutkan dari posisi yang tersimpan',
  uploadRequestInvalid: 'Permintaan unggahan tidak valid',
  malformedUpload: 'Formulir unggahan rusak atau tidak lengkap, silakan kirim ulang dari halaman formulir',
  busy: 'Server sedang sibuk, silakan coba lagi sebentar lagi.',
  uploadsPerClientBusy:
    'Terlalu banyak unggahan Anda yang sedang berjalan bersamaan; silakan coba lagi sebentar lagi.',
  uploadsUnavailable: 'Unggahan sedang tidak dapat diterima, silakan coba beberapa saat lagi',
  idempotencyMismatch:
    'Isi pengaduan berbeda dengan pengiriman sebelumnya yang memakai kunci yang sama; silakan kirim ulang',
  storeUnavailable: 'Penyimpanan pesan sedang tidak dapat dihubungi, silakan coba beberapa saat lagi',
  evidenceUnavailable: 'Tambah Bukti sedang tidak dapat digunakan, silakan coba beberapa saat lagi',
  messageIdempotencyMismatch:
    'Isi pesan berbeda dengan pengiriman sebelumnya yang memakai kunci yang sama; silakan kirim ulang',
  dateInvalid: 'Tanggal tidak valid: gunakan tanggal kalender yang ada, berformat YYYY-MM-DD',
  dateOutOfRange: `Tanggal di luar rentang yang didukung: hanya ${FIRST_DAY} sampai ${LAST_DAY} yang dapat dipakai`,
  dateRangeInvalid: 'Periode tidak valid: tanggal awal melebihi tanggal akhir',
  secondFactorRequired: 'Selesaikan verifikasi dua langkah terlebih dahulu',
  stepUpRequired: 'Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda',
  secondFactorFailed: 'Kode atau passkey tidak valid',
  secondFactorReplay: 'Kode ini sudah dipakai; tunggu kode berikutnya di aplikasi autentikator',
  secondFactorLocked:
    'Terlalu banyak kode yang salah. Demi keamanan akun Anda, masuk lagi dengan kata sandi Anda, lalu gunakan kode pemulihan atau passkey',
  totpLocked:
    'Kode aplikasi autentikator tidak diterima lagi setelah terlalu banyak kode yang salah. Gunakan kode pemulihan atau passkey, atau minta pengelola akun Anda mereset faktor kedua',
  lastFactorRequired:
    'Faktor terakhir tidak dapat dihapus karena akun Anda wajib memakai verifikasi dua langkah',
  enrolmentExpired: 'Pendaftaran kedaluwarsa, silakan mulai lagi',
  secondFactorMissing: 'Akun ini belum memiliki faktor kedua',
  totpExists: 'Aplikasi autentikator sudah terdaftar; hapus dulu untuk menggantinya',
  passkeyExists: 'Passkey ini sudah terdaftar',
  secondFactorReset: 'Faktor kedua pengguna telah direset; pengguna mendaftarkannya lagi saat masuk',
  alreadyDestroyed: 'Laporan ini sudah ditandai dimusnahkan',
  retentionScanRunning: 'Pemeriksaan retensi sedang berjalan; coba lagi sebentar lagi',
  areaTooSmall:
    'Wilayah ini memiliki kurang dari 5 laporan; rinciannya tidak ditampilkan untuk melindungi pelapor',
  insightsNotReady: 'Data peta dan statistik sedang disiapkan, silakan coba beberapa saat lagi',
  areaFilterUnavailable:
    'Filter wilayah tidak dapat digabung dengan pencarian, nomor pengaduan, atau urutan ini',
} as const;

/**
 * Field messages whose reason a validation problem also names as its `detail` (docs/product/handling.md#dates): a caller
 * that reads only the detail (an API client, a download link, a snackbar) still learns why a date was
 * refused, not just that the data was invalid. The first field error with one wins.
 */
export const FIELD_PROBLEM_DETAILS: Readonly<Record<string, string>> = {
  [FIELD_MESSAGES.dateInvalid]: PROBLEM_MESSAGES.dateInvalid,
  [FIELD_MESSAGES.dateOutOfRange]: PROBLEM_MESSAGES.dateOutOfRange,
  [FIELD_MESSAGES.dateRangeInvalid]: PROBLEM_MESSAGES.dateRangeInvalid,
};

/** Replaces `{key}` placeholders in a template message. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/**
 * The reporter's e-mail notice of a reply (docs/product/notifications.md#pelapor): the form in the
 * success dialog and the tracked view, the confirmation and opt-out pages, the gateway's answers.
 */
/** The page of the digest's own stop link (/notifikasi/ringkasan#token). */
export const DIGEST_STOP_MESSAGES = {
  title: 'Berhenti Menerima Ringkasan Harian',
  intro:
    'Tekan tombol di bawah ini untuk berhenti menerima ringkasan harian notifikasi WBS lewat e-mail. ' +
    'Notifikasi tetap tampil di lonceng setelah Anda masuk, dan pilihan ini dapat diubah kembali di ' +
    'halaman Notifikasi.',
  button: 'Berhenti Menerima Ringkasan',
} as const;

export const REPORTER_NOTICE_MESSAGES = {
  title: 'Beri tahu saya lewat e-mail bila ada tanggapan',
  intro:
    'E-mail hanya memberi tahu bahwa ada tanggapan baru dan meminta Anda membuka Pantau Laporan. ' +
    'Nomor Pengaduan, kata sandi, dan isi laporan tidak pernah dikirim lewat e-mail.',
  throwaway:
    'Anda boleh memakai alamat e-mail terpisah atau sekali pakai, agar tidak ada yang dapat menghubungkan ' +
    'alamat itu dengan Anda. Alamat disimpan terenkripsi, tidak pernah ditunjukkan kepada petugas, dan ' +
    'dihapus bila Anda berhenti atau 30 hari setelah laporan selesai.',
  emailLabel: 'Alamat e-mail',
  emailPlaceholder: 'nama@contoh.com',
  submit: 'Kirim Tautan Konfirmasi',
  requested:
    'Bila alamat ini dapat menerima e-mail, tautan konfirmasi telah dikirim ke sana dan berlaku 48 jam. ' +
    'Pemberitahuan baru dikirim setelah tautan itu dibuka. Tidak ada e-mail? Periksa folder spam, atau ' +
    'coba lagi setelah satu jam.',
  current: 'Pemberitahuan dikirim ke {address}.',
  pending: 'Menunggu konfirmasi untuk {address}.',
  none: 'Belum ada alamat e-mail untuk pemberitahuan laporan ini.',
  replace: 'Ganti Alamat',
  stop: 'Berhenti Menerima E-mail',
  stopped: 'Pemberitahuan lewat e-mail untuk laporan ini telah dihentikan dan alamatnya dihapus.',
  confirmTitle: 'Konfirmasi E-mail Pemberitahuan',
  confirmIntro:
    'Tekan tombol di bawah untuk mulai menerima pemberitahuan bila ada tanggapan atas laporan Anda.',
  confirmButton: 'Konfirmasi',
  confirmed: 'Alamat e-mail terkonfirmasi. Kami akan memberi tahu {address} bila ada tanggapan baru.',
  confirmFailed:
    'Tautan konfirmasi ini tidak berlaku: sudah dipakai, sudah lebih dari 48 jam, atau permintaannya ' +
    'telah diganti. Minta tautan baru dari Pantau Laporan.',
  optOutTitle: 'Berhenti Menerima Pemberitahuan',
  optOutIntro:
    'Tekan tombol di bawah untuk berhenti menerima e-mail pemberitahuan dan menghapus alamat Anda.',
  optOutDone:
    'Selesai. Bila alamat ini masih terdaftar, alamat itu telah dihapus dan tidak akan menerima ' +
    'pemberitahuan lagi.',
  linkMissing: 'Tautan tidak lengkap. Salin seluruh alamat tautan dari e-mail, lalu buka kembali.',
  emailRequired: 'Alamat e-mail wajib diisi',
  emailInvalid: 'Alamat e-mail tidak valid: tulis satu alamat saja, misalnya nama@contoh.com',
  tokenInvalid: 'Tautan tidak valid',
  unavailable: 'Pengiriman e-mail sedang tidak dapat digunakan, silakan coba beberapa saat lagi',
} as const;
