/**
 * The scrubbing itself, run inside a worker thread of the scrub pool (scrub.ts): never on the main
 * thread, so a file that is slow, huge or hostile costs one worker (which the pool can terminate)
 * and never the event loop that answers everyone else. Plain code only: Node loads this file itself
 * (type stripping), without the project's test or build transforms.
 * - JPEG, PNG, GIF: re-encoded by sharp (libvips), which writes no EXIF/GPS, XMP, IPTC, comments,
 *   embedded thumbnails or data trailing the image; the EXIF orientation is applied to the pixels
 *   first so the picture still shows upright.
 * - PDF: pdf-lib keeps only the objects reachable from the document catalog (an earlier revision's
 *   Info dictionary, also one inside a compressed object stream, is unreachable once the trailer no
 *   longer names it), clears every Info-like dictionary that is still reachable, drops every XMP
 *   metadata stream, `/PieceInfo` and the trailer `/ID`, and rewrites the file without its history.
 *   A file asking pdf-lib to parse more than MAX_PDF_OBJECTS objects is too heavy (`too-many-objects`):
 *   that is where a PDF's work goes, and a count says the same on a quiet and on a busy machine.
 * - DOCX, XLSX, PPTX: the zip is rewritten with docProps/core.xml, app.xml and custom.xml emptied
 *   and every entry's timestamp set to one fixed date. Every stream error (an entry inflating to more
 *   or fewer bytes than it declares, a truncated entry, an unknown compression method) rejects the
 *   task instead of escaping as an unhandled 'error' event.
 */
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isMainThread, type MessagePort, threadId } from 'node:worker_threads';
import {
  ParseSpeeds,
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import type Sharp from 'sharp';
import type Yauzl from 'yauzl';
import type Yazl from 'yazl';
import { startGarbageCollection } from './garbage.ts';

export type ScrubTask = {
  kind: 'image' | 'pdf' | 'office';
  detected: string;
  path: string;
  out: string;
  /** Bytes of the file at `path` (a large one is followed by a garbage collection). */
  size: number;
  /** Told when the work begins (the pool's limits start then): which thread, and its CPU time so far. */
  started?: MessagePort;
};

/** What the pool hears when a file's work begins: the thread's id and its CPU time until then. */
export type ScrubStarted = { threadId: number; cpu: NodeJS.CpuUsage };

/** `scrubbed`: the result is at `out`; `too-many-objects`: the file asks more than the scrubber takes. */
export type ScrubResult = 'scrubbed' | 'too-many-objects';

/**
 * The most objects a PDF may ask pdf-lib to parse, counting those inside object streams and each
 * revision's copy. Real documents hold thousands to tens of thousands (a 1,000-page scan ~5,000); the
 * 300,000 tiny objects of the hostile-file corpus are a heavy but valid PDF and pass. Parsing is
 * ~8 µs of CPU per object, so this bounds a PDF's parse at ~4 s of CPU, well inside SCRUB_CPU_MS
 * (gateway/bench/HISTORY.md, hostile uploads).
 */
export const MAX_PDF_OBJECTS = 500_000;

/** 50 megapixels covers phone cameras (12–50 MP) and keeps a decoded image around 200 MB at worst. */
const MAX_IMAGE_PIXELS = 50_000_000;
const MAX_ZIP_ENTRIES = 10_000;
/** Office files are mostly already-compressed images: 200 MB inflated is far beyond any real one. */
const MAX_ZIP_UNCOMPRESSED = 200 * 1024 * 1024;
/** DOS timestamps carry local time: one fixed date for every entry tells nothing about the author. */
const FIXED_ZIP_DATE = new Date(1980, 0, 1, 0, 0, 0);

/**
 * sharp (libvips, ~28 MB of resident native code and data per process) and the zip libraries are
 * loaded by the first file that needs them, not with the worker: a worker scrubbing only PDFs, the
 * common case, never carries them (docs/adr/0042-upload-memory-given-back-early.md).
 */
let sharpLoaded: Promise<typeof Sharp> | null = null;
function loadSharp(): Promise<typeof Sharp> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoaded;
}
type Zip = { yauzl: typeof Yauzl; yazl: typeof Yazl };
let zipLoaded: Promise<Zip> | null = null;
function loadZip(): Promise<Zip> {
  zipLoaded ??= Promise.all([import('yauzl'), import('yazl')]).then(([reader, writer]) => ({
    yauzl: reader.default,
    yazl: writer.default,
  }));
  return zipLoaded;
}
// pdf-lib reports every damaged object with console.log/warn: in a worker that would reach the
// gateway's stdout as unstructured lines between the JSON logs. The task's outcome is what counts.
if (!isMainThread) {
  console.log = () => {};
  console.warn = () => {};
}

/**
 * From this size on, a file is followed by a garbage collection (garbage.ts): a 10 MB PDF leaves
 * ~30 MB of buffers behind (the file read, pdf-lib's copies of its streams, the rewritten file), and
 * the next file's came on top of them (one worker scrubbing 10 MB PDFs one after the other: peak
 * +84 → +64 MB over the idle process). Not after small files: they leave little behind, and a
 * collection after each of them doubled the time of a run of 400 small fuzzed files.
 */
const COLLECT_AFTER_BYTES = 2 * 1024 * 1024;

async function scrubImage(task: ScrubTask, sharp: typeof Sharp): Promise<void> {
  const input = sharp(task.path, {
    limitInputPixels: MAX_IMAGE_PIXELS,
    failOn: 'error',
    animated: task.detected === 'gif',
  });
  if (task.detected === 'jpg') {
    // Quality 92 without chroma subsampling keeps evidence legible (text in photos of documents).
    await input.autoOrient().jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toFile(task.out);
  } else if (task.detected === 'png') {
    await input.autoOrient().png({ compressionLevel: 9 }).toFile(task.out);
  } else {
    await input.gif().toFile(task.out);
  }
}

/** Keys only a document information dictionary carries together (outline items have a Title too). */
const INFO_KEYS = ['Author', 'Creator', 'Producer', 'CreationDate', 'ModDate', 'Keywords', 'Trapped'].map(
  (key) => PDFName.of(key),
);
const TYPE = PDFName.of('Type');
const SUBTYPE = PDFName.of('Subtype');
const METADATA = PDFName.of('Metadata');
const PIECE_INFO = PDFName.of('PieceInfo');

function dictOf(object: PDFObject | undefined): PDFDict | null {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFStream) return object.dict;
  return null;
}

/** Every object reachable from the trailer's Root (and Encrypt), iteratively (no recursion depth). */
function reachableRefs(context: PDFContext): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const stack: PDFObject[] = [];
  for (const key of ['Root', 'Encrypt'] as const) {
    const value = context.trailerInfo[key];
    if (value) stack.push(value);
  }
  while (stack.length > 0) {
    const object = stack.pop();
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      stack.push(context.lookup(object) as PDFObject);
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) stack.push(object.get(i));
    } else {
      const dict = dictOf(object);
      if (dict) for (const value of dict.values()) stack.push(value);
    }
  }
  return seen;
}

class TooManyObjects extends Error {}
/**
 * What each PDF being loaded may still ask for, by the context its parser fills (below 0: refused).
 * Per load, not one count for the thread: the main-thread baseline loads two files at once.
 */
const budgets = new WeakMap<PDFContext, { left: number }>();
const refuse = (budget: { left: number }): never => {
  budget.left = -1;
  throw new TooManyObjects();
};
// pdf-lib has no hook for how much it has parsed, but every load starts here, and every object it
// parses, in the file's body or inside an object stream, is put into the context by `assign`.
// Throwing ends the load: pdf-lib parses an object that failed again as an invalid one, whose
// `assign` throws too, and that throw is not caught.
const forBytes = PDFParser.forBytesWithOptions;
PDFParser.forBytesWithOptions = (...args: Parameters<typeof forBytes>) => {
  const parser = forBytes(...args);
  budgets.set((parser as unknown as { context: PDFContext }).context, { left: MAX_PDF_OBJECTS });
  return parser;
};
const assignObject = PDFContext.prototype.assign;
PDFContext.prototype.assign = function assign(this: PDFContext, ref: PDFRef, object: PDFObject) {
  const budget = budgets.get(this);
  if (budget && --budget.left < 0) refuse(budget);
  assignObject.call(this, ref, object);
};
// An object stream says how many objects it holds (`/N`) before any is parsed: one asking for more
// than are left is refused at once, not after parsing them.
const parseObjectStream = PDFObjectStreamParser.prototype.parseIntoContext;
PDFObjectStreamParser.prototype.parseIntoContext = function parseIntoContext(this: PDFObjectStreamParser) {
  const { context, objectCount } = this as unknown as { context: PDFContext; objectCount: number };
  const budget = budgets.get(context);
  if (budget && objectCount > budget.left) refuse(budget);
  return parseObjectStream.call(this);
};

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument | 'too-many-objects'> {
  try {
    const doc = await PDFDocument.load(bytes, {
      // pdf-lib would otherwise write its own Producer and fresh dates into a new Info dictionary.
      updateMetadata: false,
      throwOnInvalidObject: false,
      // pdf-lib yields to the event loop every 100 objects by default; a worker has nobody to yield to
      // (on the main thread, the benchmark's baseline, it keeps yielding as it always did).
      parseSpeed: isMainThread ? ParseSpeeds.Slow : ParseSpeeds.Fastest,
    });
    // Loaded: what the scrub and the writer add to it is not the file's asking.
    budgets.delete(doc.context);
    return doc;
  } catch (error) {
    if (error instanceof TooManyObjects) return 'too-many-objects';
    throw error;
  }
}

async function scrubPdf(task: ScrubTask): Promise<ScrubResult> {
  const doc = await loadPdf(await readFile(task.path));
  if (doc === 'too-many-objects') return doc;
  const { context } = doc;
  context.trailerInfo.Info = undefined;
  context.trailerInfo.ID = undefined;
  const reachable = reachableRefs(context);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref)) {
      context.delete(ref);
      continue;
    }
    const dict = dictOf(object);
    if (!dict) continue;
    if (object instanceof PDFRawStream && dict.get(TYPE) === METADATA) {
      context.delete(ref);
      continue;
    }
    dict.delete(METADATA);
    dict.delete(PIECE_INFO);
    if (!dict.has(TYPE) && !dict.has(SUBTYPE) && INFO_KEYS.some((key) => dict.has(key))) {
      for (const key of dict.keys()) dict.delete(key);
    }
  }
  await writeFile(task.out, await doc.save({ updateFieldAppearances: false }), { mode: 0o600 });
  return 'scrubbed';
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

function openZip(path: string, { yauzl }: Zip): Promise<Yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    );
  });
}

async function scrubOffice(task: ScrubTask, libraries: Zip): Promise<void> {
  const zip = await openZip(task.path, libraries);
  // Any entry stream, the writer or the reader may fail asynchronously: all of them end here.
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  // Read only through the race below; a failure after the race settled has nobody left to tell.
  failed.catch(() => {});
  zip.on('error', fail);
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) throw new Error('too many zip entries');
    const entries: Yauzl.Entry[] = [];
    let uncompressed = 0;
    for await (const entry of zip.eachEntry()) {
      uncompressed += entry.uncompressedSize;
      if (uncompressed > MAX_ZIP_UNCOMPRESSED) throw new Error('zip expands too much');
      entries.push(entry);
    }
    const writer = new libraries.yazl.ZipFile();
    writer.on('error', fail);
    const written = pipeline(writer.outputStream as Readable, createWriteStream(task.out, { mode: 0o600 }));
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
        (done) =>
          zip.openReadStream(entry, (error, stream) => {
            if (error) return done(error, stream);
            stream.on('error', fail);
            done(null, stream);
          }),
      );
    }
    writer.end();
    try {
      await Promise.race([written, failed]);
    } catch (error) {
      (writer.outputStream as Readable).destroy();
      throw error;
    }
  } finally {
    zip.close();
  }
}

export default async function scrub(task: ScrubTask): Promise<ScrubResult> {
  // A library's first load is not the file's work: the limits start after it.
  const sharp = task.kind === 'image' ? await loadSharp() : null;
  const zip = task.kind === 'office' ? await loadZip() : null;
  task.started?.postMessage({ threadId, cpu: process.threadCpuUsage() } satisfies ScrubStarted);
  task.started?.close();
  try {
    if (sharp) await scrubImage(task, sharp);
    else if (zip) await scrubOffice(task, zip);
    else return await scrubPdf(task);
    return 'scrubbed';
  } finally {
    if (!isMainThread && task.size >= COLLECT_AFTER_BYTES) startGarbageCollection();
  }
}
