/**
 * The ONE validation mechanism: routes declare valibot schemas (from shared/src/api); Fastify gets
 * their JSON Schema (for OpenAPI and the fast response serializer) and validates requests by running
 * the original valibot schema, so field errors carry the spec's section-5 messages.
 */
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import * as sharedApi from '@wbs/shared/api/index';
import { fieldErrors } from '@wbs/shared/forms';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import * as v from 'valibot';
import { FieldErrors } from './errors.ts';
import { IDEMPOTENT_MARK } from './openapi-conventions.ts';

type AnySchema = v.GenericSchema;
type JsonObject = Record<string, unknown>;

const valibotOf = new WeakMap<object, AnySchema>();
const converted = new WeakMap<AnySchema, Map<string, JsonObject>>();

const baseConfig: ConversionConfig = {
  target: 'draft-07',
  // trim is a normalisation, partial_check a cross-field rule (checked by valibot, not by the document).
  ignoreActions: ['trim', 'partial_check', 'check'],
};

/** Shared shapes (the exports of shared/src/api) by valibot schema: their names in `components.schemas`. */
const sharedNames = new Map<unknown, string>();
// Sorted, and the first name wins for a schema exported under two names: the same name on every run.
for (const [name, value] of Object.entries(sharedApi).sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (typeof value === 'object' && value !== null && 'kind' in value && !sharedNames.has(value)) {
    sharedNames.set(value, name);
  }
}

const defaultsCheck = new Ajv({ strict: false });
addFormats.default(defaultsCheck);

/**
 * A request field whose default breaks its own limits (`optional(minLength(1), '')`, kept so a missing
 * field gets its own "wajib diisi" text) is one the server refuses when missing: document it as
 * required and without that default, so a generated client cannot leave it out.
 */
function requireRefusedDefaults(json: JsonObject): JsonObject {
  const properties = json.properties as Record<string, JsonObject> | undefined;
  if (json.type !== 'object' || !properties) return json;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const fixed: Record<string, JsonObject> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!('default' in property)) {
      fixed[name] = property;
      continue;
    }
    const { default: fallback, ...rest } = property;
    if (defaultsCheck.validate(rest, fallback)) {
      fixed[name] = property;
      continue;
    }
    fixed[name] = rest;
    required.add(name);
  }
  return { ...json, properties: fixed, required: [...required] };
}

/** valibot → draft-07 JSON Schema without `$schema`; `input` for requests, `output` for replies. */
export function toJson(schema: AnySchema, typeMode: 'input' | 'output'): JsonObject {
  let cache = converted.get(schema);
  if (!cache) {
    cache = new Map();
    converted.set(schema, cache);
  }
  const hit = cache.get(typeMode);
  if (hit) return hit;
  const { $schema: _drop, ...raw } = toJsonSchema(schema, { ...baseConfig, typeMode }) as JsonObject;
  const json = typeMode === 'input' ? requireRefusedDefaults(raw) : raw;
  cache.set(typeMode, json);
  return json;
}

/** A request part: the JSON Schema Fastify sees, remembering which valibot schema validates it. */
function requestPart(schema: AnySchema): JsonObject {
  // A fresh object per use, so the WeakMap key is unique to this valibot schema.
  const json = { ...toJson(schema, 'input'), ...componentMark(schema) };
  valibotOf.set(json, schema);
  return json;
}

/** Names a shared shape for the document (see openapi-conventions.ts); other schemas stay inline. */
function componentMark(schema: AnySchema): JsonObject {
  const name = sharedNames.get(schema);
  return name ? { 'x-component': name } : {};
}

export type RouteSchemaInput = {
  summary: string;
  tags: string[];
  params?: AnySchema;
  querystring?: AnySchema;
  /** Request headers a route reads (a loose object: the headers it does not name pass untouched). */
  headers?: AnySchema;
  body?: AnySchema;
  /** Success replies by status; `null` means an empty reply (204). */
  response: Record<number, AnySchema | null>;
  /** Extra description for the docs. */
  description?: string;
  /** The route honours an `Idempotency-Key` header (documented as a parameter). */
  idempotent?: boolean;
  /**
   * A multipart/form-data body, documented only: the handler reads it as a stream (uploads), so no
   * schema validates it here. `files` names the file fields (shown as binary).
   */
  multipart?: { fields: AnySchema; files: string[] };
};

/** Builds the Fastify `schema` of a route from valibot schemas. */
export function routeSchema(input: RouteSchemaInput): FastifySchema {
  const response: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(input.response)) {
    response[status] =
      schema === null
        ? { description: 'Tanpa isi', type: 'null' }
        : { description: 'OK', ...toJson(schema, 'output'), ...componentMark(schema) };
  }
  // Problems are sent by the error handler as they are; the document lists them (openapi-conventions.ts).
  const schema: FastifySchema & JsonObject = { summary: input.summary, tags: input.tags, response };
  if (input.idempotent) schema[IDEMPOTENT_MARK] = true;
  if (input.description) schema.description = input.description;
  if (input.params) schema.params = requestPart(input.params);
  if (input.querystring) schema.querystring = requestPart(input.querystring);
  if (input.headers) schema.headers = requestPart(input.headers);
  if (input.body) schema.body = requestPart(input.body);
  if (input.multipart) {
    const json = toJson(input.multipart.fields, 'input');
    const properties = { ...(json.properties as JsonObject) };
    for (const name of input.multipart.files) properties[name] = { type: 'string', format: 'binary' };
    const body = { ...json, properties };
    valibotOf.set(body, v.unknown());
    schema.body = body;
    schema.consumes = ['multipart/form-data'];
  }
  return schema;
}

/** Validator compiler running the valibot schema behind each request part. */
export const valibotValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const valibot = valibotOf.get(schema as object);
  if (!valibot) {
    throw new Error(`route schema part ${httpPart ?? '?'} was not built by routeSchema()`);
  }
  return (data: unknown) => {
    // A missing body or query is validated as `{}`: each field then gets its own "wajib diisi" text.
    const input = data === undefined || data === null ? {} : data;
    const result = v.safeParse(valibot, input);
    if (result.success) return { value: result.output };
    // The problem's `detail` is derived from these by errors.ts, like every other validation problem's.
    return { error: new FieldErrors(fieldErrors(result.issues)) };
  };
};
