/**
 * A filing receipt anyone can verify: `WBSR1.<payload>.<signature>` (both base64url), the payload
 * being the JSON `{"v":1,"kid":…,"no":complaint number,"t":filing time (ISO, UTC),"d":SHA-256 hex of
 * the submitted content}` and the signature Ed25519 over the payload's bytes exactly as encoded.
 * No identity and no password is in it, nor in the digest (contentDigest below).
 */
import { createHash, sign, verify } from 'node:crypto';
import type { ReceiptKey } from './keys.ts';

export const RECEIPT_PREFIX = 'WBSR1';
const MAX_CODE_CHARS = 2_000;
const B64URL = /^[A-Za-z0-9_-]+$/;

export type ReceiptClaims = { keyId: string; caseNumber: string; filedAt: string; digest: string };

export function signReceipt(key: ReceiptKey, claims: Omit<ReceiptClaims, 'keyId'>): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, kid: key.id, no: claims.caseNumber, t: claims.filedAt, d: claims.digest }),
  );
  const signature = sign(null, payload, key.privateKey);
  return `${RECEIPT_PREFIX}.${payload.toString('base64url')}.${signature.toString('base64url')}`;
}

export type ReceiptVerdict = { valid: true; claims: ReceiptClaims } | { valid: false };

export function verifyReceipt(keys: ReceiptKey[], code: string): ReceiptVerdict {
  const invalid = { valid: false } as const;
  const compact = code.replace(/\s+/g, '');
  if (compact.length > MAX_CODE_CHARS) return invalid;
  const [prefix, encodedPayload = '', encodedSignature = '', ...rest] = compact.split('.');
  if (prefix !== RECEIPT_PREFIX || rest.length > 0) return invalid;
  if (!B64URL.test(encodedPayload) || !B64URL.test(encodedSignature)) return invalid;
  const payload = Buffer.from(encodedPayload, 'base64url');
  // Only the canonical encoding counts: a changed character must never decode to the same bytes.
  if (payload.toString('base64url') !== encodedPayload) return invalid;
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (signature.length !== 64 || signature.toString('base64url') !== encodedSignature) return invalid;
  let parsed: { v?: unknown; kid?: unknown; no?: unknown; t?: unknown; d?: unknown };
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return invalid;
  }
  if (parsed.v !== 1 || typeof parsed.kid !== 'string') return invalid;
  const key = keys.find((candidate) => candidate.id === parsed.kid);
  if (!key || !verify(null, payload, key.publicKey, signature)) return invalid;
  if (typeof parsed.no !== 'string' || typeof parsed.t !== 'string' || typeof parsed.d !== 'string') {
    return invalid;
  }
  return {
    valid: true,
    claims: { keyId: key.id, caseNumber: parsed.no, filedAt: parsed.t, digest: parsed.d },
  };
}

/**
 * SHA-256 over what was reported: the legacy's text fields without the reporter's identity and the
 * case password, sorted by name, and the SHA-256 of each submitted file (its field and name kept
 * out: a file name can name a person). Hex.
 */
export function contentDigest(fields: Record<string, string>, fileHashes: string[]): string {
  const content = Object.entries(fields)
    .filter(([name]) => !IDENTITY_OR_SECRET.test(name))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256')
    .update(JSON.stringify({ fields: content, files: [...fileHashes].sort() }))
    .digest('hex');
}

/** The reporter's identity and contact fields, and the case password with its confirmation. */
const IDENTITY_OR_SECRET = /^caseWhistleblower|[Pp]assword/;

/** The public keys as a JWK set (RFC 8037 OKP/Ed25519) with each key's PEM beside it. */
export function publishedKeys(keys: ReceiptKey[]) {
  return keys.map((key) => ({
    kid: key.id,
    alg: 'EdDSA',
    jwk: {
      ...(key.publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string }),
      kid: key.id,
    },
    pem: String(key.publicKey.export({ format: 'pem', type: 'spki' })),
  }));
}
