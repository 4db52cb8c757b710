/**
 * Cookie sessions. `wbs_session` holds a gateway-signed JWT (HS256, @fastify/jwt) with the user's
 * claims and, sealed with AES-256-GCM, the legacy bearer token and e-mail: the legacy token never
 * reaches the browser in readable form. `wbs_pwchange` (10 min, path /api/v1) is the single-use,
 * single-purpose ticket of the forced password change (only PUT /api/v1/password accepts it; GET
 * /api/v1/session only reports that one is held).
 *
 * Every cookie names a session id (`sid`) that must be live in the session registry
 * (./registry.ts): the gateway can end a session for good, on every replica.
 *
 * A tampered, expired, foreign-signed or ended cookie is never trusted: the request is treated as
 * signed out and the cookie is cleared in the reply (so a route needing a session answers 401).
 */
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { User } from '@wbs/shared/api/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import type { LegacyAuth } from '../legacy/client.ts';
import type { FactorClaim } from '../second-factor/state.ts';
import { type LiveSessionCache, liveSessionCache } from './live-cache.ts';
import { type SessionRegistry, sessionRegistry } from './registry.ts';
import { seal, unseal, unverifiedExp } from './seal.ts';

export const SESSION_COOKIE = 'wbs_session';
export const PWCHANGE_COOKIE = 'wbs_pwchange';
/** The ticket reaches the whole API so GET /session can tell the web app a change is pending. */
export const PWCHANGE_PATH = '/api/v1';
export const PWCHANGE_TTL_SECONDS = 600;
const SESSION_AUD = 'wbs-session';
/** Verified session cookies kept per process (see `read`): how many, and for how long. */
const SESSION_CACHE_MAX = 5_000;
const SESSION_CACHE_MS = 60_000;
const PWCHANGE_AUD = 'wbs-pwchange';

/** Claims of the user kept in the cookie (everything of `User` except the sealed e-mail). */
type UserClaims = Omit<User, 'email'>;
type Claims = {
  aud: string;
  sub: string;
  sid: string;
  u: UserClaims;
  box: string;
  exp: number;
  /** The second-factor claim (second-factor/state.ts); absent on the password-change ticket. */
  f?: FactorClaim;
  iat?: number;
};
type Sealed = { t: string; e: string | null };

export type Session = { id: string; user: User; auth: LegacyAuth; exp: number; factor: FactorClaim };

/** The ticket's own claim: it never is a session, whatever route reads it. */
const TICKET_FACTOR: FactorClaim = Object.freeze({ s: 'verify', at: null, m: [], r: 0 }) as FactorClaim;

declare module 'fastify' {
  interface FastifyRequest {
    /** A full session: its second factor is done (or not needed). */
    session: Session | null;
    /**
     * A session whose second-factor step is pending (`factor.s` verify or enrol): the request is
     * treated as signed out except by the routes of that step (policies/plugin.ts).
     */
    secondFactorPending: Session | null;
    /** Set only when a valid `wbs_pwchange` cookie came with a request to a `passwordChange` route. */
    passwordChange: Session | null;
    /** A well-signed `wbs_pwchange` cookie came along (whether or not its route accepts it). */
    holdsPasswordChangeTicket: boolean;
  }
  interface FastifyInstance {
    sessions: SessionManager;
  }
}

type CookieOptions = { httpOnly: true; sameSite: 'strict'; secure: boolean; path: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export type SessionManager = {
  /**
   * Sets `wbs_session` for a legacy sign-in; the cookie ends no later than the legacy token. With a
   * pending second factor the session is `request.secondFactorPending`, else `request.session`.
   */
  start(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    legacyToken: string,
    factor: FactorClaim,
  ): Promise<Session>;
  /** Sets `wbs_pwchange` (initial password): 10 minutes, single use. */
  startPasswordChange(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    legacyToken: string,
  ): Promise<void>;
  /**
   * Re-issues the request's cookie (same session id and end) with changed user claims, e.g. the new
   * name after a profile save, so GET /session and the top bar show it at once.
   */
  refresh(request: FastifyRequest, reply: FastifyReply, changes: Partial<Pick<User, 'displayName'>>): void;
  /**
   * Re-issues the cookie of the request's session (full or pending; same id and end) with a new
   * second-factor claim, and moves the request to the matching side.
   */
  setFactor(request: FastifyRequest, reply: FastifyReply, factor: FactorClaim): Session;
  /** The request's session, full or pending. */
  current(request: FastifyRequest): Session | null;
  /** The same, for routes that need one: 401 `unauthorized` without. */
  currentOrRefuse(request: FastifyRequest): Session;
  /** Ends the request's session in the registry (every replica) and clears its cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Ends every session of a user whose account changed under it (password reset, removal, a new role
   * or line): the user signs in again and gets claims that match. A missing id does nothing.
   */
  endUser(request: FastifyRequest, userId: number | null | undefined, reason: string): Promise<void>;
  /**
   * Ends every other session of the request's user (every replica): after its second factors
   * changed, a session that signed in before must sign in again and give a factor the account has now.
   */
  endOthers(request: FastifyRequest, reason: string): Promise<void>;
  clear(request: FastifyRequest, reply: FastifyReply): void;
  clearPasswordChange(request: FastifyRequest, reply: FastifyReply): void;
  /** Uses up the request's ticket; false when it was used already (replay) or never valid. */
  claimPasswordChange(request: FastifyRequest): Promise<boolean>;
  /** Gives the ticket back after a refused attempt (e.g. a wrong current password). */
  restorePasswordChange(request: FastifyRequest): Promise<void>;
  /** Reads a cookie value as a session of the given kind (null when invalid). */
  read(token: string, kind: 'session' | 'pwchange'): Session | null;
  /** httpOnly, SameSite=Strict, Secure unless plain-http localhost (or as COOKIE_SECURE says). */
  cookieOptions(request: FastifyRequest, path: string): CookieOptions;
  registry: SessionRegistry;
  /** Whether the registry's live answers are kept in memory now (Redis, its channel heard). */
  liveMemoryTrusted(): boolean;
};

const STATUSES = new Set(['verify', 'enrol', 'done']);

/** The claim as signed, or null when it is not one this gateway wrote (the cookie is then refused). */
function factorOf(claim: unknown): FactorClaim | null {
  if (typeof claim !== 'object' || claim === null) return null;
  const f = claim as Partial<FactorClaim>;
  if (typeof f.s !== 'string' || !STATUSES.has(f.s)) return null;
  if (!(f.at === null || typeof f.at === 'number') || !Array.isArray(f.m) || typeof f.r !== 'number')
    return null;
  return Object.freeze({ s: f.s, at: f.at, m: Object.freeze([...f.m]), r: f.r }) as FactorClaim;
}

/** A session goes to `request.session` only when its second factor is done. */
function place(request: FastifyRequest, session: Session): void {
  const done = session.factor.s === 'done';
  request.session = done ? session : null;
  request.secondFactorPending = done ? null : session;
}

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
    const cookieOptions = (request: FastifyRequest, path: string): CookieOptions => ({
      httpOnly: true,
      sameSite: 'strict',
      secure: secureFor(request),
      path,
    });

    const sign = (
      aud: string,
      sid: string,
      user: User,
      token: string,
      exp: number,
      factor?: FactorClaim,
    ): string => {
      const sealed: Sealed = { t: token, e: user.email };
      const { email: _email, ...u } = user;
      const box = seal(key, JSON.stringify(sealed));
      const claims: Claims = {
        aud,
        sub: String(user.id),
        sid,
        u,
        box,
        exp,
        ...(factor ? { f: factor } : {}),
      };
      return app.jwt.sign(claims);
    };
    // Only with Redis: without it the registry is this process's memory already.
    let live: LiveSessionCache | null = null;
    app.addHook('onReady', async () => {
      if (app.redis) live = await liveSessionCache(app.redis, config.rateLimitNamespace, app.log);
    });
    app.addHook('onClose', async () => {
      await live?.close();
      live = null;
    });
    const registry = sessionRegistry(
      () => app.keyStore,
      app.log,
      config.sessionMaxAgeSeconds,
      () => live,
    );

    const verify = (token: string, kind: 'session' | 'pwchange'): Session | null => {
      let claims: Claims;
      try {
        claims = app.jwt.verify<Claims>(token, {
          allowedAud: kind === 'session' ? SESSION_AUD : PWCHANGE_AUD,
        });
      } catch {
        return null;
      }
      if (!claims?.u || typeof claims.box !== 'string' || typeof claims.exp !== 'number') return null;
      if (typeof claims.sid !== 'string' || claims.sid === '') return null;
      const factor = kind === 'session' ? factorOf(claims.f) : TICKET_FACTOR;
      if (factor === null) return null;
      const opened = unseal(key, claims.box);
      if (opened === null) return null;
      const sealed = JSON.parse(opened) as Sealed;
      const user: User = { ...claims.u, email: sealed.e };
      return { id: claims.sid, user, auth: { token: sealed.t, userId: user.id }, exp: claims.exp, factor };
    };

    // Verifying the JWT and opening its AES box cost ~7% of a request's CPU, for the same answer on
    // every request of a session: the result is kept per cookie value for a short time (lru-cache:
    // SESSION_CACHE_MS from the first verification, a hit does not extend it; least recently used out
    // when full). Only the cryptography is skipped: the expiry is still checked here and the registry
    // on every request (an ended session is refused at once: with Redis through the live cache, which
    // every ending clears on every replica). Frozen: shared by requests. A hit only moves the entry in
    // lru-cache's recency lists and keeps the key it was stored under: storing each request's own copy
    // of the cookie text in a long-lived map kept ~0.6 KB of every request alive into the old
    // generation.
    const verified = new LRUCache<string, Session>({ max: SESSION_CACHE_MAX, ttl: SESSION_CACHE_MS });
    const read = (token: string, kind: 'session' | 'pwchange'): Session | null => {
      if (kind !== 'session') return verify(token, kind);
      const hit = verified.get(token);
      if (hit) {
        if (hit.exp * 1000 > Date.now()) return hit;
        verified.delete(token);
      }
      const session = verify(token, kind);
      if (!session) return null;
      Object.freeze(session.user);
      Object.freeze(session.auth);
      Object.freeze(session);
      verified.set(token, session);
      return session;
    };

    const now = () => Math.floor(Date.now() / 1000);

    const manager: SessionManager = {
      async start(request, reply, user, legacyToken, factor) {
        const legacyExp = unverifiedExp(legacyToken);
        const exp = Math.min(now() + config.sessionMaxAgeSeconds, legacyExp ?? Number.POSITIVE_INFINITY);
        const id = registry.newId();
        await registry.add(id, user.id, exp);
        reply.setCookie(SESSION_COOKIE, sign(SESSION_AUD, id, user, legacyToken, exp, factor), {
          ...cookieOptions(request, '/'),
          maxAge: Math.max(0, exp - now()),
        });
        const session: Session = { id, user, auth: { token: legacyToken, userId: user.id }, exp, factor };
        place(request, session);
        return session;
      },
      async startPasswordChange(request, reply, user, legacyToken) {
        const legacyExp = unverifiedExp(legacyToken);
        const exp = Math.min(now() + PWCHANGE_TTL_SECONDS, legacyExp ?? Number.POSITIVE_INFINITY);
        const id = registry.newId();
        await registry.addTicket(id, user.id, exp);
        reply.setCookie(PWCHANGE_COOKIE, sign(PWCHANGE_AUD, id, user, legacyToken, exp), {
          ...cookieOptions(request, PWCHANGE_PATH),
          maxAge: Math.max(0, exp - now()),
        });
      },
      refresh(request, reply, changes) {
        const session = request.session;
        if (!session) return;
        const user = { ...session.user, ...changes };
        reply.setCookie(
          SESSION_COOKIE,
          sign(SESSION_AUD, session.id, user, session.auth.token, session.exp, session.factor),
          {
            ...cookieOptions(request, '/'),
            maxAge: Math.max(0, session.exp - now()),
          },
        );
        request.session = { ...session, user };
      },
      setFactor(request, reply, factor) {
        const session = manager.current(request);
        if (!session) throw new Error('setFactor without a session');
        reply.setCookie(
          SESSION_COOKIE,
          sign(SESSION_AUD, session.id, session.user, session.auth.token, session.exp, factor),
          { ...cookieOptions(request, '/'), maxAge: Math.max(0, session.exp - now()) },
        );
        const next: Session = { ...session, factor };
        place(request, next);
        return next;
      },
      current: (request) => request.session ?? request.secondFactorPending,
      currentOrRefuse(request) {
        const session = manager.current(request);
        if (!session) throw new ApiProblem('unauthorized');
        return session;
      },
      async end(request, reply) {
        const session = manager.current(request);
        if (session) await registry.end(session.id, session.exp);
        manager.clear(request, reply);
      },
      async endUser(request, userId, reason) {
        if (!userId) return;
        const ended = await registry.endUser(userId);
        request.log.info({ targetUserId: userId, reason, ended }, 'sessions ended');
      },
      async endOthers(request, reason) {
        const session = manager.current(request);
        if (!session) return;
        const ended = await registry.endUser(session.user.id, session.id);
        request.log.info({ targetUserId: session.user.id, reason, ended }, 'sessions ended');
      },
      async claimPasswordChange(request) {
        const ticket = request.passwordChange;
        return ticket !== null && (await registry.claimTicket(ticket.id));
      },
      async restorePasswordChange(request) {
        const ticket = request.passwordChange;
        if (ticket && ticket.exp > now()) await registry.addTicket(ticket.id, ticket.user.id, ticket.exp);
      },
      clear(request, reply) {
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
        request.session = null;
        request.secondFactorPending = null;
      },
      clearPasswordChange(request, reply) {
        reply.clearCookie(PWCHANGE_COOKIE, cookieOptions(request, PWCHANGE_PATH));
        request.passwordChange = null;
      },
      read,
      cookieOptions,
      registry,
      liveMemoryTrusted: () => live?.trusted() ?? false,
    };

    app.decorate('sessions', manager);
    app.decorateRequest('session', null);
    app.decorateRequest('secondFactorPending', null);
    app.decorateRequest('passwordChange', null);
    app.decorateRequest('holdsPasswordChangeTicket', false);
    app.decorateReply('clearSessionCookies', undefined);

    app.addHook('onRequest', async (request, reply) => {
      reply.clearSessionCookies = () => {
        // The legacy no longer accepts the token: the session is over here too (best effort).
        const session = manager.current(request);
        if (session) registry.end(session.id, session.exp).catch(() => undefined);
        manager.clear(request, reply);
        if (request.cookies[PWCHANGE_COOKIE] !== undefined) manager.clearPasswordChange(request, reply);
      };
      const value = request.cookies[SESSION_COOKIE];
      if (value !== undefined) {
        const session = read(value, 'session');
        if (session && (await registry.isLive(session.id, session.user.id))) place(request, session);
        else {
          request.log.info(
            { reason: session ? 'ended session' : 'invalid session cookie' },
            'session refused',
          );
          manager.clear(request, reply);
        }
      }
      const ticket = request.cookies[PWCHANGE_COOKIE];
      if (ticket !== undefined) {
        const session = read(ticket, 'pwchange');
        if (!session) manager.clearPasswordChange(request, reply);
        else {
          request.holdsPasswordChangeTicket = true;
          if (request.routeOptions.config.passwordChange) request.passwordChange = session;
        }
      }
    });
  },
  { name: 'wbs-session' },
);
