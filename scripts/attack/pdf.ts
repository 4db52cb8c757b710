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
