/**
 * Sessions: a cookie the gateway did not issue, or issued and then changed, expired or ended, reads
 * nothing. `wbs_session` is an HS256 JWT (`aud` wbs-session) holding claims and the sealed legacy token.
 */
import { createHmac } from 'node:crypto';
import { type AttackCase, cookieFrom, expect, namesNobody, type Tools, wholeYear } from '../support.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function parts(cookie: string): {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signature: string;
} {
  const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  const [h, c, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h ?? '', 'base64url').toString()),
    claims: JSON.parse(Buffer.from(c ?? '', 'base64url').toString()),
    signature: signature ?? '',
  };
}

function signed(
  claims: Record<string, unknown>,
  secret: string,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
) {
  const body = `${b64(header)}.${b64(claims)}`;
  return `wbs_session=${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** A session cookie must read nothing: GET /session 401 and the case list 401. */
async function refused(t: Tools, cookie: string) {
  const session = await t.send({ path: '/api/v1/session', cookie });
  expect(namesNobody(session), `GET /session answered ${session.status} ${session.text.slice(0, 80)}`);
  const list = await t.send({ path: '/api/v1/cases/search', json: wholeYear(), cookie });
  expect(list.status === 401, `POST /cases/search answered ${list.status}`);
}

/**
 * Fresh sessions rotate over the demo accounts that may list cases, so no one account is signed in
 * often enough to meet the sign-in limits.
 */
const ROTATION = [
  'admin.kahuripan',
  'holding',
  'analis.direksi',
  'staff.holding',
  'pelapor',
  'admin.pakuan',
  'analis.spi',
  'staff.holding2',
];
let turn = 0;
const nextAccount = () => ROTATION[turn++ % ROTATION.length] ?? 'admin.kahuripan';

const withSession = (
  name: string,
  make: (t: Tools, cookie: string) => string | Promise<string>,
): AttackCase => ({
  area: 'sessions',
  name,
  async run(t) {
    const cookie = await t.freshSession(nextAccount());
    await refused(t, await make(t, cookie));
  },
});

export const sessionCases: AttackCase[] = [
  withSession('random string as the session cookie', () => 'wbs_session=abc.def.ghi'),
  withSession('empty session cookie', () => 'wbs_session='),
  withSession('claims changed (user type 1), signature kept', (_t, cookie) => {
    const { header, claims, signature } = parts(cookie);
    const u = { ...(claims.u as object), userTypeId: 1 };
    return `wbs_session=${b64(header)}.${b64({ ...claims, u })}.${signature}`;
  }),
  withSession('signature of another secret (foreign gateway)', (_t, cookie) =>
    signed(parts(cookie).claims, 'another-gateway-secret-0123456789abcdef'),
  ),
  withSession(
    'alg none',
    (_t, cookie) => `wbs_session=${b64({ alg: 'none', typ: 'JWT' })}.${b64(parts(cookie).claims)}.`,
  ),
  withSession('expired (signed with the right secret, exp in the past)', (t, cookie) => {
    const { claims } = parts(cookie);
    return signed(
      { ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 60 },
      t.sessionSecret,
    );
  }),
  withSession('wrong audience (the forced-change ticket audience)', (t, cookie) =>
    signed({ ...parts(cookie).claims, aud: 'wbs-pwchange' }, t.sessionSecret),
  ),
  withSession('sealed legacy token tampered (right signature)', (t, cookie) => {
    const { claims } = parts(cookie);
    const box = String(claims.box);
    const flipped = `${box.slice(0, 10)}${box[10] === 'A' ? 'B' : 'A'}${box.slice(11)}`;
    return signed({ ...claims, box: flipped }, t.sessionSecret);
  }),
  {
    area: 'sessions',
    name: 'data routes refuse a cookie replayed after logout',
    async run(t) {
      const cookie = await t.freshSession(nextAccount());
      const out = await t.send({ method: 'DELETE', path: '/api/v1/session', cookie });
      expect(out.status === 200 || out.status === 204, `logout answered ${out.status}`);
      const list = await t.send({ path: '/api/v1/cases/search', json: wholeYear(), cookie });
      expect(list.status === 401, `case list after logout answered ${list.status}`);
    },
  },
  {
    area: 'sessions',
    name: 'logout clears the cookie in the reply',
    async run(t) {
      const cookie = await t.freshSession(nextAccount());
      const out = await t.send({ method: 'DELETE', path: '/api/v1/session', cookie });
      const cleared = (out.headers['set-cookie'] ?? '').match(
        /wbs_session=;|wbs_session=[^;]*;[^,]*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i,
      );
      expect(cleared, `no clearing Set-Cookie: ${out.headers['set-cookie'] ?? 'none'}`);
    },
  },
  {
    area: 'sessions',
    name: 'session cookie is HttpOnly, SameSite=Strict, Path=/',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/session',
        json: { username: 'admin.pakuan', password: 'Perusahaan#2026!' },
      });
      const line = (reply.headers['set-cookie'] ?? '')
        .split(/,(?=\s*wbs_)/)
        .find((l) => l.trim().startsWith('wbs_session='));
      expect(line, 'no session cookie');
      expect(/HttpOnly/i.test(line), 'not HttpOnly');
      expect(/SameSite=Strict/i.test(line), 'not SameSite=Strict');
    },
  },
  {
    area: 'sessions',
    name: 'the forced-change ticket reads no data',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/session',
        json: { username: 'analis.baru', password: 'Awal#2026!' },
      });
      const ticket = cookieFrom(reply, 'wbs_pwchange');
      expect(
        reply.status === 200 && ticket,
        `sign-in of analis.baru: ${reply.status}, ticket ${ticket ? 'set' : 'missing'}`,
      );
      expect(!cookieFrom(reply, 'wbs_session'), 'an initial-password sign-in got a session');
      const list = await t.send({ path: '/api/v1/cases/search', json: wholeYear(), cookie: ticket });
      expect(list.status === 401, `case list with the ticket answered ${list.status}`);
      const asSession = await t.send({
        path: '/api/v1/session',
        cookie: ticket.replace('wbs_pwchange=', 'wbs_session='),
      });
      expect(
        namesNobody(asSession),
        `the ticket used as a session cookie answered ${asSession.status} ${asSession.text.slice(0, 80)}`,
      );
    },
  },
  {
    area: 'sessions',
    name: 'wrong password signs nobody in and sets no cookie',
    async run(t) {
      const reply = await t.send({
        path: '/api/v1/session',
        json: { username: 'admin', password: 'salah-sekali' },
      });
      expect(
        reply.status === 401 || reply.status === 422 || reply.status === 400,
        `answered ${reply.status}`,
      );
      expect(!cookieFrom(reply, 'wbs_session'), 'a session cookie was set');
    },
  },
];
