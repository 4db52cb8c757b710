/** Indonesian texts of Peta Laporan and Statistik (docs/product/insights.md). */
export const INSIGHT_TEXTS = {
  mapsTitle: 'Peta Laporan',
  statisticsTitle: 'Statistik',
  dashboardTitle: 'Dashboard',
  tabsLabel: 'Bagian dashboard',
  tabSummary: 'Ringkasan',
  tabStatistics: 'Statistik',
  company: 'Perusahaan',
  allOfPartner: 'Semua perusahaan',
  wholeGroup: 'Seluruh grup',
  exportPng: 'Ekspor PNG',
  exportXlsx: 'Ekspor XLSX',
  exportCsv: 'Ekspor CSV',
  loadFailed: 'Data gagal dimuat.',
  retry: 'Coba lagi',
  // Peta Laporan
  mapLabel: (total: number) => `Peta provinsi Indonesia dengan jumlah laporan, total ${total}`,
  mapHint:
    'Klik provinsi dengan 5 laporan atau lebih untuk melihat kota dan kabupatennya. Angka di bawah 5 ditampilkan "<5".',
  tableCaption: 'Jumlah laporan per provinsi',
  province: 'Provinsi',
  city: 'Kota/Kabupaten',
  count: 'Jumlah',
  total: 'Total laporan',
  small: '<5',
  smallLegend: '1–4 laporan (ditampilkan "<5")',
  noneLegend: 'Tidak ada laporan',
  legend: 'Keterangan warna',
  unlocated: 'Tanpa lokasi',
  unlocatedHint: 'Laporan anonim dan laporan yang tidak menyebut provinsi.',
  cityUnlocated: 'Tanpa kota/kabupaten',
  unread: (n: number) =>
    `${n} laporan belum terbaca lokasinya dari sistem laporan dan belum dihitung di peta.`,
  backToMap: 'Kembali ke peta',
  citiesTitle: (province: string) => `Laporan per kota dan kabupaten: ${province}`,
  citiesCaption: (province: string) => `Jumlah laporan per kota dan kabupaten di ${province}`,
  citiesEmpty: 'Tidak ada kota atau kabupaten dengan 5 laporan atau lebih untuk digambar.',
  openCases: 'Buka daftar laporan',
  openProvinceCases: (name: string) => `Buka daftar laporan ${name}`,
  mapEmpty: 'Tidak ada laporan pada periode ini.',
  credit: 'Batas wilayah provinsi:',
  creditSource: 'Indonesia GeoJSON & TopoJSON Maps (38 Provinces)',
  creditAuthor: 'oleh denyherianto,',
  creditLicense: 'CC BY 4.0',
  creditUnchanged: '(data tidak diubah).',
  // Statistik
  filed: 'Laporan masuk',
  closed: 'Laporan selesai',
  ackMedian: 'Median hari hingga tanda terima',
  ackP90: 'Persentil 90 hari hingga tanda terima',
  answerMedian: 'Median hari hingga tanggapan',
  answerP90: 'Persentil 90 hari hingga tanggapan',
  ackWithin: 'Tanda terima tepat tenggat',
  answerWithin: 'Tanggapan tepat tenggat',
  anonymousShare: 'Laporan anonim',
  returnedShare: 'Pelapor kembali',
  returnedHint: 'Pelapor yang memantau atau membalas setelah melapor.',
  measured: (n: number) => `dari ${n} laporan yang terukur`,
  ofFiled: (n: number) => `dari ${n} laporan masuk`,
  anonymousOf: (anonymous: number, known: number, unknown: number) =>
    `${anonymous} dari ${known} laporan${unknown ? ` (${unknown} belum terbaca)` : ''}`,
  days: (n: number) => `${formatNumber(n)} hari`,
  none: '–',
  keyFigures: 'Angka utama',
  filedPerMonth: 'Laporan Masuk per Bulan',
  closedPerMonth: 'Laporan Selesai per Bulan',
  perChannel: 'Laporan per Saluran',
  perOutcome: 'Hasil Akhir Laporan',
  month: 'Bulan',
  channel: 'Saluran',
  outcome: 'Status akhir',
  statisticsEmpty: 'Tidak ada laporan pada periode ini.',
  companiesTitle: 'Statistik per Perusahaan',
  companiesCaption: 'Angka utama per perusahaan',
} as const;

/** Indonesian decimal comma, at most one decimal. */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat('id-ID', { maximumFractionDigits: 1 }).format(n);
}

/** A share 0–1 as a whole-ish percentage, '–' when there is nothing to measure. */
export function formatShare(share: number | null): string {
  return share === null ? INSIGHT_TEXTS.none : `${formatNumber(share * 100)}%`;
}
