/**
 * Issue 8's items whose fix other helpers are building at the same time (sessions registry, uploads,
 * anonymity, limits, headers), written to the issue's text and the brief's shared contracts:
 * 429 `rate-limited` + Retry-After; 503 `busy` + Retry-After. Each case names its item. They fail
 * on a branch without that fix and must pass once the branches are merged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { request } from 'undici';
import { tinyPng, type UploadFile } from '../../fault/http.ts';
import { repoRoot } from '../../system.ts';
import {
  type AttackCase,
  caseIdOf,
  caseNumberOf,
  cookieFrom,
  expect,
  fileReport,
  json,
  namesNobody,
  problemType,
  type Reply,
  type Tools,
  wholeYear,
} from '../support.ts';
import { incrementalPdfWithHiddenInfo, OLD_AUTHOR, pdfText } from './pdf.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A .docx whose word/document.xml declares 100 bytes but inflates to 20,000 (issue 8 §1). */
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

async function changePassword(
  t: Tools,
  cookie: string,
  oldPassword: string,
  newPassword: string,
): Promise<Reply> {
  return t.send({
    method: 'PUT',
    path: '/api/v1/password',
    json: { oldPassword, newPassword, confirmNewPassword: newPassword },
    cookie,
  });
}

const weakPassword = (password: string): AttackCase => ({
  area: 'tracking',
  contract: '§6',
  name: `case password ${JSON.stringify(password)} is refused with a field message`,
  async run(t) {
    const reply = await fileReport(t, { fields: { password, confirmPassword: password } });
    expect(reply.status === 400, `answered ${reply.status}`);
    const errors = json<{ errors?: Record<string, string> }>(reply).errors ?? {};
    expect(errors.password, `no field error on password: ${reply.text.slice(0, 160)}`);
  },
});

/** The reveal route of masked contact details, found in the OpenAPI document (its path is the builder's). */
function revealRoute(): { method: string; path: string } | undefined {
  const doc = JSON.parse(readFileSync(join(repoRoot, 'openapi', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!/reveal|contact/i.test(path)) continue;
    const method = Object.keys(ops).find((m) => ['post', 'put', 'get'].includes(m));
    if (method) return { method: method.toUpperCase(), path };
  }
  return undefined;
}

export const issue8Cases: AttackCase[] = [
  // §1 No upload can end or hang the process.
  {
    area: 'uploads',
    contract: '§1',
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
  // §3 No flooding.
  {
    area: 'limits',
    contract: '§3',
    name: '25 reports from one client in a burst: some refused 429 rate-limited with Retry-After',
    async run(t) {
      const address = t.nextAddress();
      const replies = await Promise.all(Array.from({ length: 25 }, () => fileReport(t, { address })));
      const refused = replies.find((r) => r.status === 429);
      expect(refused, `all answered: ${[...new Set(replies.map((r) => r.status))].join(',')}`);
      expect(
        problemType(refused) === 'rate-limited' && Number(refused.headers['retry-after']) > 0,
        'not rate-limited with Retry-After',
      );
    },
  },
  {
    area: 'limits',
    contract: '§3',
    name: 'concurrent stalled uploads hit the spool cap: 503 busy with Retry-After',
    async run(t) {
      const stalled: AbortController[] = [];
      const replies: Promise<Reply | null>[] = [];
      try {
        for (let i = 0; i < 40; i++) {
          const abort = new AbortController();
          stalled.push(abort);
          const boundary = 'stall';
          async function* body() {
            yield Buffer.from(
              `--${boundary}\r\ncontent-disposition: form-data; name="evidence"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`,
            );
            await new Promise((resolve) => abort.signal.addEventListener('abort', resolve));
          }
          replies.push(
            t
              .send({
                path: '/api/v1/cases',
                body: body(),
                headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
              })
              .catch(() => null),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const extra = await fileReport(t);
        const busy = extra.status === 503 ? extra : undefined;
        expect(busy, `a 41st upload answered ${extra.status}`);
        expect(
          problemType(busy) === 'busy' && Number(busy.headers['retry-after']) > 0,
          `503 ${problemType(busy)} without Retry-After`,
        );
      } finally {
        for (const a of stalled) a.abort();
        await Promise.all(replies);
      }
    },
  },
  // §4 Sessions the gateway can end.
  {
    area: 'sessions',
    contract: '§4',
    name: 'after logout the old cookie no longer reads GET /session',
    async run(t) {
      const cookie = await t.freshSession('admin.pakuan');
      await t.send({ method: 'DELETE', path: '/api/v1/session', cookie });
      const reply = await t.send({ path: '/api/v1/session', cookie });
      expect(namesNobody(reply), `answered ${reply.status} ${reply.text.slice(0, 80)}`);
    },
  },
  {
    area: 'sessions',
    contract: '§4',
    name: 'logout sends Clear-Site-Data',
    async run(t) {
      const cookie = await t.freshSession('admin.pakuan');
      const out = await t.send({ method: 'DELETE', path: '/api/v1/session', cookie });
      expect(
        /cookies|storage|\*/.test(out.headers['clear-site-data'] ?? ''),
        `Clear-Site-Data: ${out.headers['clear-site-data'] ?? 'none'}`,
      );
    },
  },
  {
    area: 'sessions',
    contract: '§4',
    name: "a password change ends the user's other sessions within a second",
    async run(t) {
      const a = await t.freshSession('analis.pakuan', 'Demo#2026!');
      const b = await t.freshSession('analis.pakuan', 'Demo#2026!');
      const changed = await changePassword(t, a, 'Demo#2026!', 'Serangan#Uji-2026x');
      expect(
        changed.status === 200 || changed.status === 204,
        `change answered ${changed.status} ${changed.text.slice(0, 120)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const other = await t.send({ path: '/api/v1/session', cookie: b });
      expect(namesNobody(other), `the other session answered ${other.status} ${other.text.slice(0, 80)}`);
      const data = await t.send({ path: '/api/v1/cases/search', json: wholeYear(), cookie: b });
      expect(data.status === 401, `the other session's case list answered ${data.status}`);
    },
  },
  {
    area: 'sessions',
    contract: '§4',
    name: 'the forced-change ticket is single-use',
    async run(t) {
      const signIn = await t.send({
        path: '/api/v1/session',
        json: { username: 'analis.baru', password: 'Awal#2026!' },
      });
      const ticket = cookieFrom(signIn, 'wbs_pwchange');
      expect(ticket, `no ticket (sign-in ${signIn.status})`);
      const first = await changePassword(t, ticket, 'Awal#2026!', 'Tiket#Sekali-2026a');
      expect(
        first.status === 200 || first.status === 204,
        `first change answered ${first.status} ${first.text.slice(0, 120)}`,
      );
      const replay = await changePassword(t, ticket, 'Tiket#Sekali-2026a', 'Tiket#Ulang-2026b');
      expect(replay.status === 401, `the replayed ticket answered ${replay.status}`);
    },
  },
  {
    area: 'sessions',
    contract: '§4',
    name: 'a supervisor demoted by the company admin loses export within a second',
    async run(t) {
      type Staff = {
        id: number;
        fullName: string;
        username: string | null;
        email: string | null;
        roleId: number | null;
        caseLineId?: number | null;
      };
      const list = json<{ items: Staff[] }>(
        await t.send({ path: '/api/v1/analysts', as: 'admin.kahuripan' }),
      );
      const direksi = list.items.find((s) => s.username === 'analis.direksi');
      expect(direksi, 'analis.direksi is not in company 1');
      const full = json<Staff>(
        await t.send({ path: `/api/v1/analysts/${direksi.id}`, as: 'admin.kahuripan' }),
      );
      const cookie = await t.freshSession('analis.direksi');
      const exportBody = { from: wholeYear().from, to: wholeYear().to };
      const before = await t.send({ path: '/api/v1/cases/export', json: exportBody, cookie });
      expect(before.status === 200, `export before the change answered ${before.status}`);
      const edit = (roleId: number) =>
        t.send({
          method: 'PUT',
          path: `/api/v1/analysts/${direksi.id}`,
          json: {
            fullName: full.fullName,
            username: full.username,
            email: full.email,
            roleId,
            caseLineId: full.caseLineId ?? 1,
          },
          as: 'admin.kahuripan',
        });
      const demoted = await edit(2);
      expect(demoted.status === 200, `demotion answered ${demoted.status} ${demoted.text.slice(0, 120)}`);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const after = await t.send({ path: '/api/v1/cases/export', json: exportBody, cookie });
        expect(
          after.status === 401 || after.status === 403,
          `export after the demotion answered ${after.status}`,
        );
      } finally {
        await edit(1);
      }
    },
  },
  // §5 Sign-in that neither locks people out nor leaks who exists.
  {
    area: 'limits',
    contract: '§5',
    name: 'twelve wrong passwords from an attacker do not lock the user out',
    async run(t) {
      const attacker = t.nextAddress();
      for (let i = 0; i < 12; i++) {
        await t.send({
          path: '/api/v1/session',
          json: { username: 'analis.direksi', password: `Salah#${i}` },
          address: attacker,
        });
      }
      const user = await t.send({
        path: '/api/v1/session',
        json: { username: 'analis.direksi', password: 'Analis#2026!' },
      });
      expect(user.status === 200, `the user's own sign-in answered ${user.status}`);
    },
  },
  {
    area: 'limits',
    contract: '§5',
    name: 'sign-in failures take the same time for unknown and existing usernames',
    async run(t) {
      const timeOf = async (username: string) => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          times.push(
            (await t.send({ path: '/api/v1/session', json: { username, password: `Salah#${i}x` } })).ms,
          );
        }
        return median(times);
      };
      const unknown = await timeOf('tidak.ada.sama.sekali');
      const existing = await timeOf('admin.raharja');
      expect(
        Math.abs(unknown - existing) <= Math.max(8, 0.25 * Math.max(unknown, existing)),
        `median ${Math.round(unknown)} vs ${Math.round(existing)} ms`,
      );
    },
  },
  {
    area: 'limits',
    contract: '§5',
    name: 'the current-password check of PUT /password is limited',
    async run(t) {
      const cookie = await t.freshSession('staff.holding2');
      let limited: Reply | undefined;
      for (let i = 0; i < 25 && !limited; i++) {
        const reply = await changePassword(t, cookie, `Tebakan#${i}`, 'Baru#Sekali-2026z');
        if (reply.status === 429) limited = reply;
      }
      expect(limited, '25 wrong current passwords were all checked');
      expect(Number(limited.headers['retry-after']) > 0, 'no Retry-After');
    },
  },
  // §6 Tracking passwords that resist guessing.
  weakPassword('12345678'),
  weakPassword('password'),
  weakPassword('aaaaaaaa'),
  {
    area: 'tracking',
    contract: '§6',
    name: 'continued guessing of one number lengthens the back-off',
    async run(t) {
      // The suite's gateway runs with a 1 s base (TRACKING_BACKOFF_BASE_SECONDS): each guess admitted
      // after waiting out the last refusal must leave a longer wait than the one before.
      const waits: number[] = [];
      let admittedSinceRefusal = true;
      for (let i = 0; waits.length < 3 && i < 40; i++) {
        const reply = await t.send({
          path: '/api/v1/tracking',
          json: { caseNumber: 'WBS-10000001', password: `Tebak#${i}` },
        });
        if (reply.status !== 429) {
          admittedSinceRefusal = true;
          continue;
        }
        const seconds = Number(reply.headers['retry-after']);
        if (admittedSinceRefusal) waits.push(seconds);
        admittedSinceRefusal = false;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));
      }
      expect(waits.length === 3, `only ${waits.length} refusals after admitted guesses`);
      expect(
        waits.every((wait, i) => i === 0 || wait > waits[i - 1]!),
        `Retry-After after each admitted guess went ${waits.join(' → ')}`,
      );
    },
  },
  // §7 Anonymity that means what the labels say.
  {
    area: 'anonymity',
    contract: '§7',
    name: 'a handler sees the e-mail and phone of an anonymous report masked',
    async run(t) {
      const number = caseNumberOf(
        await fileReport(t, { fields: { email: 'rahasia.pelapor@gmail.com', phone: '+6281234567789' } }),
      );
      const id = await caseIdOf(t, number);
      const reply = await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' });
      expect(!reply.text.includes('rahasia.pelapor@gmail.com'), 'the e-mail is in clear');
      expect(!reply.text.includes('81234567789'), 'the phone is in clear');
      expect(/r\*+@g\*+\.com/.test(reply.text), 'no masked e-mail (r***@g***.com)');
    },
  },
  {
    area: 'anonymity',
    contract: '§7',
    name: 'revealing masked contact details needs a reason and the log-writing right',
    async run(t) {
      const route = revealRoute();
      expect(route, 'no reveal route in openapi/openapi.json');
      const number = caseNumberOf(await fileReport(t, { fields: { email: 'buka.kontak@gmail.com' } }));
      const id = await caseIdOf(t, number);
      const path = route.path.replace(/\{[^}]+\}/, String(id));
      const noReason = await t.send({ method: route.method, path, json: {}, as: 'admin.kahuripan' });
      expect(noReason.status === 400, `without a reason: ${noReason.status}`);
      const readOnly = await t.send({
        method: route.method,
        path,
        json: { reason: 'Perlu menghubungi pelapor' },
        as: 'analis.spi',
      });
      expect(
        readOnly.status === 403 || readOnly.status === 404,
        `analyst without log rights: ${readOnly.status}`,
      );
      const revealed = await t.send({
        method: route.method,
        path,
        json: { reason: 'Perlu menghubungi pelapor' },
        as: 'admin.kahuripan',
      });
      expect(
        revealed.status === 200 && revealed.text.includes('buka.kontak@gmail.com'),
        `reveal answered ${revealed.status}`,
      );
    },
  },
  {
    area: 'anonymity',
    contract: '§7',
    name: "the profile toggle hides the pelapor's name from handlers on its cases",
    async run(t) {
      type Detail = { reporter: { anonymous: boolean; name: string | null } };
      const handlerView = async (id: number) =>
        json<Detail>(await t.send({ path: `/api/v1/cases/${id}`, as: 'admin.kahuripan' })).reporter;
      // An identified case of the pelapor whose name the handler sees while the toggle is off.
      let target: { id: number; name: string } | undefined;
      for (const id of t.fixtures.pelaporCaseIds) {
        const reporter = await handlerView(id);
        if (!reporter.anonymous && reporter.name) {
          target = { id, name: reporter.name };
          break;
        }
      }
      expect(target, 'no identified case of the pelapor to try the toggle on');
      const profile = json<{ fullName: string }>(await t.send({ path: '/api/v1/profile', as: 'pelapor' }));
      const toggle = (hideIdentity: boolean) =>
        t.send({
          method: 'PUT',
          path: '/api/v1/profile',
          json: { fullName: profile.fullName, hideIdentity },
          as: 'pelapor',
        });
      const on = await toggle(true);
      expect(on.status === 200, `PUT /profile answered ${on.status} ${on.text.slice(0, 120)}`);
      try {
        const detail = await t.send({ path: `/api/v1/cases/${target.id}`, as: 'admin.kahuripan' });
        expect(!detail.text.includes(target.name), "the handler still receives the pelapor's name");
      } finally {
        await toggle(false);
      }
    },
  },
  // §8 Smaller holes.
  {
    area: 'uploads',
    contract: '§8',
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
    area: 'headers',
    contract: '§8',
    name: 'Strict-Transport-Security behind https',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels', headers: { 'x-forwarded-proto': 'https' } });
      expect(
        /max-age=\d{6,}/.test(reply.headers['strict-transport-security'] ?? ''),
        `HSTS: ${reply.headers['strict-transport-security'] ?? 'none'}`,
      );
    },
  },
  {
    area: 'headers',
    contract: '§8',
    name: 'Permissions-Policy is sent',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels' });
      expect(reply.headers['permissions-policy'], 'no Permissions-Policy');
    },
  },
  {
    area: 'headers',
    contract: '§8',
    name: 'Cross-Origin-Opener-Policy is same-origin',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels' });
      expect(
        reply.headers['cross-origin-opener-policy'] === 'same-origin',
        `COOP: ${reply.headers['cross-origin-opener-policy'] ?? 'none'}`,
      );
    },
  },
  {
    area: 'uploads',
    contract: '§8',
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
  {
    area: 'injection',
    contract: '§8',
    name: 'roleId 99 is refused when creating an analyst',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/analysts',
        json: {
          fullName: 'Analis Uji',
          username: `analis.uji${Date.now() % 100000}`,
          email: `analis.uji${Date.now() % 100000}@example.com`,
          roleId: 99,
          caseLineId: 1,
        },
        as: 'admin.kahuripan',
      });
      expect(reply.status === 400, `answered ${reply.status} ${reply.text.slice(0, 120)}`);
    },
  },
];
