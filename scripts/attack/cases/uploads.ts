/**
 * Uploads: content that does not match its extension, forbidden types, too many or duplicate files,
 * empty files and path tricks in names. Refusals are 400 field errors; accepted names are cleaned.
 * Hostile files: a zip entry inflating past its declared size is answered and the gateway stays up;
 * an earlier PDF revision's author is scrubbed; 10 MB + 1 byte is 413. Heavy PDFs: one of 300,000
 * objects is accepted also while another is scrubbed beside it (its answer does not depend on the
 * server being busy), one asking for more objects than the scrubber parses is refused.
 */
import { deflateRawSync } from 'node:zlib';
import { FormData, request } from 'undici';
import { tinyPdf, tinyPng, type UploadFile } from '../../support/report-form.ts';
import {
  incrementalPdfWithHiddenInfo,
  manyObjectsPdf,
  OLD_AUTHOR,
  objectStreamPdf,
  pdfText,
} from '../pdf.ts';
import {
  type AttackCase,
  caseIdOf,
  caseNumberOf,
  expect,
  fileReport,
  json,
  type Reply,
  type Tools,
} from '../support.ts';

const file = (
  name: string,
  bytes: Buffer,
  type = 'application/octet-stream',
  field: UploadFile['field'] = 'evidence',
): UploadFile => ({
  field,
  name,
  type,
  bytes,
});

const html = Buffer.from('<html><body><script>alert(1)</script></body></html>');
const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');

async function refused(t: Tools, files: UploadFile[], expectText?: RegExp) {
  const reply = await fileReport(t, { files });
  expect(
    reply.status === 400 || reply.status === 413 || reply.status === 415,
    `answered ${reply.status} ${reply.text.slice(0, 120)}`,
  );
  if (expectText) expect(expectText.test(reply.text), `message: ${reply.text.slice(0, 200)}`);
}

const WRONG_CONTENT: [string, UploadFile[]][] = [
  ['PNG bytes named .pdf', [file('bukti.pdf', tinyPng(), 'application/pdf')]],
  ['PDF bytes named .png', [file('bukti.png', tinyPdf(), 'image/png')]],
  ['HTML named .xls', [file('data.xls', html, 'application/vnd.ms-excel')]],
  ['Windows executable named .docx', [file('laporan.docx', exe)]],
  ['executable named .jpg', [file('foto.jpg', exe, 'image/jpeg')]],
  ['random bytes named .zip', [file('arsip.zip', Buffer.alloc(2048, 7))]],
  ['empty file named .pdf', [file('kosong.pdf', Buffer.alloc(0), 'application/pdf')]],
  ['.exe extension', [file('setup.exe', exe)]],
  ['.html extension', [file('halaman.html', html, 'text/html')]],
  ['.svg extension', [file('gambar.svg', svg, 'image/svg+xml')]],
  ['double extension .pdf.exe', [file('bukti.pdf.exe', exe)]],
  ['no extension', [file('bukti', tinyPdf())]],
  [
    'a PNG as attachment with a .js name',
    [
      file('bukti.png', tinyPng(), 'image/png'),
      file('x.js', Buffer.from('alert(1)'), 'text/javascript', 'attachments'),
    ],
  ],
];

const PATH_TRICKS = [
  '../../../etc/passwd.png',
  '..\\..\\windows\\win.ini.png',
  '/etc/shadow.png',
  'C:\\Users\\pelapor\\foto.png',
  'a/b/../../c.png',
];

/** A .docx whose word/document.xml declares 100 bytes but inflates to 20,000 (a zip bomb in small). */
function lyingDocx(): Buffer {
  const types = Buffer.from(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  const entries = [
    { name: '[Content_Types].xml', data: types, method: 0, declared: types.length },
    { name: 'word/document.xml', data: deflateRawSync(Buffer.alloc(20_000, 0x61)), method: 8, declared: 100 },
    { name: 'docProps/core.xml', data: deflateRawSync(Buffer.alloc(20_000, 0x62)), method: 8, declared: 100 },
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

const TOO_HEAVY = /terlalu berat untuk dibersihkan dari metadata/;

export const uploadCases: AttackCase[] = [
  ...WRONG_CONTENT.map(
    ([label, files]): AttackCase => ({
      area: 'uploads',
      name: `refused: ${label}`,
      run: (t) => refused(t, files),
    }),
  ),
  {
    area: 'uploads',
    name: 'refused: six files (the limit is five)',
    run: (t) =>
      refused(
        t,
        [
          file('bukti.png', tinyPng(), 'image/png'),
          ...[1, 2, 3, 4, 5].map((i) => file(`l${i}.pdf`, tinyPdf(`${i}`), 'application/pdf', 'attachments')),
        ],
        /melebihi 5/,
      ),
  },
  {
    area: 'uploads',
    name: 'refused: duplicate names differing in case',
    run: (t) =>
      refused(
        t,
        [
          file('Bukti.pdf', tinyPdf(), 'application/pdf'),
          file('bukti.PDF', tinyPdf('2'), 'application/pdf', 'attachments'),
        ],
        /telah dipilih/,
      ),
  },
  {
    area: 'uploads',
    name: 'refused: no evidence file',
    run: (t) =>
      refused(
        t,
        [file('lampiran.pdf', tinyPdf(), 'application/pdf', 'attachments')],
        /Bukti Pendukung wajib diisi/,
      ),
  },
  {
    area: 'uploads',
    name: 'refused: two attachments on one activity log',
    async run(t) {
      const form = new FormData();
      form.append('statusId', '4');
      form.append('message', 'catatan');
      for (const n of ['a.pdf', 'b.pdf'])
        form.append('attachment', new Blob([new Uint8Array(tinyPdf())], { type: 'application/pdf' }), n);
      const reply = await t.send({
        path: `/api/v1/cases/${t.fixtures.company1Case.id}/logs`,
        form,
        as: 'admin.kahuripan',
      });
      expect(
        reply.status === 400 && /melebihi 1/.test(reply.text),
        `answered ${reply.status} ${reply.text.slice(0, 160)}`,
      );
    },
  },
  ...PATH_TRICKS.map(
    (name): AttackCase => ({
      area: 'uploads',
      name: `path trick in a name is cut to its last segment: ${name}`,
      async run(t) {
        const number = caseNumberOf(await fileReport(t, { files: [file(name, tinyPng(), 'image/png')] }));
        const id = await caseIdOf(t, number);
        const detail = json<{ attachments: { name: string }[] }>(
          await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' }),
        );
        const stored = detail.attachments.map((a) => a.name);
        expect(
          stored.length === 1 && !/[/\\]|\.\./.test(stored[0] ?? ''),
          `stored as ${JSON.stringify(stored)}`,
        );
      },
    }),
  ),
  {
    area: 'uploads',
    name: 'a name with an encoded CRLF cannot add a response header on download',
    async run(t) {
      const name = 'bukti%0d%0aSet-Cookie: evil=1.png';
      const number = caseNumberOf(await fileReport(t, { files: [file(name, tinyPng(), 'image/png')] }));
      const id = await caseIdOf(t, number);
      const detail = json<{ attachments: { id: number }[] }>(
        await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' }),
      );
      const reply = await t.send({
        path: `/api/v1/cases/${id}/attachments/${detail.attachments[0]?.id}`,
        as: 'admin.kahuripan',
      });
      expect(reply.status === 200, `download answered ${reply.status}`);
      expect(!/evil=1/.test(reply.headers['set-cookie'] ?? ''), 'a cookie was injected');
      expect(/attachment/i.test(reply.headers['content-disposition'] ?? ''), 'not sent as an attachment');
    },
  },
  {
    area: 'uploads',
    name: 'a heavy but valid PDF (300,000 objects) is accepted, also while another is scrubbed beside it',
    async run(t) {
      const heavy = manyObjectsPdf(300_000);
      // Two reporters at once: the second waits for the scrub thread, or shares the machine with it.
      const replies = await Promise.all(
        ['berat-1.pdf', 'berat-2.pdf'].map((name) =>
          fileReport(t, { files: [file(name, heavy, 'application/pdf')] }),
        ),
      );
      for (const reply of replies) {
        expect(reply.status === 201, `answered ${reply.status} ${reply.text.slice(0, 200)}`);
      }
    },
  },
  {
    area: 'uploads',
    name: 'a PDF asking for more objects than the scrubber parses is refused, however small',
    async run(t) {
      const pdf = objectStreamPdf(600_000);
      expect(pdf.length < 10 * 1024 * 1024, `the test file is ${pdf.length} bytes`);
      const reply = await fileReport(t, { files: [file('ringkas.pdf', pdf, 'application/pdf')] });
      expect(reply.status === 400, `answered ${reply.status} ${reply.text.slice(0, 200)}`);
      const evidence = json<{ errors?: { evidence?: string } }>(reply).errors?.evidence ?? '';
      expect(TOO_HEAVY.test(evidence) && evidence.includes('ringkas.pdf'), `message: ${evidence}`);
    },
  },
  {
    area: 'uploads',
    name: 'a .docx whose entry inflates past its declared size is answered and the gateway stays up',
    async run(t) {
      const files: UploadFile[] = [
        { field: 'evidence', name: 'bukti.png', type: 'image/png', bytes: tinyPng() },
        { field: 'attachments', name: 'rusak.docx', type: 'application/octet-stream', bytes: lyingDocx() },
      ];
      const reply = await fileReport(t, { files }).catch(
        (error: { code?: string }) => ({ status: error.code ?? 'transport error' }) as never as Reply,
      );
      expect(typeof reply.status === 'number' && reply.status < 500, `answered ${reply.status}`);
      const health = await t.send({ path: '/healthz' }).catch(() => null);
      expect(health?.status === 200, 'the gateway is down');
    },
  },
  {
    area: 'uploads',
    name: "an earlier revision's Info in a compressed object stream is scrubbed from a PDF",
    async run(t) {
      const pdf = incrementalPdfWithHiddenInfo();
      expect(pdfText(pdf).includes(OLD_AUTHOR), 'the test file does not hold the old author');
      const number = caseNumberOf(
        await fileReport(t, {
          files: [
            { field: 'evidence', name: 'bukti.png', type: 'image/png', bytes: tinyPng() },
            { field: 'attachments', name: 'dokumen.pdf', type: 'application/pdf', bytes: pdf },
          ],
        }),
      );
      const id = await caseIdOf(t, number);
      const detail = json<{ attachments: { id: number; name: string }[] }>(
        await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' }),
      );
      const stored = detail.attachments.find((a) => a.name === 'dokumen.pdf');
      expect(stored, 'the PDF was not stored');
      const download = await request(new URL(`/api/v1/cases/${id}/attachments/${stored.id}`, t.baseUrl), {
        headers: { cookie: t.sessions.get('admin.kahuripan') ?? '' },
      });
      const bytes = Buffer.from(await download.body.arrayBuffer());
      expect(download.statusCode === 200, `download answered ${download.statusCode}`);
      expect(!pdfText(bytes).includes(OLD_AUTHOR), 'the old author is still in the stored PDF');
    },
  },
  {
    area: 'uploads',
    name: 'a file of 10 MB + 1 byte is refused 413 with the size message',
    async run(t) {
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
      tinyPng().copy(big);
      const reply = await fileReport(t, {
        files: [{ field: 'evidence', name: 'besar.png', type: 'image/png', bytes: big }],
      });
      expect(reply.status === 413, `answered ${reply.status}`);
      expect(/melebihi 10 MB/.test(reply.text), `message: ${reply.text.slice(0, 160)}`);
    },
  },
];
