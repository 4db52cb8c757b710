/**
 * IDOR: a signed-in user naming a record of another company, line or reporter gets the same 404 as
 * for a record that does not exist (never the record, never a 403 that confirms it exists); and id
 * tricks in paths and bodies are refused as invalid, never a 500, never another record.
 */
import { type AttackCase, expect, type Tools, wholeYear } from '../support.ts';

const notFound = async (t: Tools, as: string, method: string, path: string, body?: unknown) => {
  const reply = await t.send({ method, path, as, ...(body !== undefined ? { json: body } : {}) });
  expect(reply.status === 404, `expected 404, got ${reply.status}`);
  expect(!/WBS-\d{8}/.test(reply.text), 'the refusal names a complaint number');
};

export const idorCases: AttackCase[] = [
  {
    area: 'idor',
    name: 'company-2 admin reads a company-1 case',
    run: (t) => notFound(t, 'admin.pakuan', 'GET', `/api/v1/cases/${t.fixtures.company1Case.id}`),
  },
  {
    area: 'idor',
    name: 'company-2 admin downloads a company-1 attachment',
    run: (t) =>
      notFound(
        t,
        'admin.pakuan',
        'GET',
        `/api/v1/cases/${t.fixtures.company1Case.id}/attachments/${t.fixtures.company1Case.attachmentId}`,
      ),
  },
  {
    area: 'idor',
    name: 'company-2 admin downloads a company-1 log attachment',
    async run(t) {
      expect(t.fixtures.company1Case.logId, 'the company-1 case has no log');
      await notFound(
        t,
        'admin.pakuan',
        'GET',
        `/api/v1/cases/${t.fixtures.company1Case.id}/logs/${t.fixtures.company1Case.logId}/attachment`,
      );
    },
  },
  {
    area: 'idor',
    name: 'company-1 admin reads a company-2 case',
    run: (t) => notFound(t, 'admin.kahuripan', 'GET', `/api/v1/cases/${t.fixtures.company2Case.id}`),
  },
  {
    area: 'idor',
    name: "own case id with another company's attachment id",
    run: (t) =>
      notFound(
        t,
        'admin.kahuripan',
        'GET',
        `/api/v1/cases/${t.fixtures.company1Case.id}/attachments/${t.fixtures.company2Case.attachmentId}`,
      ),
  },
  {
    area: 'idor',
    name: "own case id with another case's log id",
    async run(t) {
      expect(t.fixtures.company2Case.logId, 'the company-2 case has no log');
      await notFound(
        t,
        'admin.kahuripan',
        'GET',
        `/api/v1/cases/${t.fixtures.company1Case.id}/logs/${t.fixtures.company2Case.logId}/attachment`,
      );
    },
  },
  {
    area: 'idor',
    name: 'company-2 admin writes a log on a company-1 case',
    async run(t) {
      const reply = await t.send({
        path: `/api/v1/cases/${t.fixtures.company1Case.id}/logs`,
        as: 'admin.pakuan',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\ncontent-disposition: form-data; name="message"\r\n\r\nhalo\r\n--x--\r\n',
      });
      expect(reply.status === 404, `expected 404, got ${reply.status}`);
    },
  },
  {
    area: 'idor',
    name: 'analyst of Jalur SPI reads a Jalur Direksi case',
    run: (t) => notFound(t, 'analis.spi', 'GET', `/api/v1/cases/${t.fixtures.direksiCaseId}`),
  },
  {
    area: 'idor',
    name: 'pelapor reads a case that is not its own',
    run: (t) => notFound(t, 'pelapor', 'GET', `/api/v1/cases/${t.fixtures.company1Case.id}`),
  },
  {
    area: 'idor',
    name: 'pelapor downloads an attachment of a case not its own',
    run: (t) =>
      notFound(
        t,
        'pelapor',
        'GET',
        `/api/v1/cases/${t.fixtures.company1Case.id}/attachments/${t.fixtures.company1Case.attachmentId}`,
      ),
  },
  {
    area: 'idor',
    name: 'company-1 admin lists company 2',
    run: (t) => notFound(t, 'admin.kahuripan', 'POST', '/api/v1/cases/search', wholeYear({ companyId: 2 })),
  },
  {
    area: 'idor',
    name: 'company-1 admin exports company 2',
    run: (t) =>
      notFound(t, 'admin.kahuripan', 'POST', '/api/v1/cases/export', {
        ...wholeYear({ companyId: 2 }),
        page: undefined,
        pageSize: undefined,
      }),
  },
  {
    area: 'idor',
    name: 'company-1 admin reads company 2 dashboard',
    run: (t) =>
      notFound(
        t,
        'admin.kahuripan',
        'GET',
        `/api/v1/dashboard/summary?companyId=2&from=2026-01-01&to=2026-01-31`,
      ),
  },
  {
    area: 'idor',
    name: 'company-1 analyst (supervisor) lists company 2',
    run: (t) => notFound(t, 'analis.direksi', 'POST', '/api/v1/cases/search', wholeYear({ companyId: 2 })),
  },
  {
    area: 'idor',
    name: 'company-2 admin reads an analyst of company 1',
    async run(t) {
      const list = await t.send({ path: '/api/v1/analysts', as: 'admin.kahuripan' });
      const id = (JSON.parse(list.text) as { items?: { id: number }[] }).items?.[0]?.id;
      expect(id, 'company 1 has no analyst to aim at');
      await notFound(t, 'admin.pakuan', 'GET', `/api/v1/analysts/${id}`);
    },
  },
  {
    area: 'idor',
    name: 'company-2 admin resets the password of a company-1 analyst',
    async run(t) {
      const list = await t.send({ path: '/api/v1/analysts', as: 'admin.kahuripan' });
      const id = (JSON.parse(list.text) as { items?: { id: number }[] }).items?.[0]?.id;
      expect(id, 'company 1 has no analyst to aim at');
      await notFound(t, 'admin.pakuan', 'POST', `/api/v1/analysts/${id}/password-reset`);
    },
  },
];

const ID_TRICKS = [
  '-1',
  '0',
  '99999999999999999999',
  '1.5',
  '0x10',
  '00042',
  '1e3',
  '42abc',
  'NaN',
  '%2e%2e',
  '1%00',
  '42%20',
];

export const idTrickCases: AttackCase[] = [
  ...ID_TRICKS.map(
    (trick): AttackCase => ({
      area: 'id-tricks',
      name: `GET /cases/${trick}`,
      async run(t) {
        const reply = await t.send({ path: `/api/v1/cases/${trick}`, as: 'admin.kahuripan' });
        expect([400, 404].includes(reply.status), `expected 400 or 404, got ${reply.status}`);
      },
    }),
  ),
  ...['-1', '1.5', '0x1', '[1]'].map(
    (trick): AttackCase => ({
      area: 'id-tricks',
      name: `GET /cases/{own}/attachments/${trick}`,
      async run(t) {
        const reply = await t.send({
          path: `/api/v1/cases/${t.fixtures.company1Case.id}/attachments/${encodeURIComponent(trick)}`,
          as: 'admin.kahuripan',
        });
        expect([400, 404].includes(reply.status), `expected 400 or 404, got ${reply.status}`);
      },
    }),
  ),
  ...(
    [
      ['array', [1, 2]],
      ['string', '2'],
      ['float', 1.5],
      ['negative', -1],
      ['huge', 1e21],
      ['object', { $gt: 0 }],
    ] as const
  ).map(
    ([kind, value]): AttackCase => ({
      area: 'id-tricks',
      name: `case search with companyId as ${kind}`,
      async run(t) {
        const reply = await t.send({
          path: '/api/v1/cases/search',
          json: wholeYear({ companyId: value }),
          as: 'admin.kahuripan',
        });
        expect(reply.status === 400 || reply.status === 404, `expected 400 or 404, got ${reply.status}`);
      },
    }),
  ),
  {
    area: 'id-tricks',
    name: 'partner id 1.0 in the path (admin)',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/partners/1.0', as: 'admin' });
      expect(reply.status === 400 || reply.status === 404, `expected 400 or 404, got ${reply.status}`);
    },
  },
];
