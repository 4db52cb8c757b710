/**
 * Encryption at rest of the store's sensitive columns (message text, file references, the handler's
 * name): AES-256-GCM with a random 96-bit nonce per value. The key ring comes from
 * `STORE_ENCRYPTION_KEYS` (`id:base64key,id:base64key`): the LAST key encrypts new values, every
 * listed key still decrypts, and each row stores the id of its key, so keys rotate by appending a
 * new one (and later re-encrypting or dropping the old rows) without a migration.
 *
 * The additional authenticated data binds a value to its row's context (table, company, case,
 * author kind): a ciphertext copied into another case's row fails to open, like a tampered one.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type StoreKey = { id: string; key: Buffer };

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Version byte of the sealed format, so a later format can sit beside this one. */
const FORMAT_V1 = 1;

/** Parses `id:base64,id:base64`; returns the keys, or a message naming what is wrong (never a key). */
export function parseKeyRing(list: string): StoreKey[] | string {
  const keys: StoreKey[] = [];
  for (const item of list.split(',')) {
    const entry = item.trim();
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id)) return 'each key must be written id:base64key (id: 1-32 letters, digits, _ -)';
    if (keys.some((known) => known.id === id)) return `key id ${id} is listed twice`;
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== 32) return `key ${id} must be 32 bytes encoded as base64`;
    keys.push({ id, key });
  }
  if (keys.length === 0) return 'at least one key is required';
  return keys;
}

export class SealError extends Error {
  constructor(reason: string) {
    super(`stored value cannot be opened: ${reason}`);
    this.name = 'SealError';
  }
}

export type Sealed = { keyId: string; sealed: string };

export type Sealer = {
  /** Encrypts `plain` with the newest key for the row context `context`. */
  seal(plain: string, context: string): Sealed;
  /** Decrypts a stored value; throws `SealError` for an unknown key id, a wrong key or any tampering. */
  open(value: Sealed, context: string): string;
};

export function sealer(keys: readonly StoreKey[]): Sealer {
  const writing = keys.at(-1);
  if (!writing) throw new Error('the store needs at least one encryption key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', writing.key, nonce);
      cipher.setAAD(Buffer.from(`${writing.id}|${context}`));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const packed = Buffer.concat([Buffer.from([FORMAT_V1]), nonce, cipher.getAuthTag(), body]);
      return { keyId: writing.id, sealed: packed.toString('base64') };
    },
    open({ keyId, sealed }, context) {
      const key = byId.get(keyId);
      if (!key) throw new SealError(`key ${keyId} is not in STORE_ENCRYPTION_KEYS`);
      const packed = Buffer.from(sealed, 'base64');
      if (packed.length < 1 + NONCE_BYTES + TAG_BYTES || packed[0] !== FORMAT_V1) {
        throw new SealError('unknown format');
      }
      const nonce = packed.subarray(1, 1 + NONCE_BYTES);
      const tag = packed.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(Buffer.from(`${keyId}|${context}`));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([
          decipher.update(packed.subarray(1 + NONCE_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealError('authentication failed (wrong key or altered value)');
      }
    },
  };
}
