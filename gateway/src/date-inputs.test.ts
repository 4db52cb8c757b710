/**
 * Every date input of the API follows one rule (shared/src/api/dates.ts, docs/product/handling.md#dates): a
 * calendar day
 * YYYY-MM-DD from 2000-01-01 to 2099-12-31, `from` not after `to`. Generated days and texts go through
 * `fastify.inject` to each route that takes one: never a 5xx, and exactly the 400 the rule predicts
 * (field errors, and the reason as the problem's `detail`), else the route's success. A guard reads the
 * OpenAPI document so a new date input cannot join without being listed here.
 */
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { apiDay } from '@wbs/shared/api/dates';
import { isSupportedIsoDate, isValidIsoDate, SUPPORTED_DAYS } from '@wbs/shared/dates';
import {
  format,
  FIELD_MESSAGES as M,
  PROBLEM_MESSAGES as P,
  TEMPLATE_MESSAGES as T,
} from '@wbs/shared/messages';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiJson } from './openapi.ts';
import { browser, buildTestApp, demoAccount, signIn, signInAs, type TestApp } from './test/helpers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  // With the service account: the map and statistics answer once the case index has swept the seed.
  t = await buildTestApp({
    LEGACY_SERVICE_USERNAME: 'admin',
    LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
  });
  await t.app.caseIndex.poll();
  cookies.admin = await signInAs(t.app, 1);
  cookies.companyAdmin = await signIn(t.app, 'admin.kahuripan', 'Perusahaan#2026!');
  cookies.partner = await signIn(t.app, 'holding', 'Partner#2026!');
}, 60_000);
afterAll(async () => t?.close());

type DateInput = {
  /** `METHOD /path` as the OpenAPI document names it. */
  operation: string;
  send(from: unknown, to: unknown): Promise<LightMyRequestResponse>;
  /** The case list may not reach past today (spec §9). */
  notAfterToday?: boolean;
};

const query = (from: unknown, to: unknown) => {
  const params = new URLSearchParams();
  if (from !== undefined) params.set('from', String(from));
  if (to !== undefined) params.set('to', String(to));
  return params.toString();
};
const get = (cookie: () => string | undefined, path: string) => (from: unknown, to: unknown) =>
  t.app.inject({ method: 'GET', url: `/api/v1${path}?${query(from, to)}`, headers: browser(cookie() ?? '') });
const post =
  (cookie: () => string | undefined, path: string, extra: object) => (from: unknown, to: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: browser(cookie() ?? ''),
      payload: { ...extra, from, to },
    });

/** Every request of the API that carries a date: the guard below checks the list is whole. */
const DATE_INPUTS: DateInput[] = [
  { operation: 'GET /api/v1/audit-trail/export', send: get(() => cookies.admin, '/audit-trail/export') },
  { operation: 'GET /api/v1/dashboard/companies', send: get(() => cookies.partner, '/dashboard/companies') },
  { operation: 'GET /api/v1/maps/provinces', send: get(() => cookies.partner, '/maps/provinces') },
  {
    // Aceh: the seed files nobody there, so no range makes it a small area (409).
    operation: 'GET /api/v1/maps/provinces/{provinceId}/cities',
    send: get(() => cookies.companyAdmin, '/maps/provinces/11/cities'),
  },
  { operation: 'GET /api/v1/statistics', send: get(() => cookies.partner, '/statistics') },
  { operation: 'GET /api/v1/statistics/export', send: get(() => cookies.companyAdmin, '/statistics/export') },
  { operation: 'GET /api/v1/dashboard/summary', send: get(() => cookies.companyAdmin, '/dashboard/summary') },
  {
    operation: 'POST /api/v1/cases/search',
    send: post(() => cookies.companyAdmin, '/cases/search', { page: 1, pageSize: 10 }),
    notAfterToday: true,
  },
  {
    operation: 'POST /api/v1/cases/export',
    send: post(() => cookies.companyAdmin, '/cases/export', {}),
    notAfterToday: true,
  },
];

/** What the rule says about one field's value: its error, or null when the day is accepted. */
function fieldError(value: unknown, required: string): string | null {
  if (value === undefined) return required;
  if (typeof value !== 'string') return required;
  const day = value.trim();
  if (day === '') return required;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !isValidIsoDate(day)) return M.dateInvalid;
  if (!isSupportedIsoDate(day)) return M.dateOutOfRange;
  return null;
}

/** The field errors the rule predicts for a request (empty: accepted). */
function expectedErrors(from: unknown, to: unknown, notAfterToday: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  const fromError = fieldError(from, M.dateFromRequired);
  const toError = fieldError(to, M.dateToRequired);
  if (fromError) errors.from = fromError;
  if (toError) errors.to = toError;
  // Only read as days once both passed their own rule (a generated object may not even turn into text).
  const [a, b] = [typeof from === 'string' ? from.trim() : '', typeof to === 'string' ? to.trim() : ''];
  if (!fromError && !toError && a > b) errors.from = M.dateRangeInvalid;
  if (notAfterToday && !toError && b > latestIndonesianToday()) errors.to = M.dateAfterToday;
  return errors;
}

const DETAILS: Record<string, string> = {
  [M.dateInvalid]: P.dateInvalid,
  [M.dateOutOfRange]: P.dateOutOfRange,
  [M.dateRangeInvalid]: P.dateRangeInvalid,
};

/** A JSON body Fastify's parser refuses as a whole (prototype poisoning): a 400 before any field rule. */
function poisoned(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const own = (key: string) => Object.hasOwn(value, key);
  const record = value as Record<string, unknown>;
  if (own('__proto__')) return true;
  if (own('constructor') && typeof record.constructor === 'object' && record.constructor !== null) {
    if (Object.hasOwn(record.constructor, 'prototype')) return true;
  }
  return Object.values(record).some(poisoned);
}

function checkReply(input: DateInput, from: unknown, to: unknown, res: LightMyRequestResponse) {
  const where = `${input.operation} from=${JSON.stringify(from)} to=${JSON.stringify(to)}: ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  if (poisoned(from) || poisoned(to)) {
    expect(res.statusCode, where).toBe(400);
    expect(res.json().type, where).toBe('https://wbs.example/problems/bad-request');
    return;
  }
  const errors = expectedErrors(from, to, input.notAfterToday === true);
  if (Object.keys(errors).length === 0) {
    expect(res.statusCode, where).toBe(200);
    return;
  }
  expect(res.statusCode, where).toBe(400);
  const problem = res.json() as { errors: Record<string, string>; detail: string };
  expect(problem.errors, where).toEqual(errors);
  // The detail names the reason: a date rule's own, else the one field's message, else the fields.
  const messages = Object.values(errors);
  const dateReason = messages.map((message) => DETAILS[message]).find(Boolean);
  const fields = format(T.invalidFields, { count: messages.length, fields: Object.keys(errors).join(', ') });
  expect(problem.detail, where).toBe(dateReason ?? (messages.length === 1 ? messages[0] : fields));
}

// Days of every shape: the whole 4-digit calendar (year 0 to 9999, day numbers past a month's end),
// real days around the range's edges and today, Date-made days of any year, and plain junk.
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const anyYearDay = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const edgeDay = fc.constantFrom(
  '0001-01-01',
  '0000-12-31',
  '1899-12-31',
  '1969-12-31',
  '1970-01-01',
  '1999-12-31',
  SUPPORTED_DAYS.min,
  '2000-02-29',
  latestIndonesianToday(),
  '2099-02-29',
  SUPPORTED_DAYS.max,
  '2100-01-01',
  '9999-12-31',
);
const dateMadeDay = fc
  .date({ min: new Date(-8_640_000_000_000_000), max: new Date(8_640_000_000_000_000), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const recentDay = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date(), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const junk = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.constantFrom(
    '',
    ' ',
    '2024-1-1',
    '24-01-01',
    '2024/01/01',
    '01/01/2024',
    '+002024-01-01',
    '2024-01-01T00:00',
  ),
  anyYearDay.map((day) => ` ${day}\t`),
);
const dayText = fc.oneof(
  { weight: 2, arbitrary: anyYearDay },
  { weight: 1, arbitrary: edgeDay },
  { weight: 1, arbitrary: dateMadeDay },
  // Often a real recent day, so pairs of accepted days (the routes' success path) come up too.
  { weight: 4, arbitrary: recentDay },
  { weight: 2, arbitrary: junk },
);
/** A JSON body may hold anything where a day belongs. */
const bodyValue = fc.oneof(
  { weight: 6, arbitrary: dayText },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

describe('every date input of the API', () => {
  it('refuses the days PostgreSQL or the legacy cannot take: 400 naming the reason, not 503', async () => {
    for (const input of DATE_INPUTS) {
      const res = await input.send('0001-01-01', '9999-12-31');
      expect(res.statusCode, `${input.operation}: ${res.body}`).toBe(400);
      expect(res.json(), input.operation).toMatchObject({
        type: 'https://wbs.example/problems/validation',
        detail: P.dateOutOfRange,
        errors: { from: M.dateOutOfRange, to: M.dateOutOfRange },
      });
    }
    expect(t.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('accepts the first and the last day of the range', async () => {
    for (const input of DATE_INPUTS) {
      const to = input.notAfterToday ? latestIndonesianToday() : SUPPORTED_DAYS.max;
      const res = await input.send(SUPPORTED_DAYS.min, to);
      expect(res.statusCode, `${input.operation}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  for (const input of DATE_INPUTS) {
    const isBody = input.operation.startsWith('POST');
    it(`${input.operation}: generated days never answer 5xx, and answer as the rule says`, async () => {
      const value = isBody ? bodyValue : fc.oneof(dayText, fc.constant(undefined));
      await fc.assert(
        fc.asyncProperty(value, value, async (from, to) => {
          checkReply(input, from, to, await input.send(from, to));
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
      expect(t.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
    }, 120_000);
  }

  it('the shared day schema agrees with the rule for any text', () => {
    const schema = apiDay(M.dateFromRequired);
    fc.assert(
      fc.property(dayText, (text) => {
        const result = v.safeParse(schema, text);
        const error = fieldError(text, M.dateFromRequired);
        expect(result.success ? null : result.issues[0].message, JSON.stringify(text)).toBe(error);
      }),
      { numRuns: 2000 },
    );
  });

  it('every request part of the API holding a day is listed above (read from the OpenAPI document)', async () => {
    const doc = JSON.parse(await openApiJson()) as {
      paths: Record<string, Record<string, OpenApiOperation>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
      schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop() ?? ''] : schema;
    const dayLike = (name: string, schema: JsonSchema | undefined) =>
      // Names a day or a moment (`from`, `until`, `birthDate`, `filedDay`, `createdAt`), not a count
      // (`ackDays`).
      /^(from|to|since|until|day|date)$|[Dd]ate|[a-z](Day|At)$/.test(name) ||
      /\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(resolve(schema)?.pattern ?? '');
    const found = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const operation = `${method.toUpperCase()} ${path}`;
        const params = (op.parameters ?? [])
          .filter((p) => p.in === 'query' && dayLike(p.name, p.schema))
          .map((p) => [p.name, p.description ?? resolve(p.schema)?.description] as const);
        const body = resolve(op.requestBody?.content?.['application/json']?.schema);
        const bodyDays = Object.entries(body?.properties ?? {})
          .filter(([name, s]) => dayLike(name, s))
          .map(([name, s]) => [name, resolve(s)?.description] as const);
        for (const [name, description] of [...params, ...bodyDays]) {
          found.add(operation);
          // The rule's own description (the document moves a query parameter's onto the parameter):
          // the field is an apiDay, not a look-alike with a rule of its own.
          expect(description, `${operation} ${name}`).toContain(
            `${SUPPORTED_DAYS.min} sampai ${SUPPORTED_DAYS.max}`,
          );
        }
      }
    }
    expect([...found].sort()).toEqual(DATE_INPUTS.map((i) => i.operation).sort());
  });
});

type JsonSchema = {
  $ref?: string;
  pattern?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
};
type OpenApiOperation = {
  parameters?: { in: string; name: string; description?: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
