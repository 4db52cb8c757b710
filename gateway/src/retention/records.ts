/**
 * The records of processing (Catatan Pemrosesan Data, UU 27/2022 article 31), generated from what
 * runs: the retention settings, the store engine, whether mail goes out, the second-factor policy and
 * who may see what (shared/src/permissions.ts). Nothing here is written by hand per deployment, so the
 * records cannot drift from the product. Plain inputs; all texts Indonesian.
 */

import type { ProcessingActivity, ProcessingRecordsReply } from '@wbs/shared/api/retention';
import { USER_TYPE_IDS, type UserTypeId } from '@wbs/shared/constants';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { type Action, can, USER_TYPE_NAMES } from '@wbs/shared/permissions';
import { DISPOSAL_GRACE_DAYS } from '@wbs/shared/retention';

export type ProcessingInputs = {
  now: Date;
  defaultMonths: number;
  /** Companies with their own period, by name. */
  ownPeriods: readonly { companyName: string; months: number }[];
  storeEngine: 'postgresql' | 'pglite';
  mailOn: boolean;
  /** User types that must sign in with a second factor. */
  secondFactorTypes: readonly number[];
};

/** Who an action's rule lets in, as user type names (the role flag of types 4 and 5 noted). */
function whoMay(action: Action): string[] {
  const names: string[] = [];
  for (const type of USER_TYPE_IDS) {
    const plain = can({ userTypeId: type as UserTypeId, role: 2 }, action);
    const privileged = can({ userTypeId: type as UserTypeId, role: 1 }, action);
    if (plain) names.push(USER_TYPE_NAMES[type as UserTypeId]);
    else if (privileged) names.push(`${USER_TYPE_NAMES[type as UserTypeId]} (peran khusus penanganan)`);
  }
  return names;
}

const union = (...lists: string[][]) => [...new Set(lists.flat())];

export function processingRecords(inputs: ProcessingInputs): ProcessingRecordsReply {
  const store =
    inputs.storeEngine === 'postgresql'
      ? 'Penyimpanan gateway (PostgreSQL), isi pesan dan alamat e-mail dienkripsi AES-256-GCM'
      : 'Penyimpanan gateway (PostgreSQL tertanam/PGlite di server gateway), isi pesan dan alamat e-mail dienkripsi AES-256-GCM';
  const own = inputs.ownPeriods.map((p) => `${p.companyName}: ${p.months} bulan`);
  const retention =
    `${inputs.defaultMonths} bulan sejak laporan mencapai status akhir (bawaan grup)` +
    (own.length > 0 ? `; masa retensi sendiri: ${own.join(', ')}` : '') +
    '. Setelah itu gateway menghapus datanya sendiri dan laporan masuk Register Pemusnahan; ' +
    `petugas memusnahkannya di sistem WBS lama paling lambat ${DISPOSAL_GRACE_DAYS} hari kemudian.`;
  const secondFactor =
    inputs.secondFactorTypes.length > 0
      ? `Verifikasi dua langkah wajib bagi: ${inputs.secondFactorTypes
          .map((t) => USER_TYPE_NAMES[t as UserTypeId] ?? `tipe ${t}`)
          .join(', ')}.`
      : 'Verifikasi dua langkah tidak diwajibkan.';
  const legalObligation =
    'Kewajiban hukum dan kepentingan yang sah pengendali (UU 27/2022 Pasal 20 ayat (2) huruf c dan f); ' +
    'perlindungan pelapor pelanggaran';
  const activities: ProcessingActivity[] = [
    {
      name: 'Penerimaan dan penanganan laporan pelanggaran',
      purpose:
        'Menerima laporan dugaan pelanggaran, menelaah, dan menindaklanjutinya sampai selesai; ' +
        'memantau tenggat penanganan.',
      subjects: 'Pelapor (bernama atau anonim), pihak terlapor, pihak yang diduga terlibat, saksi',
      dataCategories: [
        'Identitas dan kontak pelapor (bila tidak anonim)',
        'Uraian kejadian, pihak terlapor dan yang diduga terlibat',
        'Lampiran bukti',
        'Catatan aktivitas penanganan dan status laporan',
      ],
      storedIn:
        'Sistem WBS lama (legacy); gateway hanya menyimpan indeks fakta laporan (id, status, jalur, ' +
        'kategori, waktu) tanpa nama, kontak, atau Nomor Pengaduan',
      access: union(whoMay('cases:read')),
      retention,
      legalBasis: legalObligation,
    },
    {
      name: 'Identitas dan kontak pelapor',
      purpose: 'Menghubungi pelapor yang tidak anonim bila diperlukan untuk penanganan.',
      subjects: 'Pelapor yang tidak anonim',
      dataCategories: ['Nama', 'E-mail', 'Nomor telepon', 'Alamat dan unit kerja'],
      storedIn: 'Sistem WBS lama (legacy); gateway menyamarkan kontak dan mencatat setiap pembukaannya',
      access: union(whoMay('case-reporter:read')),
      retention,
      legalBasis: `${legalObligation}; persetujuan pelapor yang memilih tidak anonim`,
    },
    {
      name: 'Pesan antara penangan dan pelapor',
      purpose: 'Komunikasi dua arah tentang laporan tanpa membuka identitas pelapor.',
      subjects: 'Pelapor, penangan laporan',
      dataCategories: ['Isi pesan', 'Nama tampilan penangan', 'Waktu pesan'],
      storedIn: store,
      access: union(whoMay('case-messages:read'), ['Pelapor pemegang Nomor Pengaduan dan kata sandi']),
      retention,
      legalBasis: legalObligation,
    },
    {
      name: 'Riwayat akses identitas pelapor',
      purpose: 'Memberi tahu pelapor kapan dan oleh peran apa identitas atau kontaknya dibuka.',
      subjects: 'Pelapor',
      dataCategories: ['Waktu akses', 'Tipe pengguna dan peran pembaca (tanpa nama)'],
      storedIn: store,
      access: union(whoMay('identity-access:read-own'), ['Pelapor pemegang Nomor Pengaduan dan kata sandi']),
      retention,
      legalBasis: legalObligation,
    },
    {
      name: 'Pemberitahuan e-mail kepada pelapor',
      purpose: 'Memberi tahu pelapor bahwa ada tanggapan baru, atas permintaannya sendiri.',
      subjects: 'Pelapor yang meminta pemberitahuan',
      dataCategories: ['Alamat e-mail (terenkripsi)', 'Waktu konfirmasi dan pengiriman'],
      storedIn: inputs.mailOn
        ? `${store}; dikirim lewat server surel (SMTP)`
        : `${store}; pengiriman surel tidak aktif`,
      access: ['Tidak dapat dibaca oleh pengguna mana pun; hanya dipakai untuk mengirim surel'],
      retention: `30 hari setelah laporan mencapai status akhir, atau saat masa retensi laporan berakhir bila lebih dahulu`,
      legalBasis: 'Persetujuan pelapor (UU 27/2022 Pasal 20 ayat (2) huruf a)',
    },
    {
      name: 'Notifikasi penangan',
      purpose: 'Memberi tahu penangan tentang laporan baru, perubahan, dan tenggat.',
      subjects: 'Pengguna staf',
      dataCategories: ['Alamat e-mail staf (terenkripsi)', 'Jenis notifikasi, perusahaan dan id laporan'],
      storedIn: inputs.mailOn
        ? `${store}; dikirim lewat server surel (SMTP)`
        : `${store}; pengiriman surel tidak aktif`,
      access: union(whoMay('notices:read').map((n) => `${n} (notifikasinya sendiri)`)),
      retention: 'Tautan notifikasi ke laporan dihapus saat masa retensi laporan berakhir',
      legalBasis: 'Kepentingan yang sah pengendali (penanganan tepat waktu)',
    },
    {
      name: 'Jejak audit tindakan staf',
      purpose: 'Membuktikan siapa melakukan apa terhadap laporan dan data induk, tanpa isi laporan.',
      subjects: 'Pengguna staf',
      dataCategories: ['Id dan tipe pengguna', 'Tindakan, waktu, id laporan dan perusahaan (fakta saja)'],
      storedIn: `${store}; rantai hash yang dapat diverifikasi`,
      access: union(whoMay('audit-trail:export')),
      retention: 'Disimpan selama sistem dipakai (tanpa identitas pelapor dan isi laporan)',
      legalBasis: legalObligation,
    },
    {
      name: 'Akun staf dan verifikasi dua langkah',
      purpose: `Masuk ke sistem dengan aman. ${secondFactor}`,
      subjects: 'Pengguna staf',
      dataCategories: [
        'Nama pengguna',
        'Rahasia aplikasi autentikator (terenkripsi)',
        'Kunci publik passkey',
      ],
      storedIn: `Sistem WBS lama (akun); ${store} (faktor kedua)`,
      access: union(whoMay('second-factors:own').map((n) => `${n} (miliknya sendiri)`)),
      retention: 'Selama akun aktif; dihapus saat faktor direset',
      legalBasis: 'Kewajiban keamanan pemrosesan (UU 27/2022 Pasal 35)',
    },
  ];
  return {
    generatedAt: wibWallTime(inputs.now),
    controller:
      'Grup perusahaan pengguna WBS sebagai pengendali data pribadi; Administrator (tipe pengguna 1) ' +
      'sebagai pejabat pelindungan data pribadi',
    activities,
  };
}
