/**
 * Hostile values in the inputs themselves: days no calendar of this system holds (year 1, year 9999,
 * impossible days, signed and 6-digit years) on every route that takes a date, receipt codes whose
 * payload is not a receipt (the JSON null, numbers, arrays, fields of the wrong type, wrong signature
 * lengths), and a double quote in an uploaded file's name. Never a 5xx or an error in the log; the
 * rule's own 400, the verifier's normal "not valid", the name shown as the reporter wrote it.
 */
import { FormData } from 'undici';
import { LOG_FLUSH_MS } from '../../../gateway/src/log-batch.ts';
import { tinyPng } from '../../support/report-form.ts';
import {
  type AttackCase,
  caseIdOf,
  caseNumberOf,
  expect,
  fileReport,
  GUEST_PASSWORD,
  json,
  problemType,
  type Reply,
  type Tools,
  today,
} from '../support.ts';

// ---- dates (docs/product/handling.md#dates: a day from 2000-01-01 to 2099-12-31, from <= to) ----

type DateRoute = { name: string; send(t: Tools, from: string, to: string): Promise<Reply> };

const query = (from: string, to: string) => new URLSearchParams({ from, to }).toString();
const DATE_ROUTES: DateRoute[] = [
  {
    name: 'GET /audit-trail/export',
    send: (t, from, to) => t.send({ path: `/api/v1/audit-trail/export?${query(from, to)}`, as: 'admin' }),
  },
  {
    name: 'GET /dashboard/companies',
    send: (t, from, to) => t.send({ path: `/api/v1/dashboard/companies?${query(from, to)}`, as: 'holding' }),
  },
  {
    name: 'GET /dashboard/summary',
    send: (t, from, to) =>
      t.send({ path: `/api/v1/dashboard/summary?${query(from, to)}`, as: 'admin.kahuripan' }),
  },
  {
    name: 'POST /cases/search',
    send: (t, from, to) =>
      t.send({
        path: '/api/v1/cases/search',
        json: { from, to, page: 1, pageSize: 10 },
        as: 'admin.kahuripan',
      }),
  },
  {
    name: 'POST /cases/export',
    send: (t, from, to) =>
      t.send({ path: '/api/v1/cases/export', json: { from, to }, as: 'admin.kahuripan' }),
  },
];

/** Days outside 2000-01-01 – 2099-12-31 that are otherwise real calendar days. */
const OUT_OF_RANGE: [string, string][] = [
  ['0001-01-01', '9999-12-31'],
  ['0000-01-01', '2024-01-01'],
  ['1899-12-31', '1970-01-01'],
  ['1999-12-31', '2024-01-01'],
  ['2024-01-01', '2100-01-01'],
];
/** Not a day at all: every one a 400 too. */
const NOT_A_DAY: [string, string][] = [
  ['2024-02-30', '2024-03-01'],
  ['2023-02-29', '2024-03-01'],
  ['-000001-01-01', '2024-01-01'],
  ['+275760-09-13', '2024-01-01'],
  ['99999-01-01', '2024-01-01'],
  ['2024-01-01T00:00:00Z', '2024-01-02'],
  ['2024-1-1', '2024-01-02'],
  ['1e3', 'NaN'],
  ['2024-13-01', '2024-00-10'],
];

/** The gateway's error-level lines written since `from` (its log is written in batches). */
async function errorLinesSince(t: Tools, from: number): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 2 * LOG_FLUSH_MS));
  return t.logs.slice(from).filter((line) => /"level":(50|60)/.test(line));
}

function refusedWithReason(reply: Reply, where: string, reason: RegExp) {
  expect(reply.status === 400, `${where}: answered ${reply.status} ${reply.text.slice(0, 160)}`);
  expect(problemType(reply) === 'validation', `${where}: problem ${problemType(reply)}`);
  const problem = json<{ detail?: string; errors?: Record<string, string> }>(reply);
  expect(problem.errors && Object.keys(problem.errors).length > 0, `${where}: no field error`);
  expect(reason.test(problem.detail ?? ''), `${where}: detail ${JSON.stringify(problem.detail)}`);
}

const dateCases: AttackCase[] = [
  {
    area: 'inputs',
    name: 'audit-trail export from year 1 to 9999: 400 naming the range, not 503, no error logged',
    async run(t) {
      const mark = t.logs.length;
      const reply = await t.send({
        path: '/api/v1/audit-trail/export?from=0001-01-01&to=9999-12-31',
        as: 'admin',
      });
      refusedWithReason(reply, 'export', /01\/01\/2000.*31\/12\/2099/);
      const errors = json<{ errors: Record<string, string> }>(reply).errors;
      expect(errors.from && errors.to, `field errors ${JSON.stringify(errors)}`);
      const logged = await errorLinesSince(t, mark);
      expect(logged.length === 0, `the gateway logged an error: ${logged[0]?.slice(0, 200)}`);
    },
  },
  ...DATE_ROUTES.map(
    (route): AttackCase => ({
      area: 'inputs',
      name: `${route.name}: days outside 2000–2099 and non-days are a 400 with the reason, never 5xx`,
      async run(t) {
        const mark = t.logs.length;
        for (const [from, to] of OUT_OF_RANGE) {
          refusedWithReason(await route.send(t, from, to), `${from}..${to}`, /01\/01\/2000.*31\/12\/2099/);
        }
        for (const [from, to] of NOT_A_DAY) {
          refusedWithReason(await route.send(t, from, to), `${from}..${to}`, /Tanggal/);
        }
        refusedWithReason(await route.send(t, '2024-02-01', '2024-01-01'), 'reversed', /tanggal awal/i);
        // The range is not too tight: its first day to today is answered.
        const edge = await route.send(t, '2000-01-01', today());
        expect(edge.status === 200, `2000-01-01..today answered ${edge.status} ${edge.text.slice(0, 160)}`);
        const logged = await errorLinesSince(t, mark);
        expect(logged.length === 0, `the gateway logged an error: ${logged[0]?.slice(0, 200)}`);
      },
    }),
  ),
];

// ---- receipt codes (docs/adr/0033-signed-filing-receipts.md) ----

const b64url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
const NO_SIGNATURE = b64url(new Uint8Array(64));

const verify = (t: Tools, code: unknown) => t.send({ path: '/api/v1/receipts/verify', json: { code } });

function notValid(reply: Reply, what: string) {
  expect(reply.status === 200, `${what}: answered ${reply.status} ${reply.text.slice(0, 160)}`);
  const verdict = json<Record<string, unknown>>(reply);
  expect(
    verdict.valid === false && verdict.caseNumber === null && verdict.keyId === null,
    `${what}: ${reply.text.slice(0, 160)}`,
  );
}

const receiptCases: AttackCase[] = [
  {
    area: 'inputs',
    name: 'receipt code whose payload is the JSON null, no session: "not valid", not 500',
    async run(t) {
      notValid(await verify(t, `WBSR1.bnVsbA.${NO_SIGNATURE}`), 'null payload');
    },
  },
  {
    area: 'inputs',
    name: 'receipt codes with payloads of every wrong shape and signatures of every length: "not valid"',
    async run(t) {
      const keys = json<{ signingKeyId: string }>(await t.send({ path: '/api/v1/receipts/public-key' }));
      const kid = keys.signingKeyId;
      const payloads = [
        'null',
        '1',
        '-0.5e308',
        '"WBS-10000001"',
        'true',
        '[]',
        '[null,{"v":1}]',
        '{}',
        '{"v":1}',
        `{"v":"1","kid":"${kid}","no":"WBS-1","t":"x","d":"y"}`,
        `{"v":1,"kid":["${kid}"],"no":"WBS-1","t":"x","d":"y"}`,
        `{"v":1,"kid":"${kid}","no":1,"t":null,"d":{}}`,
        `{"v":1,"kid":{"toString":"${kid}"}}`,
        `{"__proto__":{"v":1,"kid":"${kid}"}}`,
        `{"constructor":{"prototype":{"v":1}}}`,
        `${'['.repeat(600)}${']'.repeat(600)}`,
        JSON.stringify('x'.repeat(1300)),
        '{"v":1,',
        '\u0000\u00ff',
      ];
      for (const payload of payloads) {
        notValid(
          await verify(t, `WBSR1.${b64url(payload)}.${NO_SIGNATURE}`),
          `payload ${payload.slice(0, 60)}`,
        );
      }
      const receiptShaped = b64url(`{"v":1,"kid":"${kid}","no":"WBS-10000001","t":"x","d":"y"}`);
      for (const length of [1, 32, 63, 65, 96, 128]) {
        notValid(
          await verify(t, `WBSR1.${receiptShaped}.${b64url(new Uint8Array(length))}`),
          `signature of ${length} bytes`,
        );
      }
      for (const code of [
        'WBSR1',
        'WBSR1..',
        'wbsr1.e30.AAAA',
        `WBSR1.e30.${NO_SIGNATURE}.e30`,
        'WBSR1.%%.%%',
        '.'.repeat(40),
      ]) {
        notValid(await verify(t, code), JSON.stringify(code));
      }
    },
  },
  {
    area: 'inputs',
    name: 'a genuine receipt still verifies, and one changed claim does not',
    async run(t) {
      const filed = await fileReport(t);
      caseNumberOf(filed);
      const { receipt } = json<{ receipt: { code: string; caseNumber: string } }>(filed);
      const checked = json<{ valid: boolean; caseNumber: string }>(await verify(t, receipt.code));
      expect(
        checked.valid && checked.caseNumber === receipt.caseNumber,
        `verdict ${JSON.stringify(checked)}`,
      );
      const [prefix, payload = '', signature = ''] = receipt.code.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const forged = `${prefix}.${b64url(JSON.stringify({ ...claims, no: 'WBS-10000001' }))}.${signature}`;
      notValid(await verify(t, forged), 'forged number');
    },
  },
];

// ---- file names (docs/adr/0048-form-data-file-names.md) ----

const QUOTED_NAME = 'bukti "final".png';

const fileNameCases: AttackCase[] = [
  {
    area: 'inputs',
    name: 'a double quote in a Tambah Bukti file name is shown as itself, never %22, and headers stay safe',
    async run(t) {
      const number = caseNumberOf(await fileReport(t));
      // undici's FormData writes the name as a browser does: `"` as `%22` in the part header.
      const form = new FormData();
      form.append('caseNumber', number);
      form.append('password', GUEST_PASSWORD);
      form.append('attachments', new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), QUOTED_NAME);
      const added = await t.send({ path: '/api/v1/tracking/attachments', form });
      expect(added.status === 201, `Tambah Bukti answered ${added.status} ${added.text.slice(0, 200)}`);
      const names = (reply: Reply) =>
        json<{ attachments: { id: number; name: string }[] }>(reply).attachments;
      expect(
        names(added).some((a) => a.name === QUOTED_NAME) && !added.text.includes('%22'),
        `reply names ${JSON.stringify(names(added).map((a) => a.name))}`,
      );

      const tracked = await t.send({
        path: '/api/v1/tracking',
        json: { caseNumber: number, password: GUEST_PASSWORD },
      });
      expect(tracked.status === 200, `tracking answered ${tracked.status}`);
      expect(
        names(tracked).some((a) => a.name === QUOTED_NAME),
        `the tracker sees ${JSON.stringify(names(tracked).map((a) => a.name))}`,
      );

      const id = await caseIdOf(t, number);
      const detail = await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' });
      const attachment = names(detail).find((a) => a.name === QUOTED_NAME);
      expect(attachment, `the handler sees ${JSON.stringify(names(detail).map((a) => a.name))}`);

      const download = await t.send({
        path: `/api/v1/cases/${id}/attachments/${attachment.id}`,
        as: 'admin.kahuripan',
      });
      expect(download.status === 200, `download answered ${download.status}`);
      const disposition = download.headers['content-disposition'] ?? '';
      const plain = /filename="([^"]*)"/.exec(disposition)?.[1];
      const star = /filename\*=UTF-8''([^;\s]+)/.exec(disposition)?.[1];
      expect(plain !== undefined && !/["\\\r\n]/.test(plain), `unsafe fallback in ${disposition}`);
      expect(star && decodeURIComponent(star) === QUOTED_NAME, `filename* ${star} in ${disposition}`);
    },
  },
];

export const inputCases: AttackCase[] = [...dateCases, ...receiptCases, ...fileNameCases];
