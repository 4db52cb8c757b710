/**
 * The server-side session registry: a cookie is honoured only while its session id is registered
 * here, so a session the gateway ended is signed out everywhere (every replica, through Redis),
 * whatever the legacy still accepts, and after a legacy restart too.
 *
 * Keys (in `app.keyStore`, below the namespace): `sess:{sid}` holds the user id while the session is
 * live and `-` once ended (kept until the cookie would have expired, so a replica falling back to its
 * memory copy still refuses it); `user:{id}` lists the user's session ids. A forced-change ticket is
 * registered as `ticket:{sid}` and claimed once.
 *
 * Redis configured but not answering: what this replica knows answers; a session it never saw is
 * honoured (its cookie is still signed and unexpired, and the legacy still checks its token) so an
 * outage signs nobody out. Decided in docs/adr/0007-session-registry.md.
 *
 * With Redis, Redis's "live" answers are kept in memory for a few seconds and every ending is
 * announced to every replica, which forget it at once (./live-cache.ts,
 * docs/adr/0045-live-session-memory.md).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyStore } from '../redis.ts';
import type { LiveSessionCache } from './live-cache.ts';

const ENDED = '-';

export type SessionRegistry = {
  /** A new random session id (128 bits, base64url). */
  newId(): string;
  add(sid: string, userId: number, expSeconds: number): Promise<void>;
  isLive(sid: string, userId: number): Promise<boolean>;
  end(sid: string, expSeconds: number): Promise<void>;
  /** Ends every session of the user except `keep`; returns how many were ended. */
  endUser(userId: number, keep?: string): Promise<number>;
  addTicket(sid: string, userId: number, expSeconds: number): Promise<void>;
  /** True exactly once per ticket (and never after its expiry). */
  claimTicket(sid: string): Promise<boolean>;
};

const msUntil = (expSeconds: number) => Math.max(1, expSeconds * 1000 - Date.now());

export function sessionRegistry(
  store: () => KeyStore,
  log: FastifyBaseLogger,
  maxAgeSeconds: number,
  live: () => LiveSessionCache | null = () => null,
): SessionRegistry {
  return {
    newId: () => randomBytes(16).toString('base64url'),
    async add(sid, userId, expSeconds) {
      await store().set(`sess:${sid}`, String(userId), msUntil(expSeconds));
      await store().addMember(`user:${userId}`, sid, maxAgeSeconds * 1000);
    },
    async isLive(sid, userId) {
      const memory = live();
      if (memory?.has(sid, userId)) return true;
      const generation = memory?.generation() ?? 0;
      const { value, fallback } = await store().lookup(`sess:${sid}`);
      if (value === String(userId)) {
        if (!fallback) memory?.remember(generation, sid, userId);
        return true;
      }
      if (value === null && fallback) {
        log.warn('session registry unavailable, honouring a signed session it never saw');
        return true;
      }
      return false;
    },
    async end(sid, expSeconds) {
      await store().set(`sess:${sid}`, ENDED, msUntil(expSeconds));
      await live()?.announceEnded([sid]);
    },
    async endUser(userId, keep) {
      let ended = 0;
      for (const sid of await store().members(`user:${userId}`)) {
        if (sid === keep) continue;
        const { value } = await store().lookup(`sess:${sid}`);
        if (value === null || value === ENDED) continue;
        // The entry's own remaining life bounds the tombstone's.
        const remaining = await store().ttl(`sess:${sid}`);
        await store().set(`sess:${sid}`, ENDED, Math.max(1, remaining));
        // Each at once: the next session's reads and writes must not hold this one's news back.
        await live()?.announceEnded([sid]);
        ended++;
      }
      return ended;
    },
    async addTicket(sid, userId, expSeconds) {
      await store().set(`ticket:${sid}`, String(userId), msUntil(expSeconds));
    },
    async claimTicket(sid) {
      return (await store().del(`ticket:${sid}`)) > 0;
    },
  };
}
