/**
 * CSRF: every state-changing route refuses a request from another origin even with a valid session
 * cookie (403 problem `csrf`), before the route runs; plus the header variants on one route.
 */
import { type AttackCase, expect, problemType, type Tools } from '../support.ts';

const ROUTES: [string, string][] = [
  ['POST', '/api/v1/session'],
  ['DELETE', '/api/v1/session'],
  ['PUT', '/api/v1/password'],
  ['POST', '/api/v1/password/forgot'],
  ['PUT', '/api/v1/profile'],
  ['POST', '/api/v1/case-categories'],
  ['PUT', '/api/v1/case-categories/1'],
  ['POST', '/api/v1/partners'],
  ['PUT', '/api/v1/partners/1'],
  ['DELETE', '/api/v1/partners/1'],
  ['POST', '/api/v1/companies'],
  ['PUT', '/api/v1/companies/1'],
  ['DELETE', '/api/v1/companies/3'],
  ['POST', '/api/v1/partner-staff'],
  ['PUT', '/api/v1/partner-staff/1'],
  ['DELETE', '/api/v1/partner-staff/1'],
  ['POST', '/api/v1/partner-staff/1/password-reset'],
  ['POST', '/api/v1/analysts'],
  ['PUT', '/api/v1/analysts/1'],
  ['DELETE', '/api/v1/analysts/1'],
  ['POST', '/api/v1/analysts/1/password-reset'],
  ['POST', '/api/v1/cases/search'],
  ['POST', '/api/v1/cases/export'],
  ['POST', '/api/v1/cases'],
  ['POST', '/api/v1/cases/1/logs'],
  ['POST', '/api/v1/tracking'],
  ['POST', '/api/v1/session/second-factor/challenge'],
  ['POST', '/api/v1/session/second-factor'],
  ['POST', '/api/v1/account/second-factors/totp'],
  ['PUT', '/api/v1/account/second-factors/totp'],
  ['DELETE', '/api/v1/account/second-factors/totp'],
  ['POST', '/api/v1/account/second-factors/passkeys/options'],
  ['POST', '/api/v1/account/second-factors/passkeys'],
  ['PATCH', '/api/v1/account/second-factors/passkeys/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/api/v1/account/second-factors/passkeys/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/v1/account/second-factors/recovery-codes'],
  ['POST', '/api/v1/partners/1/second-factor-reset'],
  ['POST', '/api/v1/companies/1/second-factor-reset'],
  ['POST', '/api/v1/partner-staff/1/second-factor-reset'],
  ['POST', '/api/v1/analysts/1/second-factor-reset'],
];

async function refusedAsCsrf(
  t: Tools,
  method: string,
  path: string,
  headers: Record<string, string>,
  as = 'admin',
) {
  const reply = await t.send({ method, path, json: {}, as, headers });
  expect(
    reply.status === 403 && problemType(reply) === 'csrf',
    `answered ${reply.status} ${problemType(reply) ?? ''}`,
  );
}

export const csrfCases: AttackCase[] = [
  ...ROUTES.map(
    ([method, path]): AttackCase => ({
      area: 'csrf',
      name: `${method} ${path} from https://evil.example with a session`,
      run: (t) => refusedAsCsrf(t, method, path, { origin: 'https://evil.example' }),
    }),
  ),
  ...(
    [
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
      ['Origin: null', { origin: 'null' }],
      ['Origin of another port', { origin: 'http://127.0.0.1:1' }],
      ['Origin https instead of http', { origin: 'https://127.0.0.1' }],
      ['Origin with our host as a subdomain of evil', { origin: 'http://127.0.0.1.evil.example' }],
      ['right Origin but Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ] as [string, Record<string, string>][]
  ).map(
    ([label, headers]): AttackCase => ({
      area: 'csrf',
      name: `POST /cases/search with ${label}`,
      async run(t) {
        const own: Record<string, string> =
          headers.origin === undefined ? { origin: new URL(t.baseUrl).origin } : {};
        await refusedAsCsrf(t, 'POST', '/api/v1/cases/search', { ...own, ...headers }, 'admin.kahuripan');
      },
    }),
  ),
  {
    area: 'csrf',
    name: 'cookie without Origin or Sec-Fetch-Site is refused',
    async run(t) {
      const cookie = t.sessions.get('admin.kahuripan');
      const reply = await t.send({ path: '/api/v1/cases/search', json: {}, cookie, headers: { origin: '' } });
      expect(reply.status === 403 && problemType(reply) === 'csrf', `answered ${reply.status}`);
    },
  },
];
