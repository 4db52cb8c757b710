/**
 * Removes identifying metadata from uploaded files before they leave the gateway (the list of what
 * is and is not scrubbed is in docs/decisions.md):
 * - JPEG, PNG, GIF: re-encoded by sharp (libvips), which writes no EXIF/GPS, XMP, IPTC, comments,
 *   embedded thumbnails or data trailing the image; the EXIF orientation is applied to the pixels
 *   first so the picture still shows upright. Animated PNG (APNG) is left as it is (sharp would keep
 *   only the first frame).
 * - PDF: pdf-lib drops the document information dictionary (Author, Creator, Producer, Title,
 *   Subject, Keywords, dates), every XMP metadata stream, the trailer /ID and /PieceInfo, and
 *   rewrites the file without its earlier incremental revisions.
 * - DOCX, XLSX, PPTX: the zip is rewritten with docProps/core.xml (creator, lastModifiedBy, dates…),
 *   docProps/app.xml (Company, Manager, Template, editing time…) and docProps/custom.xml emptied, and
 *   every entry's timestamp set to one fixed date.
 * Everything else (video, audio, zip, rar, .doc/.xls/.ppt) is forwarded unchanged.
 *
 * An image sharp cannot re-encode (corrupt, or over the pixel limit) is refused with a field error:
 * photos are where location data hides, and a reporter can re-save a picture. A document the library
 * cannot process (encrypted or damaged PDF, odd zip) is forwarded unchanged with an ops log line:
 * such files often come from third parties and cannot be changed by the reporter, and refusing them
 * would lose the report; their type already passed the check.
 *
 * Work is bounded: at most `SCRUB_CONCURRENCY` files at once per process, one file in memory at a
 * time for PDFs, a pixel-count limit for images, entry and size limits for Office zips.
 */
import { createWriteStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyBaseLogger } from 'fastify';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream } from 'pdf-lib';
import sharp from 'sharp';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { ApiProblem } from '../errors.ts';
import type { SpooledFile } from './spool.ts';

/** Two files at once: the machine has two cores, and a PDF is held in memory while it is rewritten. */
export const SCRUB_CONCURRENCY = 2;
/** 50 megapixels covers phone cameras (12–50 MP) and keeps a decoded image around 200 MB at worst. */
const MAX_IMAGE_PIXELS = 50_000_000;
const MAX_ZIP_ENTRIES = 10_000;
const MAX_ZIP_UNCOMPRESSED = 512 * 1024 * 1024;
/** DOS timestamps carry local time: one fixed date for every entry tells nothing about the author. */
const FIXED_ZIP_DATE = new Date(1980, 0, 1, 0, 0, 0);

sharp.cache(false);
sharp.concurrency(1);

export type ScrubKind = 'image' | 'pdf' | 'office' | 'none';

export function scrubKindOf(detected: string): ScrubKind {
  if (detected === 'jpg' || detected === 'png' || detected === 'gif') return 'image';
  if (detected === 'pdf' || detected === 'ai') return 'pdf';
  if (detected === 'docx' || detected === 'xlsx' || detected === 'pptx') return 'office';
  return 'none';
}

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= SCRUB_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

async function scrubImage(file: SpooledFile, out: string): Promise<void> {
  const input = sharp(file.path, {
    limitInputPixels: MAX_IMAGE_PIXELS,
    failOn: 'error',
    animated: file.detected === 'gif',
  });
  if (file.detected === 'jpg') {
    // Quality 92 without chroma subsampling keeps evidence legible (text in photos of documents).
    await input.autoOrient().jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toFile(out);
  } else if (file.detected === 'png') {
    await input.autoOrient().png({ compressionLevel: 9 }).toFile(out);
  } else {
    await input.gif().toFile(out);
  }
}

const PDF_INFO_KEYS = ['Author', 'Creator', 'Producer'].map((key) => PDFName.of(key));

async function scrubPdf(file: SpooledFile, out: string): Promise<void> {
  const doc = await PDFDocument.load(await readFile(file.path), {
    // pdf-lib would otherwise write its own Producer and fresh dates into a new Info dictionary.
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
  const { context } = doc;
  const info = context.trailerInfo.Info;
  if (info instanceof PDFRef) context.delete(info);
  context.trailerInfo.Info = undefined;
  context.trailerInfo.ID = undefined;
  const metadata = PDFName.of('Metadata');
  const pieceInfo = PDFName.of('PieceInfo');
  const type = PDFName.of('Type');
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null;
    if (!dict) continue;
    if (object instanceof PDFRawStream && dict.get(type) === metadata) {
      context.delete(ref);
      continue;
    }
    dict.delete(metadata);
    dict.delete(pieceInfo);
    // An Info dictionary of an earlier revision (another object number) would survive as an orphan.
    if (!dict.has(type) && PDF_INFO_KEYS.some((key) => dict.has(key))) {
      for (const key of dict.keys()) dict.delete(key);
    }
  }
  await writeFile(out, await doc.save({ updateFieldAppearances: false }), { mode: 0o600 });
}

const CORE_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
  'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>';
const APP_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ' +
  'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"/>';
const CUSTOM_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ' +
  'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"/>';
const OFFICE_METADATA: Record<string, string> = {
  'docprops/core.xml': CORE_XML,
  'docprops/app.xml': APP_XML,
  'docprops/custom.xml': CUSTOM_XML,
};

const openZip = promisify(yauzl.open) as (path: string, options: yauzl.Options) => Promise<yauzl.ZipFile>;

async function scrubOffice(file: SpooledFile, out: string): Promise<void> {
  const zip = await openZip(file.path, { lazyEntries: true, autoClose: false, strictFileNames: false });
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) throw new Error('too many zip entries');
    const entries: yauzl.Entry[] = [];
    let uncompressed = 0;
    for await (const entry of zip.eachEntry()) {
      uncompressed += entry.uncompressedSize;
      if (uncompressed > MAX_ZIP_UNCOMPRESSED) throw new Error('zip expands too much');
      entries.push(entry);
    }
    const writer = new yazl.ZipFile();
    const written = pipeline(writer.outputStream as Readable, createWriteStream(out, { mode: 0o600 }));
    for (const entry of entries) {
      const name = entry.fileName;
      if (name.endsWith('/')) {
        writer.addEmptyDirectory(name, { mtime: FIXED_ZIP_DATE });
        continue;
      }
      const replacement = OFFICE_METADATA[name.toLowerCase()];
      if (replacement !== undefined) {
        writer.addBuffer(Buffer.from(replacement, 'utf8'), name, { mtime: FIXED_ZIP_DATE, compress: true });
        continue;
      }
      writer.addReadStreamLazy(
        name,
        { mtime: FIXED_ZIP_DATE, compress: entry.compressionMethod !== 0, size: entry.uncompressedSize },
        (done) => zip.openReadStream(entry, done),
      );
    }
    writer.end();
    await written;
  } finally {
    zip.close();
  }
}

/**
 * The file with its metadata removed: a new spooled copy (same name and field) or, when there is
 * nothing to scrub or the library refused the file, the file itself.
 */
export async function scrubFile(file: SpooledFile, log: FastifyBaseLogger): Promise<SpooledFile> {
  const kind = scrubKindOf(file.detected);
  if (kind === 'none') return file;
  const out = `${file.path}.scrubbed`;
  try {
    await withSlot(async () => {
      if (kind === 'image') await scrubImage(file, out);
      else if (kind === 'pdf') await scrubPdf(file, out);
      else await scrubOffice(file, out);
    });
  } catch (error) {
    // Only the kind and the library's error class: never the file name (it may name the reporter).
    log.warn(
      { scrub: kind, detected: file.detected, reason: (error as Error)?.name },
      'metadata not scrubbed',
    );
    if (kind === 'image') {
      throw new ApiProblem('validation', {
        errors: { [file.field]: format(TEMPLATE_MESSAGES.fileNotProcessable, { name: file.name }) },
      });
    }
    return file;
  }
  const { size } = await stat(out);
  return { ...file, path: out, size };
}

/** Every file of an upload, scrubbed one after the other (the slots bound the whole process). */
export async function scrubFiles(
  files: readonly SpooledFile[],
  log: FastifyBaseLogger,
): Promise<SpooledFile[]> {
  const scrubbed: SpooledFile[] = [];
  for (const file of files) scrubbed.push(await scrubFile(file, log));
  return scrubbed;
}
