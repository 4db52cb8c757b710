/**
 * A filing receipt anyone can verify: `WBSR1.<payload>.<signature>` (both base64url), the payload
 * being the JSON `{"v":1,"kid":…,"no":complaint number,"t":filing time (ISO, UTC),"d":SHA-256 hex of
 * the submitted content}` and the signature Ed25519 over the payload's bytes exactly as encoded.
 * No identity and no password is in it, nor in the digest (contentDigest below).
 */
import { createHash, sign, verify } from 'node:crypto';
import * as v from 'valibot';
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

/**
 * What a payload must be before anything of it is used: a JSON object with the fields signReceipt
 * writes, each of its type. Anyone can send any bytes as a payload (the JSON `null`, a number, an
 * array, wrong types per field), so its shape is checked, never assumed
 * (docs/adr/0033-signed-filing-receipts.md).
 */
const receiptPayload = v.object({
  v: v.literal(1),
  kid: v.string(),
  no: v.string(),
  t: v.string(),
  d: v.string(),
});

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
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return invalid;
  }
  const parsed = v.safeParse(receiptPayload, json);
  if (!parsed.success) return invalid;
  const claims = parsed.output;
  const key = keys.find((candidate) => candidate.id === claims.kid);
  if (!key || !signatureHolds(payload, key, signature)) return invalid;
  return {
    valid: true,
    claims: { keyId: key.id, caseNumber: claims.no, filedAt: claims.t, digest: claims.d },
  };
}

/** Ed25519 over the payload's bytes; a signature node:crypto cannot even check is simply not valid. */
function signatureHolds(payload: Buffer, key: ReceiptKey, signature: Buffer): boolean {
  try {
    return verify(null, payload, key.publicKey, signature);
  } catch {
    return false;
  }
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
