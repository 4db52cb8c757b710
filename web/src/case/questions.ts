/** The 15 numbered questions of step 2 (Laporan Dugaan Pelanggaran). */
export type QuestionField =
  | 'what'
  | 'where'
  | 'when'
  | 'perpetrator'
  | 'directorate'
  | 'division'
  | 'how'
  | 'involved'
  | 'financialLoss'
  | 'occurredBefore'
  | 'reportedToBefore'
  | 'perpetratorResponse'
  | 'repeatReason'
  | 'identificationReason';

export type Question = {
  field: QuestionField;
  text: string;
  /** 'long': text area (500 characters); 'short': single line (50 characters). */
  kind: 'long' | 'short';
  required: boolean;
  placeholder?: string;
};

export const QUESTIONS: readonly Question[] = [
  {
    field: 'what',
    text: 'Apa kejadian atau dugaan pelanggaran yang ingin Anda laporkan?',
    kind: 'long',
    required: true,
  },
  {
    field: 'where',
    text: 'Di mana kejadian tersebut terjadi?',
    kind: 'short',
    required: true,
    placeholder: 'Lokasi / kantor / unit',
  },
  {
    field: 'when',
    text: 'Kapan kejadian tersebut terjadi?',
    kind: 'short',
    required: true,
    placeholder: 'Tanggal atau perkiraan waktu',
  },
  { field: 'perpetrator', text: 'Siapa nama dan jabatan terlapor?', kind: 'short', required: true },
  { field: 'directorate', text: 'Di Unit Direktorat mana terlapor bertugas?', kind: 'short', required: true },
  { field: 'division', text: 'Di Unit Divisi mana terlapor bertugas?', kind: 'short', required: true },
  {
    field: 'how',
    text: 'Bagaimana kejadian tersebut terjadi? Jelaskan kronologinya.',
    kind: 'long',
    required: true,
  },
  {
    field: 'involved',
    text: 'Siapa saja pihak lain yang terlibat beserta jabatannya?',
    kind: 'long',
    required: false,
  },
  {
    field: 'financialLoss',
    text: 'Berapa perkiraan kerugian keuangan yang ditimbulkan?',
    kind: 'long',
    required: false,
  },
  {
    field: 'occurredBefore',
    text: 'Apakah kejadian serupa pernah terjadi sebelumnya? Jika ya, jelaskan.',
    kind: 'long',
    required: false,
  },
  {
    field: 'reportedToBefore',
    text: 'Apakah Anda pernah melaporkan kejadian ini kepada pihak lain? Jika ya, kepada siapa dan bagaimana tanggapannya?',
    kind: 'long',
    required: false,
  },
  {
    field: 'perpetratorResponse',
    text: 'Apakah terlapor mengetahui bahwa perbuatannya diketahui orang lain? Apa yang dikatakan atau dilakukannya?',
    kind: 'long',
    required: false,
  },
  {
    field: 'repeatReason',
    text: 'Menurut Anda, mengapa kejadian ini dapat terjadi atau terulang?',
    kind: 'long',
    required: false,
  },
  {
    field: 'identificationReason',
    text: 'Bagaimana Anda mengetahui kejadian ini (melihat langsung, mendengar dari pihak lain, atau melalui dokumen)?',
    kind: 'long',
    required: false,
  },
];

/** Question 15 (Ya/Tidak plus a reason). */
export const PROTECTION_QUESTION = 'Apakah Anda memerlukan perlindungan sebagai pelapor?';
export const PROTECTION_REASON_LABEL = 'Alasan memerlukan perlindungan';
