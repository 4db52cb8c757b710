/**
 * Files for the journeys and the black-box suites: small but valid PDF, PNG and zip uploads generated
 * on the fly (unique bytes per run, so a downloaded attachment can be compared byte for byte), and a
 * minimal PDF reader for the "Unduh Nomor Pengaduan" document: page sizes and the text shown
 * (FlateDecode streams inflated with node:zlib, embedded-font glyph codes mapped back to characters
 * through the fonts' ToUnicode CMaps).
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { tinyPdf } from '../legacy-sim/src/seed/files.ts';

/** A file as a browser form (playwright's `setInputFiles`) or a multipart part takes it. */
export type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/** A one-page PDF with a line of text (legacy-sim's seed maker: valid, tiny, offsets computed). */
export function makePdf(name: string, text: string): FilePayload {
  return { name, mimeType: 'application/pdf', buffer: tinyPdf(text) };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8×8 RGB PNG of random pixels. */
export function makePng(name: string): FilePayload {
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const pixels = randomBytes(size * 3 * size);
  const rows = Buffer.concat(
    Array.from({ length: size }, (_, y) =>
      Buffer.concat([Buffer.from([0]), pixels.subarray(y * size * 3, (y + 1) * size * 3)]),
    ),
  );
  const buffer = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return { name, mimeType: 'image/png', buffer };
}

/** A zip archive with one stored (uncompressed) text file. */
export function makeZip(name: string, entryName: string, text: string): FilePayload {
  const data = Buffer.from(text, 'utf8');
  const fileName = Buffer.from(entryName, 'utf8');
  const crc = crc32(data);
  const DOS_DATE_1980_01_01 = 0x21;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // version made by
  central.writeUInt16LE(20, 6); // version needed
  central.writeUInt16LE(DOS_DATE_1980_01_01, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 42); // offset of the local header
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  const buffer = Buffer.concat([local, fileName, data, central, fileName, end]);
  return { name, mimeType: 'application/zip', buffer };
}

/** Decoded pixels of an 8-bit, non-interlaced PNG (greyscale, RGB, grey+alpha or RGBA). */
export function decodePng(png: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    throw new Error('not a PNG');
  }
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colourType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      const byType: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
      channels = byType[colourType ?? -1] ?? 0;
      if (bitDepth !== 8 || channels === 0 || interlace !== 0) {
        throw new Error(
          `unsupported PNG (bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace})`,
        );
      }
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (row[x]! + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The RGB values of every pixel (alpha dropped), for comparing two encodings of one picture. */
export function rgbOf(png: Buffer): { width: number; height: number; rgb: Buffer } {
  const { width, height, channels, pixels } = decodePng(png);
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const px = pixels.subarray(i * channels, (i + 1) * channels);
    const [r, g, b] = channels >= 3 ? [px[0]!, px[1]!, px[2]!] : [px[0]!, px[0]!, px[0]!];
    rgb.set([r, g, b], i * 3);
  }
  return { width, height, rgb };
}

// ---- Reading a PDF --------------------------------------------------------------------------

type PdfObject = { dict: string; stream: Buffer | null };

function parseObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+)\s+\d+\s+obj\b/g;
  for (let m = header.exec(text); m; m = header.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    if (end < 0) break;
    const streamAt = text.indexOf('stream', start);
    if (streamAt < 0 || streamAt > end) {
      objects.set(Number(m[1]), { dict: text.slice(start, end), stream: null });
      header.lastIndex = end;
      continue;
    }
    const dict = text.slice(start, streamAt);
    let dataStart = streamAt + 'stream'.length;
    if (text[dataStart] === '\r') dataStart++;
    if (text[dataStart] === '\n') dataStart++;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const dataEnd = length ? dataStart + Number(length[1]) : text.indexOf('endstream', dataStart);
    const raw = pdf.subarray(dataStart, dataEnd);
    objects.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
    header.lastIndex = text.indexOf('endobj', dataEnd);
  }
  return objects;
}

const utf16 = (hex: string) => {
  const bytes = Buffer.from(hex, 'hex');
  let out = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
  return out;
};

/** A ToUnicode CMap: glyph code (hex, as written in the content stream) → text. */
function parseCMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, dest] of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(Number.parseInt(code!, 16), utf16(dest!));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const ranges = (block[1] ?? '').matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:<([0-9a-fA-F]+)>|\[([^\]]*)\])/g,
    );
    for (const [, lo, hi, first, list] of ranges) {
      const from = Number.parseInt(lo!, 16);
      const to = Number.parseInt(hi!, 16);
      if (list !== undefined) {
        // One entry may be several characters, written `<0066 0069>` (pdfkit's "fi" ligature).
        const items = [...list.matchAll(/<([0-9a-fA-F\s]+)>/g)].map((x) => utf16(x[1]!.replace(/\s+/g, '')));
        items.forEach((value, i) => {
          if (from + i <= to) map.set(from + i, value);
        });
      } else {
        const base = Buffer.from(first!, 'hex');
        for (let code = from; code <= to; code++) {
          const dest = Buffer.from(base);
          dest.writeUInt16BE(dest.readUInt16BE(dest.length - 2) + (code - from), dest.length - 2);
          map.set(code, utf16(dest.toString('hex')));
        }
      }
    }
  }
  return map;
}

function literal(s: string): string {
  return s.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, esc: string) => {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
    if (esc in simple) return simple[esc]!;
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return esc;
  });
}

export type PdfSummary = {
  /** "%PDF-" header present. */
  isPdf: boolean;
  /** Every page's MediaBox, e.g. [[0, 0, 595.28, 841.89]]. */
  mediaBoxes: number[][];
  /** The text shown by the content streams, one text object (BT…ET) per line. */
  text: string;
};

export function readPdf(pdf: Buffer): PdfSummary {
  const objects = parseObjects(pdf);
  const mediaBoxes: number[][] = [];
  const fontsByResource = new Map<string, number>();
  const cmapOfFont = new Map<number, Map<number, string>>();
  for (const [id, obj] of objects) {
    if (/\/Type\s*\/Page\b/.test(obj.dict)) {
      const box = /\/MediaBox\s*\[([^\]]*)\]/.exec(obj.dict);
      if (box) mediaBoxes.push(box[1]!.trim().split(/\s+/).map(Number));
    }
    for (const fonts of obj.dict.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const [, name, ref] of (fonts[1] ?? '').matchAll(/\/([^\s/]+)\s+(\d+)\s+\d+\s+R/g)) {
        fontsByResource.set(name!, Number(ref));
      }
    }
    const toUnicode = /\/ToUnicode\s+(\d+)\s+\d+\s+R/.exec(obj.dict);
    const cmap = toUnicode ? objects.get(Number(toUnicode[1]))?.stream : null;
    if (cmap) cmapOfFont.set(id, parseCMap(cmap.toString('latin1')));
  }

  const lines: string[] = [];
  for (const obj of objects.values()) {
    const content = obj.stream?.toString('latin1') ?? '';
    if (!/\bBT\b/.test(content) || !/\bTf\b/.test(content)) continue;
    let cmap: Map<number, string> | undefined;
    let line = '';
    const ops =
      /\/([^\s/]+)\s+[\d.]+\s+Tf|\[((?:[^\]\\]|\\.)*)\]\s*TJ|<([0-9a-fA-F\s]*)>\s*Tj|\(((?:[^)\\]|\\.)*)\)\s*Tj|\bET\b/g;
    const decodeHex = (hex: string) => {
      const clean = hex.replace(/\s+/g, '');
      if (!cmap) return Buffer.from(clean, 'hex').toString('latin1');
      let out = '';
      for (let i = 0; i + 4 <= clean.length; i += 4)
        out += cmap.get(Number.parseInt(clean.slice(i, i + 4), 16)) ?? '';
      return out;
    };
    for (const [whole, font, array, hex, lit] of content.matchAll(ops)) {
      if (font !== undefined) {
        const ref = fontsByResource.get(font);
        cmap = ref === undefined ? undefined : cmapOfFont.get(ref);
      } else if (array !== undefined) {
        for (const part of array.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:[^)\\]|\\.)*)\)/g)) {
          line += part[1] !== undefined ? decodeHex(part[1]) : literal(part[2] ?? '');
        }
      } else if (hex !== undefined) {
        line += decodeHex(hex);
      } else if (lit !== undefined) {
        line += literal(lit);
      } else if (whole === 'ET') {
        lines.push(line);
        line = '';
      }
    }
    if (line) lines.push(line);
  }
  return {
    isPdf: pdf.subarray(0, 5).toString('latin1') === '%PDF-',
    mediaBoxes,
    text: lines.filter(Boolean).join('\n'),
  };
}

/** A file that starts like a PNG and then is garbage: the gateway cannot re-encode it and refuses it. */
export function makeBrokenPng(name: string): FilePayload {
  const buffer = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(16),
    Buffer.alloc(400, 0x41),
  ]);
  return { name, mimeType: 'image/png', buffer };
}
