/**
 * The quicker legacy-reply check against valibot itself: on valid, almost valid and broken replies
 * of every legacy schema, `checkLegacy` must answer exactly what `v.safeParse` answers (success, the
 * same output, the same issues).
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as caseSchemas from './case-schemas.ts';
import * as dashboardSchemas from './dashboard-schemas.ts';
import { arrayOf, checkLegacy } from './fast-check.ts';
import * as schemas from './schemas.ts';

const isSchema = (value: unknown): value is v.GenericSchema =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';

const ALL: [string, v.GenericSchema][] = Object.entries({
  ...schemas,
  ...caseSchemas,
  ...dashboardSchemas,
}).flatMap(([name, value]): [string, v.GenericSchema][] => (isSchema(value) ? [[name, value]] : []));

/** Every key any legacy schema names, at any depth: generated objects use them, so fields match. */
function keysOf(schema: unknown, into: Set<string>): Set<string> {
  if (!schema || typeof schema !== 'object') return into;
  const node = schema as {
    entries?: Record<string, unknown>;
    wrapped?: unknown;
    item?: unknown;
    options?: unknown[];
    pipe?: unknown[];
  };
  for (const [key, entry] of Object.entries(node.entries ?? {})) {
    into.add(key);
    keysOf(entry, into);
  }
  for (const child of [node.wrapped, node.item, ...(node.options ?? []), ...(node.pipe?.slice(1) ?? [])]) {
    keysOf(child, into);
  }
  return into;
}
const KEYS = [...ALL.reduce((keys, [, schema]) => keysOf(schema, keys), new Set<string>())];

/** The values a legacy sends, and the ones it should not: numbers as text, flags, nulls, NaN. */
const leaf = fc.oneof(
  fc.integer({ min: -3, max: 2000 }),
  fc.double({ noDefaultInfinity: true }),
  fc.constantFrom(Number.NaN, 0, 1, -1, 6, 7),
  fc.constantFrom('1', '0', '12', '-4.5', '1e3', 'true', 'false', ' 1 ', '', '0,2', '1,x,3', 'abc'),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

const legacyValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 12 }),
  ),
}));

/** A reply of the schema's shape with every key present (values still anything). */
const fullObjectOf = (schema: v.GenericSchema) => {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  if (!entries) return legacyValue.value;
  return fc.record(Object.fromEntries(Object.keys(entries).map((key) => [key, legacyValue.value])));
};

function expectSameAnswer(schema: v.GenericSchema, input: unknown) {
  // Twice: the first use of a schema is valibot's own parse, later ones the compiled check.
  checkLegacy(schema, input);
  const fast = checkLegacy(schema, input);
  const reference = v.safeParse(schema, input);
  expect(fast.success).toBe(reference.success);
  if (reference.success) {
    expect(fast.output).toStrictEqual(reference.output);
    expect(JSON.stringify(fast.output)).toBe(JSON.stringify(reference.output));
  } else {
    expect(fast.issues?.map((i) => [v.getDotPath(i), i.expected])).toEqual(
      reference.issues?.map((i) => [v.getDotPath(i), i.expected]),
    );
  }
}

describe('checkLegacy answers exactly what valibot answers', () => {
  it.each(ALL)('%s, on anything', (_name, schema) => {
    fc.assert(
      fc.property(legacyValue.value, (input) => expectSameAnswer(schema, input)),
      { numRuns: 300 },
    );
  });

  it.each(ALL)('%s, on replies with every field present', (_name, schema) => {
    fc.assert(
      fc.property(fullObjectOf(schema), (input) => expectSameAnswer(schema, input)),
      { numRuns: 300 },
    );
  });

  it('on a valid case row and case, with transforms applied (numbers from text, flags, id lists)', () => {
    const row = {
      caseId: '42',
      caseNumber: 'WBS-1',
      caseCreated: '2026-01-02T03:04:05',
      caseCompanyId: 1,
      caseCompany: { companyName: 'PT A', extra: 'dropped' },
      caseCaseStatus: { caseStatusId: '3', caseStatusName: 'Baru' },
      notDeclared: 'dropped',
    };
    const detail = {
      ...row,
      caseAnonym: '1',
      caseIsReporterNeedProtection: true,
      caseWhistleblowerCommunicationType: '0,2,2,x',
      attachments: [{ attachmentId: '5', attachmentName: 'a.pdf' }],
      caselogs: null,
    };
    const rows = arrayOf(caseSchemas.caseRowSchema);
    expectSameAnswer(rows, [row, row]);
    expectSameAnswer(caseSchemas.legacyCaseSchema, detail);
    const parsed = checkLegacy(caseSchemas.legacyCaseSchema, detail);
    expect(parsed.success && parsed.output).toMatchObject({
      caseId: 42,
      caseAnonym: true,
      caseWhistleblowerCommunicationType: [0, 2],
      attachments: [{ attachmentId: 5, attachmentName: 'a.pdf' }],
      caselogs: null,
      caseTitle: null,
    });
    expect(parsed.success && 'notDeclared' in parsed.output).toBe(false);
  });

  it('refuses what valibot refuses: a missing required field, a wrong type, a NaN, a bad code', () => {
    const rows = arrayOf(caseSchemas.caseRowSchema);
    for (const broken of [
      [{ caseNumber: 'x', caseCreated: 'y', caseCompanyId: 1 }],
      [{ caseId: 'x1', caseNumber: 'x', caseCreated: 'y', caseCompanyId: 1 }],
      [{ caseId: Number.NaN, caseNumber: 'x', caseCreated: 'y', caseCompanyId: 1 }],
      [{ caseId: 1, caseNumber: 2, caseCreated: 'y', caseCompanyId: 1 }],
      { caseId: 1 },
    ]) {
      expectSameAnswer(rows, broken);
      expect(checkLegacy(rows, broken).success).toBe(false);
    }
    expect(checkLegacy(schemas.envelopeSchema, { code: 2, message: [], data: null }).success).toBe(false);
  });
});
