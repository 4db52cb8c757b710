/**
 * Receipts: POST /cases returns a signed receipt that verifies here and with nothing but the published
 * public key; every one-character change of a code is refused; rotated keys keep old receipts valid.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import type { CaseCreatedReply } from '@wbs/shared/api/case-create';
import type { ReceiptPublicKeysReply, ReceiptVerifyReply } from '@wbs/shared/api/receipts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedReceiptKey, parseReceiptKeys, type ReceiptKey } from '../../receipts/keys.ts';
import { contentDigest, signReceipt, verifyReceipt } from '../../receipts/receipt.ts';
import { buildTestApp, ORIGIN, type TestApp } from '../../test/helpers.ts';
import { guestAnonymousFields, multipart, pdfBytes } from '../../test/uploads.ts';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const seed = () => randomBytes(32).toString('base64');

describe('receipt codes', () => {
  const [key] = parseReceiptKeys(`k1:${seed()}`) as ReceiptKey[];
  const claims = { caseNumber: 'WBS-10000042', filedAt: '2026-11-23T05:00:00.000Z', digest: 'ab'.repeat(32) };

  it('verifies, and refuses every single-character change of the code', () => {
    if (!key) throw new Error('no key');
    const code = signReceipt(key, claims);
    expect(verifyReceipt([key], code)).toEqual({ valid: true, claims: { ...claims, keyId: 'k1' } });
    for (let i = 0; i < code.length; i++) {
      const current = code[i] ?? '';
      const replacement = current === '.' ? 'A' : B64URL[(B64URL.indexOf(current) + 17) % 64];
      const changed = `${code.slice(0, i)}${replacement}${code.slice(i + 1)}`;
      expect(verifyReceipt([key], changed).valid, `position ${i}`).toBe(false);
    }
  });

  it('keeps old receipts valid after a rotation and refuses unknown or malformed ones', () => {
    const rotated = parseReceiptKeys(`k1:${seed()},k2:${seed()}`) as ReceiptKey[];
    const [old, current] = rotated;
    if (!old || !current) throw new Error('no keys');
    expect(verifyReceipt(rotated, signReceipt(old, claims))).toMatchObject({
      valid: true,
      claims: { keyId: 'k1' },
    });
    expect(verifyReceipt([current], signReceipt(old, claims)).valid).toBe(false);
    for (const junk of ['', 'WBSR1', 'WBSR1..', 'x'.repeat(5000), 'WBSR1.e30.AAAA', 'WBSR1.%%.%%']) {
      expect(verifyReceipt(rotated, junk).valid).toBe(false);
    }
    expect(parseReceiptKeys('k1:short')).toMatch(/32 bytes/);
    expect(parseReceiptKeys(`k 1:${seed()}`)).toMatch(/key id/);
    expect(derivedReceiptKey(Buffer.alloc(32, 1)).id).toMatch(/^dev-[0-9a-f]{8}$/);
  });

  it('digests the content without identity or password', () => {
    const content = { caseWhat: 'Faktur ganda', caseCompanyId: '1' };
    const withIdentity = {
      ...content,
      caseWhistleblowerName: 'Siti Aminah',
      caseWhistleblowerEmail: 'siti@example.id',
      casePassword: 'Rahasia#1',
      caseConfirmPassword: 'Rahasia#1',
    };
    expect(contentDigest(withIdentity, ['f1'])).toBe(contentDigest(content, ['f1']));
    expect(contentDigest({ ...content, caseWhat: 'Faktur gandA' }, ['f1'])).not.toBe(
      contentDigest(content, ['f1']),
    );
    expect(contentDigest(content, ['f2'])).not.toBe(contentDigest(content, ['f1']));
  });
});

describe('receipt routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RECEIPT_SIGNING_KEYS: `old:${seed()},new:${seed()}` });
  }, 60_000);
  afterAll(async () => t?.close());

  const verifyCode = (code: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/receipts/verify',
      headers: { origin: ORIGIN },
      payload: { code },
    });

  it('a filed report gets a receipt that verifies here and with the published key alone', async () => {
    const body = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'bukti.pdf', bytes: await pdfBytes() },
    ]);
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      payload: body.payload,
      headers: body.headers,
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const { caseNumber, receipt } = filed.json() as CaseCreatedReply;
    expect(receipt).toMatchObject({
      caseNumber,
      keyId: 'new',
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(Date.now() - Date.parse(receipt.filedAt)).toBeLessThan(60_000);

    const checked = await verifyCode(receipt.code);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({
      valid: true,
      caseNumber,
      filedAt: receipt.filedAt,
      keyId: 'new',
      digest: receipt.digest,
    } satisfies ReceiptVerifyReply);
    // Another complaint number under the same signature (the payload re-encoded, not one character of
    // the code flipped: a base64url character may differ only in bits the decoder drops).
    const [prefix, payload = '', signature = ''] = receipt.code.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { no: string };
    const otherNumber = `${claims.no.slice(0, -1)}${claims.no.endsWith('1') ? '2' : '1'}`;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, no: otherNumber })).toString('base64url');
    const forged = `${prefix}.${forgedPayload}.${signature}`;
    expect((await verifyCode(forged)).json()).toMatchObject({ valid: false, caseNumber: null });
    expect((await verifyCode(`  ${receipt.code}\n`)).json().valid).toBe(true);
    expect((await verifyCode('')).statusCode).toBe(400);

    // A third party: the published key and node:crypto, nothing of ours.
    const published = (
      await t.app.inject({ method: 'GET', url: '/api/v1/receipts/public-key' })
    ).json() as ReceiptPublicKeysReply;
    expect(published.signingKeyId).toBe('new');
    expect(published.keys.map((k) => k.kid)).toEqual(['old', 'new']);
    const jwk = published.keys.find(
      (k) => k.kid === JSON.parse(Buffer.from(payload, 'base64url').toString()).kid,
    )?.jwk;
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: jwk?.x ?? '' },
      format: 'jwk',
    });
    expect(
      verify(null, Buffer.from(payload, 'base64url'), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    const pem = await t.app.inject({ method: 'GET', url: '/api/v1/receipts/public-key.pem' });
    expect(pem.body).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(pem.body).toBe(published.keys[1]?.pem);
  });
});
