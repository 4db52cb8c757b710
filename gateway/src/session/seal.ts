/**
 * AES-256-GCM sealing of secrets carried inside the (signed, readable) session JWT: the legacy bearer
 * token and the user's e-mail. A leaked cookie therefore reveals neither. Output: base64url of
 * iv (12 bytes) | auth tag (16 bytes) | ciphertext.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

const AAD = Buffer.from('wbs-gateway-session-v1');

/** Turning the raw key into a KeyObject once saves that work on every request. */
const keyObjects = new WeakMap<Buffer, KeyObject>();
const keyObject = (key: Buffer) => {
  let object = keyObjects.get(key);
  if (!object) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
};

export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyObject(key), iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Returns the plaintext, or `null` when the box was tampered with or sealed with another key. */
export function unseal(key: Buffer, box: string): string | null {
  try {
    const raw = Buffer.from(box, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', keyObject(key), raw.subarray(0, 12));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** `exp` (seconds) of a JWT, read WITHOUT verifying it (the legacy signs it; we only bound our cookie). */
export function unverifiedExp(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : null;
  } catch {
    return null;
  }
}
