/** Fixed reference lists of the legacy API (not editable through it, so not in the store). */

export const USER_TYPES = [
  { userTypeId: 1, userTypeName: 'Administrator' },
  { userTypeId: 2, userTypeName: 'Admin Perusahaan' },
  { userTypeId: 3, userTypeName: 'Partner' },
  { userTypeId: 4, userTypeName: 'Staff Perusahaan' },
  { userTypeId: 5, userTypeName: 'Staff Partner' },
  { userTypeId: 6, userTypeName: 'Pelapor' },
] as const;

export const USER_ROLES = [
  { id: 1, text: 'Supervisor' },
  { id: 2, text: 'Staff' },
] as const;

export const CHANNELS = [
  { channelId: 1, channelName: 'Desktop' },
  { channelId: 2, channelName: 'E-mail' },
  { channelId: 3, channelName: 'Telepon' },
  { channelId: 4, channelName: 'WhatsApp' },
] as const;

export const DIRECTORATES = [
  { id: 1, name: 'Direktorat Utama' },
  { id: 2, name: 'Direktorat Umum' },
  { id: 3, name: 'Direktorat Teknik' },
  { id: 4, name: 'Direktorat Keuangan' },
] as const;

/** Divisions keyed by directorate id. */
export const DIVISIONS: Record<number, { id: number; name: string }[]> = {
  1: [
    { id: 11, name: 'Satuan Pengawasan Intern' },
    { id: 12, name: 'Sekretariat Perusahaan' },
  ],
  2: [
    { id: 21, name: 'Divisi Sumber Daya Manusia' },
    { id: 22, name: 'Divisi Umum dan Pengadaan' },
    { id: 23, name: 'Divisi Hubungan Pelanggan' },
  ],
  3: [
    { id: 31, name: 'Divisi Produksi' },
    { id: 32, name: 'Divisi Distribusi' },
    { id: 33, name: 'Divisi Perencanaan Teknik' },
  ],
  4: [
    { id: 41, name: 'Divisi Keuangan' },
    { id: 42, name: 'Divisi Akuntansi' },
    { id: 43, name: 'Divisi Penagihan' },
  ],
};

export const WHISTLEBLOWER_TYPES = ['No Type', 'Pribadi', 'Instansi'] as const;
export const COMMUNICATION_TYPES = ['Telepon/HP/Whatshapp/SMS', 'Surat', 'Tatap Muka', 'Lainnya'] as const;

/** Attachment rules (spec section 5 and 9). */
export const MAX_FILE_BYTES = 10_485_760;
export const MAX_CASE_FILES = 5;
export const ALLOWED_EXTENSIONS = new Set(
  'xls xlsx zip rar doc docx pdf png jpg jpeg gif mp3 mpga mpeg mp4 mp4a mov avi 3gp ppt pptx'.split(' '),
);

export const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  mp3: 'audio/mpeg',
  mpga: 'audio/mpeg',
  mpeg: 'video/mpeg',
  mp4: 'video/mp4',
  mp4a: 'audio/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  '3gp': 'video/3gpp',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}
