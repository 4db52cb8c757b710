/**
 * The receipt signing keys (Ed25519, node:crypto). `RECEIPT_SIGNING_KEYS` = `id:base64seed,…` (each
 * seed the key's 32 secret bytes): the LAST key signs, every listed key stays published and verifies,
 * so a key rotates by appending a new one and dropping the old one only when its receipts no longer
 * matter (never: a receipt should verify for as long as the case lives — keep old keys listed).
 *
 * Without the variable a key is derived from SESSION_ENCRYPTION_KEY (tests; `pnpm start` generates a
 * real one in .data/dev-secrets.json). Its id names its public key, so two derived keys never share one.
 */
import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';

export type ReceiptKey = { id: string; privateKey: KeyObject; publicKey: KeyObject };

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export function receiptKeyFromSeed(id: string, seed: Buffer): ReceiptKey {
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { id, privateKey, publicKey: createPublicKey(privateKey) };
}

/** Parses `RECEIPT_SIGNING_KEYS`; a message when it is malformed. */
export function parseReceiptKeys(list: string): ReceiptKey[] | string {
  const keys: ReceiptKey[] = [];
  for (const entry of list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [id = '', encoded = ''] = entry.split(':');
    if (!KEY_ID.test(id)) return `key id "${id}" must be 1-32 letters, digits, _ or -`;
    const seed = Buffer.from(encoded, 'base64');
    if (seed.length !== 32) return `key "${id}" must be 32 bytes in base64`;
    if (keys.some((key) => key.id === id)) return `key id "${id}" is listed twice`;
    keys.push(receiptKeyFromSeed(id, seed));
  }
  return keys.length > 0 ? keys : 'at least one key is required';
}

export function derivedReceiptKey(sessionKey: Buffer): ReceiptKey {
  const seed = Buffer.from(hkdfSync('sha256', sessionKey, Buffer.alloc(0), 'wbs-receipt-dev-key', 32));
  const draft = receiptKeyFromSeed('dev', seed);
  const raw = draft.publicKey.export({ format: 'der', type: 'spki' });
  return { ...draft, id: `dev-${createHash('sha256').update(raw).digest('hex').slice(0, 8)}` };
}
