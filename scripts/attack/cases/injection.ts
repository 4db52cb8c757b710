/**
 * Injection: SQL/NoSQL/template strings, CRLF in fields, prototype-pollution keys, path traversal and
 * hostile JSON. Nothing is interpreted, nothing crashes, nothing leaks, nothing changes for the next
 * request. An Akses Level the legacy does not offer (`roleId` 99) is refused.
 */
import {
  type AttackCase,
  caseNumberOf,
  cookieFrom,
  expect,
  fileReport,
  GUEST_PASSWORD,
  json,
  namesNobody,
  type Tools,
  wholeYear,
} from '../support.ts';

const TEMPLATES = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is the literal text
  '${7*7}',
  '{{7*7}}',
  '<%= 7*7 %>',
  '#{7*7}',
  "'; DROP TABLE cases; --",
  '{"$where":"sleep(1000)"}',
  '<script>alert(1)</script>',
];

async function stillAnonymous(t: Tools) {
  const reply = await t.send({ path: '/api/v1/session' });
  expect(
    namesNobody(reply),
    `an anonymous GET /session now answers ${reply.status} ${reply.text.slice(0, 80)}`,
  );
}

export const injectionCases: AttackCase[] = [
  ...["admin' --", "admin' OR '1'='1", 'admin"; --', 'admin\u0000'].map(
    (username): AttackCase => ({
      area: 'injection',
      name: `sign-in with username ${JSON.stringify(username)}`,
      async run(t) {
        const reply = await t.send({ path: '/api/v1/session', json: { username, password: "' OR '1'='1" } });
        expect(reply.status >= 400 && reply.status < 500, `answered ${reply.status}`);
        expect(!cookieFrom(reply, 'wbs_session'), 'signed in');
      },
    }),
  ),
  {
    area: 'injection',
    name: 'NoSQL operators as sign-in fields',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/session',
        json: { username: { $gt: '' }, password: { $ne: null } },
      });
      expect(reply.status === 400, `answered ${reply.status}`);
    },
  },
  ...["' OR 1=1 --", 'WBS-%', '*', '.*', '{"$ne":null}'].map(
    (number): AttackCase => ({
      area: 'injection',
      name: `case number filter ${JSON.stringify(number)} matches nothing`,
      async run(t) {
        const reply = await t.send({
          path: '/api/v1/cases/search',
          json: wholeYear({ number }),
          as: 'admin.kahuripan',
        });
        if (reply.status === 400) return;
        expect(reply.status === 200, `answered ${reply.status}`);
        expect(json<{ items: unknown[] }>(reply).items.length === 0, 'the filter matched cases');
      },
    }),
  ),
  ...TEMPLATES.map(
    (payload): AttackCase => ({
      area: 'injection',
      name: `report text ${JSON.stringify(payload)} is stored and shown literally`,
      async run(t) {
        const what = `Kejadian ${payload} di kantor`;
        const number = caseNumberOf(await fileReport(t, { fields: { what } }));
        const tracked = await t.send({
          path: '/api/v1/tracking',
          json: { caseNumber: number, password: GUEST_PASSWORD },
        });
        expect(tracked.status === 200, `tracking answered ${tracked.status}`);
        expect(/application\/json/.test(tracked.headers['content-type'] ?? ''), 'not JSON');
        expect(tracked.text.includes(JSON.stringify(what).slice(1, -1)), 'the text came back changed');
      },
    }),
  ),
  {
    area: 'injection',
    name: 'CRLF in the forgot-password e-mail is refused',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/password/forgot',
        json: { email: 'a@example.com\r\nBcc: korban@example.com' },
      });
      expect(reply.status === 400, `answered ${reply.status}`);
    },
  },
  {
    area: 'injection',
    name: 'CRLF in a report field stays inside the field',
    async run(t) {
      const number = caseNumberOf(await fileReport(t, { fields: { where: 'Kantor\r\nX-Injected: 1' } }));
      const tracked = await t.send({
        path: '/api/v1/tracking',
        json: { caseNumber: number, password: GUEST_PASSWORD },
      });
      expect(!('x-injected' in tracked.headers), 'a header was injected');
    },
  },
  {
    area: 'injection',
    name: 'Idempotency-Key with odd characters is refused',
    async run(t) {
      const reply = await fileReport(t, { headers: { 'idempotency-key': '../../x;DROP' } });
      expect(reply.status === 400, `answered ${reply.status}`);
    },
  },
  ...(
    [
      [
        '__proto__ on sign-in',
        '/api/v1/session',
        '{"username":"x","password":"y","__proto__":{"userTypeId":1,"role":1}}',
        undefined,
      ],
      [
        'constructor.prototype on sign-in',
        '/api/v1/session',
        '{"username":"x","password":"y","constructor":{"prototype":{"userTypeId":1}}}',
        undefined,
      ],
      [
        '__proto__ companyId on the case list',
        '/api/v1/cases/search',
        '{"__proto__":{"companyId":2}}',
        'admin.kahuripan',
      ],
      [
        '__proto__ on a new partner',
        '/api/v1/partners',
        '{"__proto__":{"isAdmin":true},"partnerName":"X"}',
        'admin',
      ],
      [
        'nested __proto__ in tracking',
        '/api/v1/tracking',
        '{"caseNumber":"WBS-10000001","password":{"__proto__":{"toString":1}}}',
        undefined,
      ],
    ] as [string, string, string, string | undefined][]
  ).map(
    ([label, path, body, as]): AttackCase => ({
      area: 'injection',
      name: `prototype pollution: ${label}`,
      async run(t) {
        const reply = await t.send({
          path,
          body,
          headers: { 'content-type': 'application/json' },
          ...(as ? { as } : {}),
        });
        expect(reply.status >= 400 && reply.status < 500, `answered ${reply.status}`);
        expect(!cookieFrom(reply, 'wbs_session'), 'a session was issued');
        await stillAnonymous(t);
        const after = await t.send({
          path: '/api/v1/cases/search',
          json: wholeYear(),
          as: 'admin.kahuripan',
        });
        const companies = new Set(
          json<{ items: { companyId: number }[] }>(after).items.map((c) => c.companyId),
        );
        expect(after.status === 200 && [...companies].every((c) => c === 1), 'the next request is affected');
      },
    }),
  ),
  ...[
    '/api/v1/../../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/api/v1/cases/..%2f..%2f..%2fetc%2fpasswd',
    '/..;/api/v1/partners',
  ].map(
    (path): AttackCase => ({
      area: 'injection',
      name: `path traversal ${path}`,
      async run(t) {
        const reply = await t.send({ path, as: 'admin.kahuripan' });
        expect(reply.status >= 400 && reply.status < 500, `answered ${reply.status}`);
        expect(!/root:|\[boot loader\]/.test(reply.text), 'a system file came back');
      },
    }),
  ),
  {
    area: 'injection',
    name: 'a 2 MB JSON body is refused 413',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/tracking',
        json: { caseNumber: 'WBS-1', password: 'x'.repeat(2 * 1024 * 1024) },
      });
      expect(reply.status === 413, `answered ${reply.status}`);
    },
  },
  {
    area: 'injection',
    name: 'JSON nested 100,000 deep is refused without harm',
    async run(t) {
      const depth = 100_000;
      const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const reply = await t.send({
        path: '/api/v1/tracking',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status >= 400 && reply.status < 500, `answered ${reply.status}`);
      const health = await t.send({ path: '/healthz' });
      expect(health.status === 200, 'the gateway is not healthy afterwards');
    },
  },
  {
    area: 'injection',
    name: 'malformed JSON is a 400 problem',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/tracking',
        body: '{"caseNumber":',
        headers: { 'content-type': 'application/json' },
      });
      expect(
        reply.status === 400 && /problem\+json/.test(reply.headers['content-type'] ?? ''),
        `answered ${reply.status} ${reply.headers['content-type']}`,
      );
    },
  },
  {
    area: 'injection',
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
