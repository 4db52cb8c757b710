/**
 * Fuzzing the public receipt check (POST /receipts/verify needs no session): random texts, codes of
 * the right form around payloads that are any JSON value (null, numbers, arrays, nested objects, huge
 * strings, each field of the wrong type, with and without the real key id), signatures of every
 * length, and payloads of any shape properly SIGNED with a real key, so the checks after the signature
 * run too. The verifier must never throw and the route never answer 5xx: a code is valid only when it
 * is a receipt we signed, everything else is the route's normal `valid: false`. Two levels: the
 * verifier itself, and whole requests through `fastify.inject`. Reproduce a failure with the seed
 * fast-check prints: FUZZ_SEED=… (FUZZ_RUNS changes the count).
 */
import { randomBytes, sign } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ORIGIN, type TestApp } from '../test/helpers.ts';
import { parseReceiptKeys, type ReceiptKey } from './keys.ts';
import { RECEIPT_PREFIX, signReceipt, verifyReceipt } from './receipt.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const settings = (runs: number) => ({ numRuns: runs, ...(SEED === undefined ? {} : { seed: SEED }) });

const seeds = { old: randomBytes(32).toString('base64'), current: randomBytes(32).toString('base64') };
const keys = parseReceiptKeys(`old:${seeds.old},current:${seeds.current}`) as ReceiptKey[];
const keyIds = keys.map((k) => k.id);

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const NOT_VALID = { valid: false, caseNumber: null, filedAt: null, keyId: null, digest: null };

/** A field's value: mostly the wrong type, sometimes the right one. */
const anyField = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string(),
  fc.constantFrom(1, 0, -1, 1.5, '1', true, null, [], {}, '', '__proto__'),
);
/** A payload object with the receipt's field names, any subset, any types. */
const claimLike = fc.record(
  {
    v: fc.oneof(fc.constant(1), anyField),
    kid: fc.oneof(fc.constantFrom(...keyIds), anyField),
    no: fc.oneof(fc.constant('WBS-10000042'), anyField),
    t: fc.oneof(fc.constant('2026-11-23T05:00:00.000Z'), anyField),
    d: fc.oneof(fc.constant('ab'.repeat(32)), anyField),
  },
  { requiredKeys: [] },
);
/** What a payload may decode to: any JSON value at all, or something receipt-shaped. */
const payloadValue = fc.oneof(
  fc.constant(null),
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ minLength: 1000, maxLength: 3000 }),
  fc.array(claimLike, { maxLength: 3 }),
  claimLike,
  claimLike,
);
/** The bytes of a payload: JSON of a value, or raw bytes that are not JSON or not UTF-8. */
const payloadBytes = fc.oneof(
  { weight: 4, arbitrary: payloadValue.map((value) => Buffer.from(JSON.stringify(value))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
);
const signatureBytes = fc.oneof(
  fc.uint8Array({ minLength: 64, maxLength: 64 }),
  fc.uint8Array({ maxLength: 130 }),
);

/** A code of the receipt's form whose signature is not ours (random bytes of any length). */
const unsignedCode = fc
  .tuple(payloadBytes, signatureBytes)
  .map(([payload, signature]) => `${RECEIPT_PREFIX}.${b64url(payload)}.${b64url(signature)}`);

/** A payload of any shape, signed by a real key: only a receipt-shaped one may verify. */
const signedCode = fc.tuple(payloadBytes, fc.constantFrom(...keys)).map(([payload, key]) => ({
  code: `${RECEIPT_PREFIX}.${b64url(payload)}.${b64url(sign(null, payload, key.privateKey))}`,
  payload,
  key,
}));

/** Texts around the form: random strings, other prefixes and separators, spliced real codes. */
const realCode = signReceipt(keys[1] as ReceiptKey, {
  caseNumber: 'WBS-10000042',
  filedAt: '2026-11-23T05:00:00.000Z',
  digest: 'ab'.repeat(32),
});
const junkCode = fc
  .oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc
      .tuple(
        fc.constantFrom('WBSR1', 'wbsr1', 'WBSR2', '', 'WBSR1 '),
        fc.array(fc.base64String(), { maxLength: 4 }),
      )
      .map(([prefix, parts]) => [prefix, ...parts].join('.')),
    fc
      .tuple(fc.nat({ max: realCode.length }), fc.string({ maxLength: 5 }))
      .map(([at, text]) => `${realCode.slice(0, at)}${text}${realCode.slice(at)}`),
    fc.nat({ max: realCode.length }).map((at) => realCode.slice(0, at)),
    fc.constant(`${RECEIPT_PREFIX}.bnVsbA.${b64url(new Uint8Array(64))}`),
    // Whitespace is dropped before checking (a pasted code may wrap), so a real code left whole by a
    // splice is no junk.
  )
  .filter((code) => code.replace(/\s+/g, '') !== realCode);

/** Whether a decoded payload is what signReceipt writes: an object, v 1, string fields. */
function receiptShaped(payload: Buffer): boolean {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const claims = value as Record<string, unknown>;
  return (
    claims.v === 1 &&
    ['kid', 'no', 't', 'd'].every(
      (field) => Object.hasOwn(claims, field) && typeof claims[field] === 'string',
    )
  );
}

describe('the receipt verifier, fuzzed', () => {
  it('the reported code (payload the JSON null) is not valid', () => {
    expect(verifyReceipt(keys, `${RECEIPT_PREFIX}.bnVsbA.${b64url(new Uint8Array(64))}`)).toEqual({
      valid: false,
    });
    // Signed for real, still not a receipt.
    const payload = Buffer.from('null');
    const signature = sign(null, payload, (keys[0] as ReceiptKey).privateKey);
    expect(verifyReceipt(keys, `${RECEIPT_PREFIX}.${b64url(payload)}.${b64url(signature)}`)).toEqual({
      valid: false,
    });
  });

  it('never throws, and finds nothing valid in texts and unsigned codes', () => {
    fc.assert(
      fc.property(fc.oneof(junkCode, unsignedCode), (code) => {
        expect(verifyReceipt(keys, code)).toEqual({ valid: false });
      }),
      settings(RUNS),
    );
  });

  it('a payload signed by a real key verifies exactly when it has the receipt’s shape', () => {
    fc.assert(
      fc.property(signedCode, ({ code, payload, key }) => {
        const verdict = verifyReceipt(keys, code);
        const claims = receiptShaped(payload) ? JSON.parse(payload.toString('utf8')) : null;
        if (claims === null || claims.kid !== key.id) {
          expect(verdict).toEqual({ valid: false });
          return;
        }
        expect(verdict).toEqual({
          valid: true,
          claims: { keyId: key.id, caseNumber: claims.no, filedAt: claims.t, digest: claims.d },
        });
      }),
      settings(RUNS),
    );
  });
});

describe('POST /receipts/verify, fuzzed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RECEIPT_SIGNING_KEYS: `old:${seeds.old},current:${seeds.current}` });
  }, 60_000);
  afterAll(async () => t?.close());

  const verify = (code: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/receipts/verify',
      headers: { origin: ORIGIN },
      payload: { code },
    });

  it('answers the reported code (payload the JSON null) as not valid, with no session', async () => {
    const res = await verify(`${RECEIPT_PREFIX}.bnVsbA.${b64url(new Uint8Array(64))}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(NOT_VALID);
  });

  it('never answers 5xx: any malformed code is the normal not-valid reply', async () => {
    const route = RUNS >= 1000 ? Math.ceil(RUNS / 10) : RUNS;
    await fc.assert(
      fc.asyncProperty(fc.oneof(junkCode, unsignedCode, signedCode), async (generated) => {
        const signed = typeof generated === 'object';
        const code = signed ? generated.code : generated;
        const res = await verify(code);
        const where = `${JSON.stringify(code).slice(0, 200)}: ${res.body.slice(0, 200)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        // Not a code at all (nothing, or past the documented 2,000 characters): the field error.
        const trimmed = code.trim();
        if (trimmed === '' || trimmed.length > 2000) {
          expect(res.statusCode, where).toBe(400);
          expect(Object.keys(res.json().errors), where).toEqual(['code']);
          return;
        }
        expect(res.statusCode, where).toBe(200);
        if (signed && receiptShaped(generated.payload)) {
          const claims = JSON.parse(generated.payload.toString('utf8'));
          expect(res.json().valid, where).toBe(claims.kid === generated.key.id);
        } else {
          expect(res.json(), where).toEqual(NOT_VALID);
        }
      }),
      settings(route),
    );
    expect(t.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  }, 120_000);

  it('a code that is not a string is a field error, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 3 }).filter((value) => typeof value !== 'string'),
        async (value) => {
          const res = await verify(value);
          expect(res.statusCode, res.body).toBe(400);
        },
      ),
      settings(200),
    );
  });
});
