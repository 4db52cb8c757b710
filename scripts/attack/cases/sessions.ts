/**
 * Sessions: a cookie the gateway did not issue, or issued and then changed, expired or ended, reads
 * nothing. `wbs_session` is an HS256 JWT (`aud` wbs-session) holding claims and the sealed legacy token.
 * Sign-out, a password change and a demotion end sessions at once (docs/adr/0007-session-registry.md);
 * the forced-change ticket is single use.
 */
import { createHmac } from 'node:crypto';
import {
  type AttackCase,
  changePassword,
  cookieFrom,
  expect,
  json,
  namesNobody,
  type Tools,
  wholeYear,
} from '../support.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function parts(cookie: string): {
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

export function signed(
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
  {
    area: 'sessions',
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
    last: true,
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
    last: true,
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
    last: true,
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
];
