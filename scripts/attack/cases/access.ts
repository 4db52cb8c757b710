/**
 * Access control: every route × every subject (anonymous and each seeded demo account). The table
 * below is written from the spec's section 6 and the product rules (docs/product/: roles-and-screens.md
 * "Roles and scope", handling.md "Dashboards", reporting.md "Who may file"), not read from the code.
 * A subject outside the route's audience gets 401 (signed out) or 403 (signed in) — before any body
 * is read; a subject inside it gets neither (the request itself is deliberately empty or aims at a
 * record that does not exist, so nothing changes).
 */
import { type AttackCase, expect, SUBJECTS } from '../support.ts';

type Audience = 'anyone' | 'signed-in' | 'guest-or-handler' | number[] | 'handler';

type RouteSpec = {
  method: string;
  path: string;
  audience: Audience;
  body?: unknown;
  /** Denied signed-in users may also get 404: the record is outside their scope (no existence leak). */
  scopeDenial?: true;
};

const NONE = 999_999;
const NONE_UUID = '00000000-0000-4000-8000-000000000000';
const ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/api/v1/regions/provinces', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/regions/provinces/32/cities', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/regions/cities/3201/districts', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/units/directorates', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/units/directorates/1/divisions', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/channels', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/case-statuses', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/case-categories', audience: 'anyone' },
  { method: 'GET', path: '/api/v1/case-category-groups', audience: 'anyone' },
  { method: 'POST', path: '/api/v1/tracking', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/password/forgot', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/session', audience: 'anyone', body: {} },
  { method: 'PUT', path: '/api/v1/password', audience: 'signed-in', body: {} },
  { method: 'GET', path: '/api/v1/case-lines', audience: 'signed-in' },
  { method: 'GET', path: '/api/v1/profile', audience: [6] },
  { method: 'PUT', path: '/api/v1/profile', audience: [6], body: {} },
  { method: 'GET', path: '/api/v1/user-roles', audience: [1, 2, 3] },
  { method: 'POST', path: '/api/v1/case-categories', audience: [2], body: {} },
  { method: 'PUT', path: `/api/v1/case-categories/${NONE}`, audience: [2], body: {} },
  { method: 'GET', path: '/api/v1/partners', audience: [1] },
  { method: 'POST', path: '/api/v1/partners', audience: [1], body: {} },
  { method: 'GET', path: '/api/v1/partners/options', audience: [1] },
  { method: 'GET', path: `/api/v1/partners/${NONE}`, audience: [1] },
  { method: 'PUT', path: `/api/v1/partners/${NONE}`, audience: [1], body: {} },
  { method: 'DELETE', path: `/api/v1/partners/${NONE}`, audience: [1] },
  { method: 'GET', path: '/api/v1/companies', audience: [1] },
  { method: 'POST', path: '/api/v1/companies', audience: [1], body: {} },
  { method: 'GET', path: '/api/v1/companies/options', audience: [1, 3, 5] },
  { method: 'GET', path: `/api/v1/companies/${NONE}`, audience: [1] },
  { method: 'PUT', path: `/api/v1/companies/${NONE}`, audience: [1], body: {} },
  { method: 'DELETE', path: `/api/v1/companies/${NONE}`, audience: [1] },
  { method: 'GET', path: '/api/v1/partner-staff', audience: [3] },
  { method: 'POST', path: '/api/v1/partner-staff', audience: [3], body: {} },
  { method: 'GET', path: `/api/v1/partner-staff/${NONE}`, audience: [3] },
  { method: 'PUT', path: `/api/v1/partner-staff/${NONE}`, audience: [3], body: {} },
  { method: 'DELETE', path: `/api/v1/partner-staff/${NONE}`, audience: [3] },
  // One policy (`password:reset-staff`, types 2 and 3) covers both reset routes; the other type's
  // staff are outside its scope.
  { method: 'POST', path: `/api/v1/partner-staff/${NONE}/password-reset`, audience: [3], scopeDenial: true },
  { method: 'GET', path: '/api/v1/analysts', audience: [2] },
  { method: 'POST', path: '/api/v1/analysts', audience: [2], body: {} },
  { method: 'GET', path: `/api/v1/analysts/${NONE}`, audience: [2] },
  { method: 'PUT', path: `/api/v1/analysts/${NONE}`, audience: [2], body: {} },
  { method: 'DELETE', path: `/api/v1/analysts/${NONE}`, audience: [2] },
  { method: 'POST', path: `/api/v1/analysts/${NONE}/password-reset`, audience: [2], scopeDenial: true },
  // Type 1 reads the group's cases, read-only (docs/product/roles-and-screens.md#administrator).
  { method: 'POST', path: '/api/v1/cases/search', audience: [1, 2, 3, 4, 5, 6], body: {} },
  { method: 'POST', path: '/api/v1/cases/export', audience: 'handler', body: {} },
  { method: 'GET', path: `/api/v1/cases/${NONE}`, audience: [1, 2, 3, 4, 5, 6] },
  { method: 'POST', path: `/api/v1/cases/${NONE}/contact-reveal`, audience: 'handler', body: {} },
  { method: 'GET', path: `/api/v1/cases/${NONE}/messages`, audience: [2, 3, 4, 5, 6] },
  { method: 'GET', path: `/api/v1/cases/${NONE}/identity-access`, audience: [6] },
  { method: 'POST', path: '/api/v1/tracking/conversation', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/tracking/messages', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/tracking/identity-access', audience: 'anyone', body: {} },
  // E-mail notice of a reply: the tracker's proof or a mail link's token in the body; the pelapor on its own case.
  { method: 'POST', path: '/api/v1/tracking/reporter-notices', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/tracking/reporter-notices/status', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/tracking/reporter-notices/stop', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/reporter-notices/confirm', audience: 'anyone', body: {} },
  { method: 'POST', path: '/api/v1/reporter-notices/opt-out', audience: 'anyone', body: {} },
  { method: 'GET', path: `/api/v1/cases/${NONE}/reporter-notices`, audience: [6] },
  { method: 'POST', path: `/api/v1/cases/${NONE}/reporter-notices`, audience: [6], body: {} },
  { method: 'DELETE', path: `/api/v1/cases/${NONE}/reporter-notices`, audience: [6] },
  { method: 'GET', path: `/api/v1/cases/${NONE}/attachments/${NONE}`, audience: [2, 3, 4, 5, 6] },
  { method: 'GET', path: `/api/v1/cases/${NONE}/logs/${NONE}/attachment`, audience: [2, 3, 4, 5] },
  { method: 'POST', path: '/api/v1/cases', audience: 'guest-or-handler', body: {} },
  { method: 'POST', path: `/api/v1/cases/${NONE}/logs`, audience: 'handler', body: {} },
  { method: 'GET', path: '/api/v1/dashboard/companies', audience: [2, 3, 4, 5] },
  { method: 'GET', path: '/api/v1/dashboard/summary', audience: [2, 3, 4, 5] },
  { method: 'GET', path: '/api/v1/dashboard/open-cases', audience: [2, 3, 4, 5] },
  // The second factor: everyone signed in has their own (types 1–5 must, type 6 may). Not here: POST
  // …/totp and POST …/recovery-codes, which change the account even with an empty body (a waiting
  // secret, new codes); cases/second-factor.ts calls them on accounts of its own.
  { method: 'POST', path: '/api/v1/session/second-factor/challenge', audience: 'signed-in', body: {} },
  { method: 'POST', path: '/api/v1/session/second-factor', audience: 'signed-in', body: {} },
  { method: 'GET', path: '/api/v1/account/second-factors', audience: 'signed-in' },
  { method: 'PUT', path: '/api/v1/account/second-factors/totp', audience: 'signed-in', body: {} },
  { method: 'DELETE', path: '/api/v1/account/second-factors/totp', audience: 'signed-in' },
  {
    method: 'POST',
    path: '/api/v1/account/second-factors/passkeys/options',
    audience: 'signed-in',
    body: {},
  },
  { method: 'POST', path: '/api/v1/account/second-factors/passkeys', audience: 'signed-in', body: {} },
  {
    method: 'PATCH',
    path: `/api/v1/account/second-factors/passkeys/${NONE_UUID}`,
    audience: 'signed-in',
    body: {},
  },
  { method: 'DELETE', path: `/api/v1/account/second-factors/passkeys/${NONE_UUID}`, audience: 'signed-in' },
  // Resets by whoever manages the account: type 1 partners and companies, type 2 its analysts, type 3
  // its partner staff.
  { method: 'POST', path: `/api/v1/partners/${NONE}/second-factor-reset`, audience: [1], body: {} },
  { method: 'POST', path: `/api/v1/companies/${NONE}/second-factor-reset`, audience: [1], body: {} },
  { method: 'POST', path: `/api/v1/partner-staff/${NONE}/second-factor-reset`, audience: [3], body: {} },
  { method: 'POST', path: `/api/v1/analysts/${NONE}/second-factor-reset`, audience: [2], body: {} },
];

type Who = { label: string; username: string | null; userTypeId: number | null; role: number | null };

const WHO: Who[] = [
  { label: 'anonymous', username: null, userTypeId: null, role: null },
  ...SUBJECTS.map((s) => ({
    label: s.username,
    username: s.username,
    userTypeId: s.userTypeId,
    role: s.role,
  })),
];

/** Case handlers (spec §6): types 2 and 3, and types 4 and 5 with the privileged role 1. */
const isHandler = (w: Who) =>
  w.userTypeId === 2 || w.userTypeId === 3 || ((w.userTypeId === 4 || w.userTypeId === 5) && w.role === 1);

function allowed(audience: Audience, who: Who): boolean {
  if (audience === 'anyone') return true;
  if (audience === 'signed-in') return who.userTypeId !== null;
  if (audience === 'handler') return isHandler(who);
  if (audience === 'guest-or-handler') return who.userTypeId === null || isHandler(who);
  return who.userTypeId !== null && audience.includes(who.userTypeId);
}

export const accessCases: AttackCase[] = ROUTES.flatMap((route) =>
  WHO.map(
    (who): AttackCase => ({
      area: 'access',
      name: `${route.method} ${route.path} as ${who.label}`,
      async run(t) {
        const reply = await t.send({
          method: route.method,
          path: route.path,
          ...(route.body !== undefined ? { json: route.body } : {}),
          ...(who.username ? { as: who.username } : {}),
        });
        if (allowed(route.audience, who)) {
          expect(
            reply.status !== 401 && reply.status !== 403 && reply.status < 500,
            `expected to pass the access check, got ${reply.status}`,
          );
        } else {
          const want = who.userTypeId === null ? [401] : route.scopeDenial ? [403, 404] : [403];
          expect(want.includes(reply.status), `expected ${want.join(' or ')}, got ${reply.status}`);
        }
      },
    }),
  ),
);
