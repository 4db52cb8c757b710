/**
 * Resumable uploads (tus; docs/adr/0066-resumable-evidence-uploads.md): an upload's id alone, another
 * draft's token or a guessed token opens nothing (404 alike); the token is refused in the query
 * string; a body past the declared length and a damaged file are refused; tus speaks no CORS and no
 * English to the client.
 */
import { tinyPdf } from '../../support/report-form.ts';
import { type AttackCase, expect, json, type Tools } from '../support.ts';

const TUS = { 'tus-resumable': '1.0.0' };
const meta = (filename: string, field = 'evidence') =>
  `filename ${Buffer.from(filename).toString('base64')},field ${Buffer.from(field).toString('base64')}`;

async function draft(t: Tools): Promise<string> {
  const reply = await t.send({ method: 'POST', path: '/api/v1/upload-drafts' });
  expect(reply.status === 201, `draft: ${reply.status}`);
  return json<{ token: string }>(reply).token;
}

async function upload(
  t: Tools,
  token: string,
  name: string,
  size: number,
  field = 'evidence',
): Promise<string> {
  const reply = await t.send({
    method: 'POST',
    path: '/api/v1/uploads',
    headers: {
      ...TUS,
      'upload-draft': token,
      'upload-length': String(size),
      'upload-metadata': meta(name, field),
    },
  });
  expect(reply.status === 201, `creation: ${reply.status} ${reply.text.slice(0, 120)}`);
  expect(!reply.headers['access-control-allow-origin'], 'no CORS header on a tus reply');
  return (reply.headers.location ?? '').split('/').pop() ?? '';
}

const patch = (t: Tools, token: string | null, id: string, offset: number, body: Buffer) =>
  t.send({
    method: 'PATCH',
    path: `/api/v1/uploads/${id}`,
    headers: {
      ...TUS,
      ...(token ? { 'upload-draft': token } : {}),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body,
  });

export const resumableUploadCases: AttackCase[] = [
  {
    area: 'uploads',
    name: "tus: an upload's id alone, another draft's token or a guessed one opens nothing",
    async run(t) {
      const mine = await draft(t);
      const other = await draft(t);
      const id = await upload(t, mine, 'bukti.pdf', 100);
      const guessed = 'A'.repeat(43);
      for (const [label, token] of [
        ['no token', null],
        ['another draft', other],
        ['guessed', guessed],
      ] as const) {
        const head = await t.send({
          method: 'HEAD',
          path: `/api/v1/uploads/${id}`,
          headers: { ...TUS, ...(token ? { 'upload-draft': token } : {}) },
        });
        expect(head.status === 404 || head.status === 400, `HEAD with ${label}: ${head.status}`);
        const written = await patch(t, token, id, 0, Buffer.from('%PDF-'));
        expect(written.status === 404 || written.status === 400, `PATCH with ${label}: ${written.status}`);
      }
      const own = await t.send({
        method: 'HEAD',
        path: `/api/v1/uploads/${id}`,
        headers: { ...TUS, 'upload-draft': mine },
      });
      expect(
        own.status === 200 && own.headers['upload-offset'] === '0',
        `own upload untouched: ${own.status}`,
      );
    },
  },
  {
    area: 'uploads',
    name: 'tus: the draft token in the query string is not accepted',
    async run(t) {
      const token = await draft(t);
      const reply = await t.send({
        method: 'POST',
        path: `/api/v1/uploads?upload-draft=${token}`,
        headers: { ...TUS, 'upload-length': '10', 'upload-metadata': meta('a.pdf') },
      });
      expect(reply.status === 400, `answered ${reply.status}`);
    },
  },
  {
    area: 'uploads',
    name: 'tus: bytes past the declared length, a wrong offset and a damaged file are refused in Indonesian',
    async run(t) {
      const token = await draft(t);
      const pdf = tinyPdf('bukti');
      const id = await upload(t, token, 'bukti.pdf', pdf.length);
      const tooLong = await patch(t, token, id, 0, Buffer.concat([pdf, Buffer.alloc(4096, 1)]));
      expect(tooLong.status >= 400 && tooLong.status < 500, `past the length: ${tooLong.status}`);
      expect(!/Invalid|exceeded|Error/.test(tooLong.text), `no English: ${tooLong.text.slice(0, 120)}`);
      const offset = await patch(t, token, id, 7, pdf.subarray(7));
      expect(offset.status === 409, `wrong offset: ${offset.status}`);
      const damaged = await upload(t, token, 'rusak.pdf', 2048, 'attachments');
      const done = await patch(t, token, damaged, 0, Buffer.alloc(2048, 7));
      expect(done.status === 204, `damaged upload completes: ${done.status}`);
      const files = await t.send({
        method: 'GET',
        path: '/api/v1/upload-drafts/files',
        headers: { 'upload-draft': token },
      });
      const item = json<{ items: { name: string; state: string; reason: string | null }[] }>(
        files,
      ).items.find((f) => f.name === 'rusak.pdf');
      expect(
        item?.state === 'refused' && /rusak\.pdf/.test(item.reason ?? ''),
        `verdict: ${JSON.stringify(item)}`,
      );
    },
  },
];
