/**
 * Building blocks of the gateway's `/api/v1` contract (docs/api-contract.md). Request bodies reuse the
 * section-5 form schemas of `../forms.ts`; this folder adds the reply shapes, path parameters and
 * queries. The gateway turns these valibot schemas into JSON Schema for Fastify and OpenAPI.
 */
import * as v from 'valibot';

/** A numeric id in a path or query string ("12" → 12). */
export const idString = v.pipe(
  v.string(),
  v.regex(/^[1-9][0-9]{0,9}$/, 'Id tidak valid'),
  v.transform((value) => Number(value)),
);

export const idParams = v.object({ id: idString });
export type IdParams = v.InferOutput<typeof idParams>;

/** An optional numeric query parameter. */
export const optionalIdQuery = v.optional(idString);

export const nullableNumber = v.nullable(v.number());
export const nullableString = v.nullable(v.string());

/**
 * The one convention for an instant in a reply (docs/api-contract.md, "Timestamps"): WIB wall time,
 * `YYYY-MM-DDTHH:mm:ss`, no offset and no fraction — how the legacy writes its own dates and how the
 * product shows every time (WIB is UTC+7, without daylight saving, so appending `+07:00` gives the
 * moment). Days are `YYYY-MM-DD` (WIB).
 */
export const wibDateTime = v.pipe(
  v.string(),
  v.description(
    'WIB (UTC+7) wall time YYYY-MM-DDTHH:mm:ss, without offset: append +07:00 for the moment. ' +
      'A legacy date the gateway cannot read is passed on as the legacy wrote it.',
  ),
);

/** A receipt's filing time: the signed claim `t`, repeated as the code holds it (docs/receipts.md). */
export const receiptTime = v.pipe(
  v.string(),
  v.description(
    'The signed claim t of the receipt code, byte for byte: UTC ISO 8601 (2026-11-23T05:00:00.000Z). ' +
      'The one timestamp outside the WIB wall-time convention, so it can be compared with the code.',
  ),
);

/** `{ id, name }`: every option list and most reference data. */
export const optionSchema = v.object({ id: v.number(), name: v.string() });
export type Option = v.InferOutput<typeof optionSchema>;

export const itemsOf = <T extends v.GenericSchema>(item: T) => v.object({ items: v.array(item) });

/** A page of a list: `{ items, total, page, pageSize }` (page is 1-based). */
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    items: v.array(item),
    total: v.number(),
    page: v.number(),
    pageSize: v.number(),
  });

const pageNumber = (max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^[1-9][0-9]{0,5}$/, 'Nomor halaman tidak valid'),
    v.transform((value) => Number(value)),
    v.maxValue(max, 'Nomor halaman tidak valid'),
  );

/** Query of every paged list: `page`, `pageSize`, `search`, `sort` (`field` or `-field`). */
export const listQuery = v.object({
  page: v.optional(pageNumber(1_000_000)),
  pageSize: v.optional(pageNumber(100)),
  search: v.optional(v.pipe(v.string(), v.maxLength(100))),
  sort: v.optional(v.pipe(v.string(), v.regex(/^-?[a-zA-Z]{1,40}$/))),
});
export type ListQuery = v.InferOutput<typeof listQuery>;

/** Reply of a mutation: the legacy's success text, shown by the UI. */
export const messageReply = v.object({ message: v.string() });
export type MessageReply = v.InferOutput<typeof messageReply>;

/** A created record: its id (its URL is in `Location`), null when the legacy did not return one. */
export const createdReply = v.object({ id: v.nullable(v.number()), message: v.string() });
export type CreatedReply = v.InferOutput<typeof createdReply>;

export const emptyBody = v.optional(v.object({}));

/** RFC 9457 problem details as the gateway sends them (`application/problem+json`). */
export const problemSchema = v.object({
  type: v.string(),
  title: v.string(),
  status: v.number(),
  detail: v.string(),
  severity: v.optional(v.picklist(['warning', 'error'])),
  messages: v.optional(v.array(v.string())),
  errors: v.optional(v.record(v.string(), v.string())),
});
export type Problem = v.InferOutput<typeof problemSchema>;

export const PROBLEM_TYPE_BASE = 'https://wbs.example/problems/';
