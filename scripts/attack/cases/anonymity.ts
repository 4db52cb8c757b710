/**
 * Anonymity as it holds today (docs/decisions.md #13, #14): an anonymous report carries no identity
 * to anyone; type 6 never receives the reporter's name. (Masked contact details and the profile
 * toggle are issue-8 contract cases.)
 */
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
];
