/** /api/v1/receipts: the published receipt keys and the public check of a receipt code. */
import * as v from 'valibot';
import { receiptTime } from './common.ts';

export const receiptVerifyRequest = v.object({
  code: v.pipe(
    v.string('Kode tanda terima wajib diisi'),
    v.trim(),
    v.nonEmpty('Kode tanda terima wajib diisi'),
    v.maxLength(2000, 'Kode tanda terima tidak valid'),
  ),
});
export type ReceiptVerifyRequest = v.InferOutput<typeof receiptVerifyRequest>;

/** `valid: false` says only that: no reason an attacker could tune a forgery against. */
export const receiptVerifyReply = v.object({
  valid: v.boolean(),
  caseNumber: v.nullable(v.string()),
  filedAt: v.nullable(receiptTime),
  keyId: v.nullable(v.string()),
  digest: v.nullable(v.string()),
});
export type ReceiptVerifyReply = v.InferOutput<typeof receiptVerifyReply>;

export const receiptPublicKeysReply = v.object({
  algorithm: v.string(),
  signingKeyId: v.string(),
  keys: v.array(
    v.object({
      kid: v.string(),
      alg: v.string(),
      jwk: v.object({ kty: v.string(), crv: v.string(), x: v.string(), kid: v.string() }),
      pem: v.string(),
    }),
  ),
});
export type ReceiptPublicKeysReply = v.InferOutput<typeof receiptPublicKeysReply>;
