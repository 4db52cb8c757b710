/**
 * CSRF defence for state-changing requests (POST, PUT, PATCH, DELETE), on top of SameSite=Strict:
 *
 * 1. `Sec-Fetch-Site` present → it must be `same-origin` (`same-site`, `cross-site` and `none` are refused).
 * 2. `Origin` present → it must equal the gateway's own origin (scheme://host[:port] of the request, as
 *    seen through TRUST_PROXY). `Origin: null` is refused.
 * 3. Neither header (server-to-server integrators, curl, fastify.inject) → allowed only when the
 *    request carries NO session cookie (`wbs_session` / `wbs_pwchange`). Every current browser sends
 *    `Origin` on cross-origin POSTs and `Sec-Fetch-Site` on all requests, so a cookie-bearing request
 *    without both is either an outdated browser (refuse: it could be forged) or a script with a cookie
 *    jar, which must then send `Origin` like a browser does.
 * Refusals are 403 problem `csrf` and an audit line.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from './errors.ts';
import { audit } from './logging.ts';
import { PWCHANGE_COOKIE, SESSION_COOKIE } from './session/plugin.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function ownOrigin(request: FastifyRequest): string | null {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return null;
  }
}

function normalise(origin: string): string | null {
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
}

export function csrfVerdict(request: FastifyRequest): 'ok' | string {
  if (!UNSAFE.has(request.method)) return 'ok';
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (typeof site === 'string' && site !== 'same-origin') return `sec-fetch-site ${site}`;
  if (typeof origin === 'string') {
    const own = ownOrigin(request);
    if (origin === 'null' || own === null || normalise(origin) !== own) return 'foreign origin';
    return 'ok';
  }
  if (typeof site === 'string') return 'ok'; // same-origin without Origin
  const cookies = request.cookies ?? {};
  if (cookies[SESSION_COOKIE] !== undefined || cookies[PWCHANGE_COOKIE] !== undefined) {
    return 'session cookie without Origin';
  }
  return 'ok';
}

export const csrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      const verdict = csrfVerdict(request);
      if (verdict === 'ok') return;
      audit(request, 'csrf-refused', { reason: verdict });
      throw new ApiProblem('csrf');
    });
  },
  { name: 'wbs-csrf', dependencies: ['wbs-session'] },
);
