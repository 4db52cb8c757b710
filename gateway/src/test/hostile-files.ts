/**
 * Damaged and hostile files for the upload fuzz tests and the scrub benchmark: seeds of every
 * scrubbed kind, byte-level mutations aimed at the fields parsers trust (sizes, offsets, counts,
 * compression methods, chunk lengths), and hand-made hostile cases (the reported zip whose entry
 * inflates past its declared size, a zip bomb, deeply nested PDF arrays, a decompression-bomb PNG).
 */

import type { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import yazl from 'yazl';

export type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'byte'; at: number; value: number }
  | { op: 'u16'; at: number; value: number }
  | { op: 'u32'; at: number; value: number }
  | { op: 'field'; signature: number; occurrence: number; field: number; value: number }
  | { op: 'splice'; from: number; to: number; length: number };

/** Signatures of the structures parsers walk: zip headers, PNG chunks, JPEG markers, PDF keywords. */
export const SIGNATURES = [
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.from('PK\x01\x02', 'latin1'),
  Buffer.from('PK\x05\x06', 'latin1'),
  Buffer.from('IHDR', 'latin1'),
  Buffer.from('IDAT', 'latin1'),
  Buffer.from([0xff, 0xc0]),
  Buffer.from([0xff, 0xda]),
  Buffer.from([0xff, 0xe1]),
  Buffer.from('obj', 'latin1'),
  Buffer.from('/Length', 'latin1'),
  Buffer.from('xref', 'latin1'),
  Buffer.from('NETSCAPE', 'latin1'),
];
/** Field offsets after a signature worth breaking (zip sizes, methods, name lengths, offsets…). */
export const FIELD_OFFSETS = [-4, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 42];
export const INTERESTING_VALUES = [
  0, 1, 7, 8, 12, 14, 99, 100, 0x7f, 0xff, 0xffff, 20_000, 0x7fffffff, 0xffffffff,
];

function occurrences(bytes: Buffer, signature: Buffer): number[] {
  const found: number[] = [];
  for (
    let at = bytes.indexOf(signature);
    at >= 0 && found.length < 64;
    at = bytes.indexOf(signature, at + 1)
  ) {
    found.push(at);
  }
  return found;
}

function writeUInt(bytes: Buffer, at: number, value: number, width: 1 | 2 | 4): void {
  if (bytes.length < width) return;
  const pos = Math.min(Math.max(at, 0), bytes.length - width);
  if (width === 1) bytes.writeUInt8(value & 0xff, pos);
  else if (width === 2) bytes.writeUInt16LE(value & 0xffff, pos);
  else bytes.writeUInt32LE(value >>> 0, pos);
}

/** A mutated copy (the seed is never changed). */
export function mutate(seed: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = Buffer.from(seed);
  for (const m of mutations) {
    if (bytes.length === 0) break;
    if (m.op === 'truncate') bytes = bytes.subarray(0, m.at % bytes.length);
    else if (m.op === 'byte') writeUInt(bytes, m.at % bytes.length, m.value, 1);
    else if (m.op === 'u16') writeUInt(bytes, m.at % bytes.length, m.value, 2);
    else if (m.op === 'u32') writeUInt(bytes, m.at % bytes.length, m.value, 4);
    else if (m.op === 'field') {
      const signature = SIGNATURES[m.signature % SIGNATURES.length] as Buffer;
      const found = occurrences(bytes, signature);
      if (found.length === 0) continue;
      const at = (found[m.occurrence % found.length] as number) + m.field;
      writeUInt(bytes, at, m.value, m.value > 0xffff ? 4 : 2);
    } else {
      const from = m.from % bytes.length;
      const chunk = Buffer.from(bytes.subarray(from, from + m.length));
      const to = m.to % bytes.length;
      bytes = Buffer.concat([bytes.subarray(0, to), chunk, bytes.subarray(to)]);
    }
  }
  return bytes;
}

async function zipOf(entries: { name: string; bytes: Buffer; compress?: boolean }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(entry.bytes, entry.name, { compress: entry.compress ?? true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    '</Types>',
);

/** Rewrites one header field of an entry in its local and central headers. */
function declare(
  zip: Buffer,
  name: string,
  field: { local: number; central: number; width: 2 | 4 },
  value: number,
) {
  const out = Buffer.from(zip);
  const write = (at: number) =>
    field.width === 2 ? out.writeUInt16LE(value, at) : out.writeUInt32LE(value >>> 0, at);
  for (let at = out.indexOf(name); at >= 0; at = out.indexOf(name, at + 1)) {
    if (at >= 30 && out.readUInt32LE(at - 30) === 0x04034b50) write(at - 30 + field.local);
    if (at >= 46 && out.readUInt32LE(at - 46) === 0x02014b50) write(at - 46 + field.central);
  }
  return out;
}
const METHOD = { local: 8, central: 10, width: 2 } as const;
const COMPRESSED_SIZE = { local: 18, central: 20, width: 4 } as const;
const UNCOMPRESSED_SIZE = { local: 22, central: 24, width: 4 } as const;

/** Hostile Office, PDF and image files, each named by what it does; `ext` is the upload's extension. */
export async function hostileCases(): Promise<{ what: string; ext: string; bytes: Buffer }[]> {
  const docx = await zipOf([
    { name: '[Content_Types].xml', bytes: CONTENT_TYPES },
    { name: 'word/document.xml', bytes: Buffer.alloc(20_000, 0x41) },
  ]);
  const nested = '['.repeat(200_000);
  const deepPdf = Buffer.from(
    `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 /X ${nested} >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
  const deepDicts = Buffer.from(
    `%PDF-1.7\n1 0 obj\n${'<< /A '.repeat(100_000)}1${' >>'.repeat(100_000)}\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
  // A PNG header claiming 100,000 × 100,000 pixels (a decompression bomb for a naive decoder).
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000186a0000186a00806000000' + '00000000' + '0000000049454e44ae426082',
    'hex',
  );
  const bomb = await zipOf([
    { name: '[Content_Types].xml', bytes: CONTENT_TYPES },
    { name: 'word/document.xml', bytes: Buffer.alloc(64 * 1024 * 1024) },
  ]);
  const declaredHuge = declare(
    await zipOf([
      { name: '[Content_Types].xml', bytes: CONTENT_TYPES },
      { name: 'word/media/a.bin', bytes: Buffer.alloc(1024) },
    ]),
    'word/media/a.bin',
    UNCOMPRESSED_SIZE,
    0xfffffff0,
  );
  const doc = 'word/document.xml';
  const compressed = docx.readUInt32LE(docx.indexOf(doc) - 30 + 18);
  const innerZip = await zipOf([{ name: 'bom.txt', bytes: Buffer.alloc(32 * 1024 * 1024) }]);
  const zipInDocx = await zipOf([
    { name: '[Content_Types].xml', bytes: CONTENT_TYPES },
    { name: 'word/embeddings/a.zip', bytes: innerZip, compress: false },
  ]);
  const rawDeflate = deflateRawSync(Buffer.alloc(100_000, 0x42));
  return [
    {
      what: 'an entry declaring 100 bytes that inflates to 20,000',
      ext: 'docx',
      bytes: declare(docx, doc, UNCOMPRESSED_SIZE, 100),
    },
    {
      what: 'an entry declaring more bytes than it holds',
      ext: 'docx',
      bytes: declare(docx, doc, UNCOMPRESSED_SIZE, 90_000),
    },
    {
      what: 'an entry truncated mid-stream',
      ext: 'docx',
      bytes: declare(docx, doc, COMPRESSED_SIZE, Math.floor(compressed / 2)),
    },
    { what: 'an unsupported compression method (99)', ext: 'docx', bytes: declare(docx, doc, METHOD, 99) },
    {
      what: 'an unsupported compression method (12, bzip2)',
      ext: 'docx',
      bytes: declare(docx, doc, METHOD, 12),
    },
    { what: 'a 64 MB entry of zeros (a zip bomb)', ext: 'docx', bytes: bomb },
    { what: 'an entry declaring 4 GB', ext: 'docx', bytes: declaredHuge },
    { what: 'a zip bomb nested inside the document', ext: 'docx', bytes: zipInDocx },
    {
      what: 'raw deflate data named .docx',
      ext: 'docx',
      bytes: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), rawDeflate]),
    },
    { what: 'PDF arrays nested 200,000 deep', ext: 'pdf', bytes: deepPdf },
    { what: 'PDF dictionaries nested 100,000 deep', ext: 'pdf', bytes: deepDicts },
    { what: 'a PNG claiming 100,000 × 100,000 pixels', ext: 'png', bytes: png },
  ];
}
