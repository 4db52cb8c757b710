/**
 * The digest's one-click unsubscribe link (RFC 8058): a token naming the user, signed with a key
 * derived from SESSION_SECRET. It can do one thing only: stop that user's digests. It expires with
 * nothing, like a mailbox's old digests; a changed SESSION_SECRET voids every earlier link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const LABEL = 'wbs-digest-unsubscribe';

const macOf = (secret: string, userId: number) =>
  createHmac('sha256', secret).update(`${LABEL}|${userId}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: number): string {
  return `${Buffer.from(String(userId)).toString('base64url')}.${macOf(secret, userId)}`;
}

/** The user a token names, or null when it is not one of ours. */
export function userOfUnsubscribeToken(secret: string, token: string): number | null {
  const [idPart, mac] = token.split('.');
  if (!idPart || !mac) return null;
  const text = Buffer.from(idPart, 'base64url').toString();
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const userId = Number(text);
  const expected = Buffer.from(macOf(secret, userId));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}
