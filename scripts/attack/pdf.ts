/**
 * A PDF whose first revision keeps its Info dictionary (Author) inside a compressed object stream,
 * followed by an incremental update with a new Info: after scrubbing, the old author
 * must be gone from the stored file, compressed or not.
 */
import { deflateSync, inflateSync } from 'node:zlib';

export const OLD_AUTHOR = 'Penulis Lama Rahasia';

/** An xref stream (W [1 4 2]) over `rows` of [type, field2, field3]. */
function xrefStream(num: number, rows: [number, number, number][], dict: string): string {
  const bytes = Buffer.alloc(rows.length * 7);
  rows.forEach(([type, a, b], i) => {
    bytes.writeUInt8(type, i * 7);
    bytes.writeUInt32BE(a, i * 7 + 1);
    bytes.writeUInt16BE(b, i * 7 + 5);
  });
  const data = deflateSync(bytes);
  return `${num} 0 obj\n<< /Type /XRef /W [1 4 2] /Filter /FlateDecode /Length ${data.length} ${dict} >>\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`;
}

export function incrementalPdfWithHiddenInfo(): Buffer {
  let out = '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n';
  const offsets: Record<number, number> = {};
  const add = (num: number, body: string) => {
    offsets[num] = out.length;
    out += `${num} 0 obj\n${body}\nendobj\n`;
  };
  add(1, '<< /Type /Catalog /Pages 2 0 R >>');
  add(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  add(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>');
  const inner = `<< /Author (${OLD_AUTHOR}) /Creator (Pengolah Kata) >>`;
  const header = '4 0 ';
  const objStm = deflateSync(Buffer.from(header + inner, 'latin1'));
  offsets[5] = out.length;
  out += `5 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode /Length ${objStm.length} >>\nstream\n${objStm.toString('latin1')}\nendstream\nendobj\n`;
  const xref1 = out.length;
  out += xrefStream(
    6,
    [
      [0, 0, 65535],
      [1, offsets[1]!, 0],
      [1, offsets[2]!, 0],
      [1, offsets[3]!, 0],
      [2, 5, 0],
      [1, offsets[5]!, 0],
      [1, xref1, 0],
    ],
    '/Size 7 /Root 1 0 R /Info 4 0 R',
  );
  out += `startxref\n${xref1}\n%%EOF\n`;
  // Revision 2: a new Info dictionary.
  add(7, '<< /Author (Penulis Baru) /Producer (Pengolah Kata) >>');
  const xref2 = out.length;
  out += xrefStream(
    8,
    [
      [1, offsets[7]!, 0],
      [1, xref2, 0],
    ],
    `/Size 9 /Index [7 2] /Prev ${xref1} /Root 1 0 R /Info 7 0 R`,
  );
  out += `startxref\n${xref2}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The file's bytes plus every Flate stream inflated, as text to search. */
export function pdfText(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const parts = [text];
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(text); match; match = streams.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      parts.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream, or not whole: the raw bytes are searched already
    }
  }
  return parts.join('\n');
}

/** The first three objects of a one-page PDF (catalog, pages, page) and where each starts. */
function onePageHead(): { text: string; next: number } {
  const text =
    '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n' +
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n';
  return { text, next: 4 };
}

/**
 * A valid one-page PDF with `count` tiny unreferenced objects (~32 bytes each): 300,000 of them make
 * ~9.6 MB that take seconds of CPU to parse, heavy but a PDF a reporter may send.
 */
export function manyObjectsPdf(count: number): Buffer {
  const { text, next } = onePageHead();
  const parts = [text];
  for (let i = 0; i < count; i++) parts.push(`${next + i} 0 obj<</K ${i}>>endobj\n`);
  parts.push(`trailer\n<< /Size ${next + count} /Root 1 0 R >>\nstartxref\n0\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A one-page PDF whose one compressed object stream declares `count` objects (and holds them). */
export function objectStreamPdf(count: number): Buffer {
  const { text, next } = onePageHead();
  const offsets: string[] = [];
  const bodies: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const body = `<</K ${i}>>\n`;
    offsets.push(`${next + i} ${at}`);
    bodies.push(body);
    at += body.length;
  }
  const index = `${offsets.join(' ')}\n`;
  const data = deflateSync(Buffer.from(index + bodies.join(''), 'latin1'));
  const number = next + count;
  return Buffer.concat([
    Buffer.from(
      `${text}${number} 0 obj\n<< /Type /ObjStm /N ${count} /First ${index.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from(
      `\nendstream\nendobj\ntrailer\n<< /Size ${number + 1} /Root 1 0 R >>\nstartxref\n0\n%%EOF\n`,
      'latin1',
    ),
  ]);
}
