/**
 * Test agents for the second factor: a cookie jar that keeps the newest `wbs_session` (the gateway
 * re-issues it at each step), and TOTP codes computed from an enrolled secret like an authenticator
 * app does; a session's claim signed again as an older cookie of it would read.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import type { FactorClaim } from '../second-factor/state.ts';
import { browser, cookieValue } from './helpers.ts';

export type Agent = {
  call(method: string, path: string, payload?: unknown): Promise<LightMyRequestResponse>;
  cookie(): string;
};

/** A browser signed in (or not) to `app`: every Set-Cookie of `wbs_session` replaces the last one. */
export function agent(app: FastifyInstance, cookie = ''): Agent {
  let jar = cookie;
  return {
    async call(method, path, payload) {
      const res = await app.inject({
        method: method as 'GET',
        url: `/api/v1${path}`,
        headers: browser(jar),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      const next = cookieValue(res, 'wbs_session');
      if (next !== undefined) jar = next === '' ? '' : `wbs_session=${next}`;
      return res;
    },
    cookie: () => jar,
  };
}

/** Signs in with the password only: the session stops at its second-factor step when it has one. */
export async function passwordSignIn(app: FastifyInstance, username: string, password: string) {
  const a = agent(app);
  const res = await a.call('POST', '/session', { username, password });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username}: ${res.statusCode} ${res.body}`);
  return { agent: a, reply: res.json() as { secondFactor: { status: string; methods: string[] } } };
}

/** The code an authenticator app shows for `secret`, `offsetSeconds` from now. */
export const totpCode = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Enrols TOTP through the API; returns the secret and the recovery codes shown once. */
export async function enrolTotp(a: Agent): Promise<{ secret: string; recoveryCodes: string[] | null }> {
  const started = await a.call('POST', '/account/second-factors/totp');
  if (started.statusCode !== 200) throw new Error(`TOTP enrolment: ${started.statusCode} ${started.body}`);
  const { secret } = started.json() as { secret: string };
  const confirmed = await a.call('PUT', '/account/second-factors/totp', { code: await totpCode(secret) });
  if (confirmed.statusCode !== 200)
    throw new Error(`TOTP confirmation: ${confirmed.statusCode} ${confirmed.body}`);
  return { secret, recoveryCodes: (confirmed.json() as { recoveryCodes: string[] | null }).recoveryCodes };
}

/**
 * The same live session with its second-factor claim changed and signed again by `app`: what a cookie
 * signed before a change made elsewhere says (no factor listed, an older `at`, another step).
 */
export function withFactorClaim(
  app: FastifyInstance,
  cookie: string,
  change: (claim: FactorClaim) => FactorClaim,
): string {
  const token = cookie.replace(/^wbs_session=/, '');
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    f: FactorClaim;
  };
  return `wbs_session=${app.jwt.sign({ ...claims, f: change(claims.f) })}`;
}
