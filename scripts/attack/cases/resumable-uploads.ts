/**
 * Resumable uploads (tus; docs/adr/0066-resumable-evidence-uploads.md): an upload's id alone, another
 * draft's token or a guessed token opens nothing (404 alike); the token is refused in the query
 * string; a body past the declared length and a damaged file are refused; tus speaks no CORS and no
 * English to the client; creations sent at once cannot pass a draft's limits (the report's five files
 * and one Bukti Pendukung, Tambah Bukti's room, a log's one file; docs/adr/0075-one-writer-per-draft.md).
 */
import { FormData } from 'undici';
import { tinyPdf } from '../../support/report-form.ts';
import {
  type AttackCase,
  caseIdOf,
  caseNumberOf,
  expect,
  fileReport,
  GUEST_PASSWORD,
  json,
  type Reply,
  type Tools,
} from '../support.ts';

const TUS = { 'tus-resumable': '1.0.0' };
const meta = (filename: string, field = 'evidence') =>
  `filename ${Buffer.from(filename).toString('base64')},field ${Buffer.from(field).toString('base64')}`;

async function draft(t: Tools): Promise<string> {
  const reply = await t.send({ method: 'POST', path: '/api/v1/upload-drafts' });
  expect(reply.status === 201, `draft: ${reply.status}`);
  return json<{ token: string }>(reply).token;
}

/** Creations of these files all sent at once into one draft; the replies in the files' order. */
const createAtOnce = (
  t: Tools,
  token: string,
  files: readonly { name: string; field: string; bytes: Buffer }[],
  extra: { as?: string } = {},
) =>
  Promise.all(
    files.map((f) =>
      t.send({
        method: 'POST',
        path: '/api/v1/uploads',
        headers: {
          ...TUS,
          'upload-draft': token,
          'upload-length': String(f.bytes.length),
          'upload-metadata': meta(f.name, f.field),
        },
        ...extra,
      }),
    ),
  );

/** Each refusal of a burst is a 400 naming the form's or the field's limit, never anything else. */
function expectLimitRefusals(replies: readonly Reply[], allowed: readonly number[]): void {
  for (const reply of replies.filter((r) => r.status !== 201)) {
    const errors = Object.values(json<{ errors?: Record<string, string> }>(reply).errors ?? {});
    expect(
      reply.status === 400 &&
        errors.length === 1 &&
        allowed.some((n) => errors[0] === `Lampiran tidak boleh melebihi ${n}`),
      `refused with ${reply.status} ${reply.text.slice(0, 160)}`,
    );
  }
}

/** The files the draft lists (id, field). */
async function listed(t: Tools, token: string, as?: string): Promise<{ id: string; field: string }[]> {
  const reply = await t.send({
    method: 'GET',
    path: '/api/v1/upload-drafts/files',
    headers: { 'upload-draft': token },
    ...(as ? { as } : {}),
  });
  expect(reply.status === 200, `draft files: ${reply.status}`);
  return json<{ items: { id: string; field: string }[] }>(reply).items;
}

/** Sends each admitted upload's bytes whole. */
async function sendAdmitted(
  t: Tools,
  token: string,
  files: readonly { bytes: Buffer }[],
  replies: readonly Reply[],
): Promise<void> {
  for (const [i, reply] of replies.entries()) {
    if (reply.status !== 201) continue;
    const id = (reply.headers.location ?? '').split('/').pop() ?? '';
    const done = await patch(t, token, id, 0, files[i]?.bytes ?? Buffer.alloc(0));
    expect(done.status === 204, `upload ${i}: ${done.status}`);
  }
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
  {
    area: 'uploads',
    name: 'tus: creations sent at once into a report draft pass neither its five files nor its one Bukti Pendukung; the report files those five',
    async run(t) {
      const token = await draft(t);
      const evidence = { name: 'bukti-0.pdf', field: 'evidence', bytes: tinyPdf('bukti 0') };
      const first = await createAtOnce(t, token, [evidence]);
      expect(first[0]?.status === 201, `the first Bukti Pendukung: ${first[0]?.status}`);
      // Thirteen more at once, two of them another Bukti Pendukung.
      const burst = Array.from({ length: 13 }, (_, i) => ({
        name: `bukti-${i + 1}.pdf`,
        field: i % 6 === 0 ? 'evidence' : 'attachments',
        bytes: tinyPdf(`bukti ${i + 1}`),
      }));
      const replies = await createAtOnce(t, token, burst);
      const admitted = replies.filter((r) => r.status === 201).length;
      expect(admitted === 4, `${admitted} of 13 admitted next to the first (4 places were left)`);
      expect(
        burst.every((f, i) => f.field !== 'evidence' || replies[i]?.status !== 201),
        'a second Bukti Pendukung was admitted',
      );
      expectLimitRefusals(replies, [5, 1]);
      const files = await listed(t, token);
      expect(files.length === 5, `the draft lists ${files.length} files`);
      await sendAdmitted(t, token, [evidence], first);
      await sendAdmitted(t, token, burst, replies);
      const filed = await fileReport(t, { files: [], headers: { 'upload-draft': token } });
      const number = caseNumberOf(filed);
      const tracked = await t.send({
        path: '/api/v1/tracking',
        json: { caseNumber: number, password: GUEST_PASSWORD },
      });
      const attachments = json<{ attachments: unknown[] }>(tracked).attachments;
      expect(attachments.length === 5, `the report holds ${attachments.length} files`);
    },
  },
  {
    area: 'uploads',
    name: "tus: creations sent at once keep a Tambah Bukti draft to its case's room and a log draft to its one file",
    async run(t) {
      const number = caseNumberOf(await fileReport(t));
      const opened = await t.send({
        path: '/api/v1/tracking/attachments/upload-drafts',
        json: { caseNumber: number, password: GUEST_PASSWORD },
      });
      expect(opened.status === 201, `Tambah Bukti draft: ${opened.status}`);
      const token = json<{ token: string }>(opened).token;
      const files = Array.from({ length: 14 }, (_, i) => ({
        name: `tambahan-${i}.pdf`,
        field: 'attachments',
        bytes: tinyPdf(`tambahan ${i}`),
      }));
      const replies = await createAtOnce(t, token, files);
      const admitted = replies.filter((r) => r.status === 201).length;
      expect(admitted === 4, `${admitted} of 14 admitted into a case with room for 4`);
      expectLimitRefusals(replies, [5]);
      await sendAdmitted(t, token, files, replies);
      const form = new FormData();
      form.append('caseNumber', number);
      form.append('password', GUEST_PASSWORD);
      const added = await t.send({
        path: '/api/v1/tracking/attachments',
        form,
        headers: { 'upload-draft': token },
      });
      expect(added.status === 201, `Tambah Bukti answered ${added.status} ${added.text.slice(0, 160)}`);
      const after = json<{ attachments: unknown[] }>(added).attachments;
      expect(after.length === 5, `the case holds ${after.length} files`);

      const caseId = await caseIdOf(t, number);
      const log = await t.send({
        method: 'POST',
        path: `/api/v1/cases/${caseId}/logs/upload-drafts`,
        as: 'admin.kahuripan',
      });
      expect(log.status === 201, `log draft: ${log.status}`);
      const logToken = json<{ token: string }>(log).token;
      const logReplies = await createAtOnce(t, logToken, files, { as: 'admin.kahuripan' });
      const logAdmitted = logReplies.filter((r) => r.status === 201).length;
      expect(logAdmitted === 1, `${logAdmitted} of 14 admitted into a log's one place`);
      expectLimitRefusals(logReplies, [1]);
      const logFiles = await listed(t, logToken, 'admin.kahuripan');
      expect(logFiles.length === 1, `the log draft lists ${logFiles.length} files`);
    },
  },
];
