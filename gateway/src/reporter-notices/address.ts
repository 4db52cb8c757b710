/**
 * The address as the per-address limit counts it, and the link tokens. The limit must see through the
 * ways one mailbox takes many spellings, or a mail-bomber would rotate them: letter case, a `+tag`
 * (sub-addressing, honoured by most providers), and for Gmail the dots of the local part and the
 * googlemail.com alias. What is stored and mailed to is the address as the reporter typed it.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/** One mailbox's one spelling (`Bu.Di+wbs@GoogleMail.com` → `budi@gmail.com`). */
export function canonicalAddress(address: string): string {
  const value = address.trim().toLowerCase();
  const at = value.lastIndexOf('@');
  let local = value.slice(0, at);
  let domain = value.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The keyed HMAC the per-address limit counts (a dump of the store names no address). */
export function addressHmac(key: Buffer, address: string): string {
  return createHmac('sha256', key)
    .update(`wbs-reporter-address|v1|${canonicalAddress(address)}`)
    .digest('base64url');
}

/** A link token: 32 random bytes, base64url (43 characters, NOTICE_TOKEN_PATTERN). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the store keeps of a token. A plain SHA-256 is enough: the token is 256 random bits, so its
 * hash gives no way back to it, and the lookup stays one indexed equality.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(`wbs-reporter-token|${token}`).digest('base64url');
}
