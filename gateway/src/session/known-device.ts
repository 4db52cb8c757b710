/**
 * Device tokens: a successful sign-in answers a signed token naming, as HMACs, the usernames that
 * signed in in this browser; the web app keeps it in local storage and sends it with the next
 * sign-in. A username under attack from many addresses is slowed for unknown browsers only, so the
 * attack never slows the user's own browser (docs/adr/0008-sign-in-limits-and-device-token.md). The token
 * lives in
 * storage rather than a cookie so that sign-out's `Clear-Site-Data: "cookies"` keeps it; it grants
 * nothing but that exemption.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const AUD = 'wbs-known';
const MAX_AGE_SECONDS = 180 * 24 * 3600;
const MAX_USERS = 8;

type Claims = { aud: string; k: string[] };

export function knownDevices(app: FastifyInstance) {
  const tag = (username: string) =>
    createHmac('sha256', app.config.sessionSecret)
      .update(`known:${username}`)
      .digest('base64url')
      .slice(0, 22);
  const read = (token: string | undefined): string[] => {
    if (!token) return [];
    try {
      const claims = app.jwt.verify<Claims>(token, { allowedAud: AUD });
      return Array.isArray(claims.k) ? claims.k.filter((k) => typeof k === 'string').slice(0, MAX_USERS) : [];
    } catch {
      return [];
    }
  };
  return {
    isKnown: (token: string | undefined, username: string) => read(token).includes(tag(username)),
    /** The token to hand back after `username` signed in with `token` (the previous one, if any). */
    remember(token: string | undefined, username: string): string {
      const k = [tag(username), ...read(token).filter((t) => t !== tag(username))].slice(0, MAX_USERS);
      return app.jwt.sign({ aud: AUD, k } satisfies Claims, { expiresIn: MAX_AGE_SECONDS });
    },
  };
}
