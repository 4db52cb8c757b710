/**
 * Anonymity (docs/product/privacy.md, "Identity and privacy"): an anonymous report carries no identity
 * to anyone; type 6 never receives the reporter's name; handlers get an anonymous reporter's e-mail
 * and phone masked, and the pelapor's "Sembunyikan identitas" hides its name on its cases; revealing a
 * masked contact needs the log-writing right and a reason with words in it
 * (docs/adr/0050-reveal-reasons-must-hold-words.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../system.ts';
import {
  type AttackCase,
  caseIdOf,
  caseNumberOf,
  expect,
  exportWorkbook,
  fileReport,
  GUEST_PASSWORD,
  json,
  today,
} from '../support.ts';

const SECRET_NAME = 'Nama Rahasia Pelapor Anonim';
const SECRET_DEPT = 'Bagian Rahasia Sekali';

let anonymousNumber: string | undefined;
const anonymousReport = async (t: Parameters<AttackCase['run']>[0]) => {
  anonymousNumber ??= caseNumberOf(
    await fileReport(t, {
      fields: { anonymous: 'true', name: SECRET_NAME, department: SECRET_DEPT, address: 'Jl. Rahasia 1' },
    }),
  );
  return anonymousNumber;
};

/** The reveal route of masked contact details, found in the OpenAPI document (the case does not assume its path). */
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

export const anonymityCases: AttackCase[] = [
  {
    area: 'anonymity',
    name: 'a handler receives no name or department of an anonymous report',
    async run(t) {
      const id = await caseIdOf(t, await anonymousReport(t));
      for (const as of ['admin.kahuripan', 'analis.direksi', 'holding']) {
        const reply = await t.send({ path: `/api/v1/cases/${id}`, as });
        expect(reply.status === 200, `${as}: ${reply.status}`);
        expect(
          !reply.text.includes(SECRET_NAME) && !reply.text.includes(SECRET_DEPT),
          `${as} received the identity`,
        );
      }
    },
  },
  {
    area: 'anonymity',
    name: 'the case list and export carry no name of an anonymous report',
    async run(t) {
      const number = await anonymousReport(t);
      const filter = { from: today(), to: today() };
      const list = await t.send({
        path: '/api/v1/cases/search',
        json: { ...filter, page: 1, pageSize: 100 },
        as: 'admin.kahuripan',
      });
      // The report must be there: a list without it would carry no name either.
      expect(list.status === 200 && list.text.includes(number), `the list lacks ${number}`);
      expect(
        !list.text.includes(SECRET_NAME) && !list.text.includes(SECRET_DEPT),
        'the list carries the name',
      );
      const workbook = [...(await exportWorkbook(t, filter)).values()].join('\n');
      expect(workbook.includes(number), `the export lacks ${number}`);
      expect(
        !workbook.includes(SECRET_NAME) && !workbook.includes(SECRET_DEPT),
        'the export carries the name',
      );
    },
  },
  {
    area: 'anonymity',
    name: 'the tracker of an anonymous report sees no name',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/tracking',
        json: { caseNumber: await anonymousReport(t), password: GUEST_PASSWORD },
      });
      expect(reply.status === 200 && !reply.text.includes(SECRET_NAME), `answered ${reply.status}`);
    },
  },
  {
    area: 'anonymity',
    name: 'type 6 never receives the reporter name, even of its own case',
    async run(t) {
      const id = t.fixtures.pelaporCaseId;
      expect(id, 'the seed gives the pelapor no case');
      const detail = json<{ reporter?: { name: unknown } }>(
        await t.send({ path: `/api/v1/cases/${id}`, as: 'pelapor' }),
      );
      expect(
        detail.reporter && detail.reporter.name === null,
        `reporter.name is ${JSON.stringify(detail.reporter?.name)}`,
      );
    },
  },
  {
    area: 'anonymity',
    name: 'a contact reveal with a zero-width or symbol-only reason is refused 400, nothing revealed',
    async run(t) {
      const id = await caseIdOf(t, await anonymousReport(t));
      const reveal = (reason: string) =>
        t.send({
          path: `/api/v1/cases/${id}/contact-reveal`,
          json: { reason },
          as: 'admin.kahuripan',
        });
      const empty = [
        '\u200B'.repeat(12),
        '\u200B\u200C\u200D\u2060\uFEFF'.repeat(3),
        '\u3164'.repeat(10), // Hangul filler: a letter that renders blank
        '\u00A0\u2003\u3000'.repeat(4),
      ];
      const noWords = [
        '!!!!!!!!!!!!',
        '..........',
        '#*#*#*#*#*#*',
        '😀😀😀😀😀😀😀😀😀😀',
        '1234567890',
        'a b c d e f g h i j k',
        'Klarifikasi\u200Bbukti',
      ];
      for (const [reasons, message] of [
        [empty, 'Alasan wajib diisi'],
        [noWords, 'Alasan harus berisi minimal 2 kata dengan total minimal 10 huruf'],
      ] as const) {
        for (const reason of reasons) {
          const reply = await reveal(reason);
          const errors = reply.status === 400 ? json<{ errors?: { reason?: string } }>(reply).errors : null;
          expect(
            errors?.reason === message,
            `${JSON.stringify(reason)}: ${reply.status} ${reply.text.slice(0, 160)}`,
          );
          expect(!reply.text.includes('@'), `${JSON.stringify(reason)}: the reply carries an e-mail`);
        }
      }
      // The same handler and case with a reason in words: the refusals were the reason's.
      const real = await reveal('Menghubungi pelapor untuk klarifikasi bukti');
      expect(real.status === 200, `a real reason answered ${real.status}`);
    },
  },
  {
    area: 'anonymity',
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
];
