/**
 * Cookie sessions. `wbs_session` holds a gateway-signed JWT (HS256, @fastify/jwt) with the user's
 * claims and, sealed with AES-256-GCM, the legacy bearer token and e-mail: the legacy token never
 * reaches the browser in readable form. `wbs_pwchange` (10 min, path /api/v1/password) is the
 * single-purpose ticket of the forced password change.
 *
 * A tampered, expired or foreign-signed cookie is never trusted: the request is treated as signed out
 * and the cookie is cleared in the reply (so a route needing a session answers 401).
 */
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { User } from '@wbs/shared/api/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { LegacyAuth } from '../legacy/client.ts';
import { seal, unseal, unverifiedExp } from './seal.ts';

export const SESSION_COOKIE = 'wbs_session';
export const PWCHANGE_COOKIE = 'wbs_pwchange';
export const PWCHANGE_PATH = '/api/v1/password';
export const PWCHANGE_TTL_SECONDS = 600;
const SESSION_AUD = 'wbs-session';
const PWCHANGE_AUD = 'wbs-pwchange';

/** Claims of the user kept in the cookie (everything of `User` except the sealed e-mail). */
type UserClaims = Omit<User, 'email'>;
type Claims = { aud: string; sub: string; u: UserClaims; box: string; exp: number; iat?: number };
type Sealed = { t: string; e: string | null };

export type Session = { user: User; auth: LegacyAuth; exp: number };

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** Set only when a valid `wbs_pwchange` cookie came with a request to /api/v1/password. */
    passwordChange: Session | null;
  }
  interface FastifyInstance {
    sessions: SessionManager;
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export type SessionManager = {
  /** Sets `wbs_session` for a legacy sign-in; the cookie ends no later than the legacy token. */
  start(request: FastifyRequest, reply: FastifyReply, user: User, legacyToken: string): Session;
  /** Sets `wbs_pwchange` (initial password): 10 minutes, path /api/v1/password only. */
  startPasswordChange(request: FastifyRequest, reply: FastifyReply, user: User, legacyToken: string): void;
  clear(request: FastifyRequest, reply: FastifyReply): void;
  clearPasswordChange(request: FastifyRequest, reply: FastifyReply): void;
  /** Reads a cookie value as a session of the given kind (null when invalid). */
  read(token: string, kind: 'session' | 'pwchange'): Session | null;
};

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    const { config } = opts;
    const key = config.sessionEncryptionKey;
    await app.register(cookie);
    await app.register(jwt, {
      secret: config.sessionSecret,
      sign: { algorithm: 'HS256' },
      verify: { algorithms: ['HS256'] },
    });

    const secureFor = (request: FastifyRequest): boolean => {
      if (config.cookieSecure === 'true') return true;
      if (config.cookieSecure === 'false') return false;
      return !(request.protocol === 'http' && LOCAL_HOSTS.has(request.hostname));
    };
    const cookieOptions = (request: FastifyRequest, path: string) =>
      ({ httpOnly: true, sameSite: 'strict', secure: secureFor(request), path }) as const;

    const sign = (aud: string, user: User, token: string, exp: number): string => {
      const sealed: Sealed = { t: token, e: user.email };
      const { email: _email, ...u } = user;
      const claims: Claims = { aud, sub: String(user.id), u, box: seal(key, JSON.stringify(sealed)), exp };
      return app.jwt.sign(claims);
    };

    const read = (token: string, kind: 'session' | 'pwchange'): Session | null => {
      let claims: Claims;
      try {
        claims = app.jwt.verify<Claims>(token, {
          allowedAud: kind === 'session' ? SESSION_AUD : PWCHANGE_AUD,
        });
      } catch {
        return null;
      }
      if (!claims?.u || typeof claims.box !== 'string' || typeof claims.exp !== 'number') return null;
      const opened = unseal(key, claims.box);
      if (opened === null) return null;
      const sealed = JSON.parse(opened) as Sealed;
      const user: User = { ...claims.u, email: sealed.e };
      return { user, auth: { token: sealed.t, userId: user.id }, exp: claims.exp };
    };

    const now = () => Math.floor(Date.now() / 1000);

    const manager: SessionManager = {
      start(request, reply, user, legacyToken) {
        const legacyExp = unverifiedExp(legacyToken);
        const exp = Math.min(now() + config.sessionMaxAgeSeconds, legacyExp ?? Number.POSITIVE_INFINITY);
        const value = sign(SESSION_AUD, user, legacyToken, exp);
        reply.setCookie(SESSION_COOKIE, value, {
          ...cookieOptions(request, '/'),
          maxAge: Math.max(0, exp - now()),
        });
        const session: Session = { user, auth: { token: legacyToken, userId: user.id }, exp };
        request.session = session;
        return session;
      },
      startPasswordChange(request, reply, user, legacyToken) {
        const legacyExp = unverifiedExp(legacyToken);
        const exp = Math.min(now() + PWCHANGE_TTL_SECONDS, legacyExp ?? Number.POSITIVE_INFINITY);
        reply.setCookie(PWCHANGE_COOKIE, sign(PWCHANGE_AUD, user, legacyToken, exp), {
          ...cookieOptions(request, PWCHANGE_PATH),
          maxAge: Math.max(0, exp - now()),
        });
      },
      clear(request, reply) {
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
        request.session = null;
      },
      clearPasswordChange(request, reply) {
        reply.clearCookie(PWCHANGE_COOKIE, cookieOptions(request, PWCHANGE_PATH));
        request.passwordChange = null;
      },
      read,
    };

    app.decorate('sessions', manager);
    app.decorateRequest('session', null);
    app.decorateRequest('passwordChange', null);
    app.decorateReply('clearSessionCookies', undefined);

    app.addHook('onRequest', async (request, reply) => {
      reply.clearSessionCookies = () => {
        manager.clear(request, reply);
        if (request.cookies[PWCHANGE_COOKIE] !== undefined) manager.clearPasswordChange(request, reply);
      };
      const value = request.cookies[SESSION_COOKIE];
      if (value !== undefined) {
        const session = read(value, 'session');
        if (session) request.session = session;
        else {
          request.log.info({ reason: 'invalid session cookie' }, 'session refused');
          manager.clear(request, reply);
        }
      }
      const ticket = request.cookies[PWCHANGE_COOKIE];
      if (ticket !== undefined && request.routeOptions.config.passwordChange) {
        const session = read(ticket, 'pwchange');
        if (session) request.passwordChange = session;
        else manager.clearPasswordChange(request, reply);
      }
    });
  },
  { name: 'wbs-session' },
);
