/**
 * Test and benchmark files for the PDF scrub: incremental-update PDFs whose earlier revision keeps
 * its Info dictionary inside a compressed object stream, a reader of every string a PDF holds
 * (inflating its streams) to check what a scrubbed file still says, and the "many tiny objects" PDF
 * that costs seconds of CPU to parse, also packed into compressed object streams.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/**
 * A PDF of two revisions: the first written with object streams (its Info dictionary, naming
 * `author`, compressed inside one), the second appended as an incremental update that points the
 * trailer at a new Info dictionary. `infoInUpdate: false` appends an update without any Info;
 * `titleOnly` gives the first Info only a Title and Subject (no Author, Creator or Producer).
 */
export async function incrementalPdf(
  author: string,
  options: { infoInUpdate?: boolean; titleOnly?: boolean } = {},
) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]).drawText('Bukti', { x: 20, y: 100 });
  doc.setTitle(`Laporan ${author}`);
  doc.setSubject(`Dari ${author}`);
  if (!options.titleOnly) {
    doc.setAuthor(author);
    doc.setCreator(`Word - ${author}`);
    doc.setKeywords([author]);
  }
  const first = Buffer.from(await doc.save({ useObjectStreams: true }));
  const root = doc.context.trailerInfo.Root?.toString() ?? '1 0 R';
  const next = doc.context.largestObjectNumber + 1;
  const startXref = Number(/startxref\s+(\d+)/.exec(first.toString('latin1').slice(-64))?.[1] ?? 0);
  const infoInUpdate = options.infoInUpdate ?? true;
  const body = infoInUpdate ? `${next} 0 obj\n<< /Producer (Kantor) /ModDate (D:20260301) >>\nendobj\n` : '';
  const objectAt = first.length + 1;
  const xrefAt = objectAt + body.length;
  const xref = infoInUpdate
    ? `xref\n0 1\n0000000000 65535 f \n${next} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n`
    : 'xref\n0 1\n0000000000 65535 f \n';
  const trailer =
    `trailer\n<< /Size ${next + 1} /Root ${root} /Prev ${startXref}` +
    `${infoInUpdate ? ` /Info ${next} 0 R` : ''} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([first, Buffer.from(`\n${body}${xref}${trailer}`, 'latin1')]);
}

/** Every byte sequence of a PDF as text, its Flate streams inflated (what a reader could recover). */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const parts = [raw];
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      parts.push(inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1'));
    } catch {
      // not Flate, or not complete: the raw text above already holds it
    }
  }
  // pdf-lib writes metadata as hex strings (UTF-16BE with a BOM): decode those too.
  const hexStrings = /<([0-9A-Fa-f\s]{4,})>/g;
  for (const text of [...parts]) {
    for (let match = hexStrings.exec(text); match; match = hexStrings.exec(text)) {
      const hex = Buffer.from((match[1] ?? '').replace(/\s/g, ''), 'hex');
      const utf16 = hex[0] === 0xfe && hex[1] === 0xff && hex.length % 2 === 0;
      parts.push(utf16 ? Buffer.from(hex.subarray(2)).swap16().toString('utf16le') : hex.toString('latin1'));
    }
  }
  return parts.join('\n');
}

/** A valid PDF with `count` tiny unreferenced objects (~30 bytes each): slow to parse, small on disk. */
export async function manyObjectsPdf(count: number): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  const head = Buffer.from(await doc.save({ useObjectStreams: false }));
  const text = head.toString('latin1');
  const cut = text.lastIndexOf('xref');
  const start = doc.context.largestObjectNumber + 1;
  const filler: string[] = [];
  for (let i = 0; i < count; i++) filler.push(`${start + i} 0 obj<</K ${i}>>endobj\n`);
  const root = doc.context.trailerInfo.Root?.toString() ?? '1 0 R';
  const tail = `trailer\n<< /Size ${start + count} /Root ${root} >>\nstartxref\n0\n%%EOF\n`;
  return Buffer.concat([
    Buffer.from(text.slice(0, cut), 'latin1'),
    Buffer.from(filler.join('') + tail, 'latin1'),
  ]);
}

/**
 * The same `count` tiny objects packed into compressed object streams of `perStream` each: a file a
 * fraction of the size of the plain one that asks the parser for as much work.
 */
export async function manyObjectsInStreamsPdf(count: number, perStream = 10_000): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  const head = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
  let next = doc.context.largestObjectNumber + 1;
  const streams: Buffer[] = [Buffer.from(head.slice(0, head.lastIndexOf('xref')), 'latin1')];
  for (let done = 0; done < count; ) {
    const n = Math.min(perStream, count - done);
    const offsets: string[] = [];
    const bodies: string[] = [];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const body = `<</K ${done + i}>>\n`;
      offsets.push(`${next + i} ${at}`);
      bodies.push(body);
      at += body.length;
    }
    const index = `${offsets.join(' ')}\n`;
    const data = deflateSync(Buffer.from(index + bodies.join(''), 'latin1'));
    const number = next + n;
    streams.push(
      Buffer.from(
        `${number} 0 obj\n<< /Type /ObjStm /N ${n} /First ${index.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
        'latin1',
      ),
      data,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
    next = number + 1;
    done += n;
  }
  const root = doc.context.trailerInfo.Root?.toString() ?? '1 0 R';
  streams.push(Buffer.from(`trailer\n<< /Size ${next} /Root ${root} >>\nstartxref\n0\n%%EOF\n`, 'latin1'));
  return Buffer.concat(streams);
}
