/**
 * The attachment policy of every upload place (spec §5 "Attachments", §9): allowed extensions, the
 * content each extension may hold (checked on the bytes with file-type, never on the client's MIME
 * type), the per-file size, duplicate names and counts. Messages are the spec's, via shared/messages.
 *
 * Content mapping (file-type 22 result `ext` accepted for each allowed extension), written down in
 * docs/adr/0005-attachment-content-check.md:
 * - pdf ← pdf, ai (Illustrator files are PDF files with extra private data)
 * - png ← png, apng; jpg/jpeg ← jpg; gif ← gif
 * - docx ← docx; xlsx ← xlsx; pptx ← pptx: file-type reads [Content_Types].xml inside the zip, so a
 *   renamed .zip, .docm (macros) or .odt is refused as a mismatch
 * - zip ← zip and every zip-based format file-type names (docx, xlsx, epub, jar…): all are zip archives
 * - doc/xls/ppt ← cfb (the OLE2 container cannot be told apart without parsing its streams);
 *   doc also ← rtf (Word saves RTF under .doc)
 * - rar ← rar
 * - mp3/mpga ← mp3, mp2, mp1 (MPEG audio; an ID3 tag is skipped by file-type)
 * - mpeg ← mpg (MPEG-PS, MPEG-1/2 video), mts (MPEG-TS)
 * - mp4/mp4a/mov/3gp ← the ISO-BMFF family (mp4, m4v, m4a, m4b, m4p, f4v, f4a, f4b, f4p, mov, 3gp,
 *   3g2): one container, the brand only says which player wrote it; mp4a also ← aac (raw ADTS)
 * - avi ← avi
 * A file file-type cannot identify at all is refused: every allowed format has a signature it knows.
 */
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES } from '@wbs/shared/constants';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';

export type AttachmentExtension = (typeof ATTACHMENT_EXTENSIONS)[number];

const ISO_BMFF = ['mp4', 'm4v', 'm4a', 'm4b', 'm4p', 'f4v', 'f4a', 'f4b', 'f4p', 'mov', '3gp', '3g2'];
const MPEG_AUDIO = ['mp3', 'mp2', 'mp1'];
const OLE2 = ['cfb'];
const ZIP_BASED = [
  'zip',
  'docx',
  'xlsx',
  'pptx',
  'docm',
  'xlsm',
  'pptm',
  'dotx',
  'dotm',
  'xltx',
  'xltm',
  'potx',
  'potm',
  'ppsx',
  'ppsm',
  'vsdx',
  'odt',
  'ods',
  'odp',
  'odg',
  'ott',
  'ots',
  'otp',
  'otg',
  'epub',
  'jar',
  'apk',
  'xpi',
  'kmz',
  '3mf',
  'key',
  'numbers',
  'pages',
];

export const CONTENT_BY_EXTENSION: Record<AttachmentExtension, readonly string[]> = {
  pdf: ['pdf', 'ai'],
  png: ['png', 'apng'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  pptx: ['pptx'],
  zip: ZIP_BASED,
  doc: [...OLE2, 'rtf'],
  xls: OLE2,
  ppt: OLE2,
  rar: ['rar'],
  mp3: MPEG_AUDIO,
  mpga: MPEG_AUDIO,
  mpeg: ['mpg', 'mts'],
  mp4: ISO_BMFF,
  mp4a: [...ISO_BMFF, 'aac'],
  mov: ISO_BMFF,
  '3gp': ISO_BMFF,
  avi: ['avi'],
};

const ALLOWED = new Set<string>(ATTACHMENT_EXTENSIONS);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isAllowedExtension(ext: string): ext is AttachmentExtension {
  return ALLOWED.has(ext);
}

/** Whether the detected content (file-type `ext`, or undefined when unknown) fits the extension. */
export function contentMatches(ext: AttachmentExtension, detected: string | undefined): boolean {
  return detected !== undefined && CONTENT_BY_EXTENSION[ext].includes(detected);
}

/**
 * The name as stored: the last path segment (old browsers send full paths), without control
 * characters, at most 200 characters (keeping the extension).
 */
export function cleanFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  if (base.length <= 200) return base;
  const ext = extensionOf(base);
  return ext ? `${base.slice(0, 199 - ext.length)}.${ext}` : base.slice(0, 200);
}

/** The only escapes the form-data encoding writes in a `filename`, and what each stands for. */
const FORM_DATA_ESCAPES: Readonly<Record<string, string>> = { '%22': '"', '%0D': '\r', '%0A': '\n' };

/**
 * A part's `filename` as the HTML multipart/form-data encoding writes it, back to the name itself
 * (docs/adr/0048-form-data-file-names.md). Browsers write `"` as `%22`, CR as `%0D` and LF as `%0A` there
 * and escape nothing
 * else (`%` stays `%`); undici's FormData, which sends our uploads on to the legacy, does the same, so
 * the legacy stores names in that form too. Decoding exactly these three (upper case, as written) is
 * the inverse; CR and LF then go as every control character does (cleanFileName). A name that held
 * the text `%22` itself cannot be told apart and reads as `"`.
 */
export function formDataFileName(written: string): string {
  return written.replace(/%22|%0D|%0A/g, (sequence) => FORM_DATA_ESCAPES[sequence] ?? sequence);
}

/**
 * A file name as the legacy stores it (form-data written), as people read it: the real name, cleaned
 * like an upload's; null when nothing is left. Every name of a legacy file leaves the gateway this way:
 * case and log attachments, Tambah Bukti's reply, download names.
 */
export function shownFileName(stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined) return null;
  const name = cleanFileName(formDataFileName(stored));
  return name === '' || name === '.' || name === '..' ? null : name;
}

export const MAX_FILE_BYTES = ATTACHMENT_MAX_BYTES;

export const fileMessages = {
  tooLarge: (name: string) => format(TEMPLATE_MESSAGES.fileTooLarge, { name }),
  duplicate: (name: string) => format(TEMPLATE_MESSAGES.fileDuplicate, { name }),
  notAllowed: (name: string) => format(TEMPLATE_MESSAGES.fileTypeNotAllowed, { name }),
  mismatch: (name: string) => format(TEMPLATE_MESSAGES.fileContentMismatch, { name }),
  tooMany: (limit: number) => format(TEMPLATE_MESSAGES.tooManyAttachments, { limit }),
};
