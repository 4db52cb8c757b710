/**
 * Uploads: content that does not match its extension, forbidden types, too many or duplicate files,
 * empty files and path tricks in names. Refusals are 400 field errors; accepted names are cleaned.
 */
import { FormData } from 'undici';
import { tinyPdf, tinyPng, type UploadFile } from '../../fault/http.ts';
import { type AttackCase, caseIdOf, caseNumberOf, expect, fileReport, json, type Tools } from '../support.ts';

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
];
