/**
 * The ONE validation mechanism: routes declare valibot schemas (from shared/src/api); Fastify gets
 * their JSON Schema (for OpenAPI and the fast response serializer) and validates requests by running
 * the original valibot schema, so field errors carry the spec's section-5 messages.
 */
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import { problemSchema } from '@wbs/shared/api/common';
import { fieldErrors } from '@wbs/shared/forms';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import * as v from 'valibot';
import { FieldErrors } from './errors.ts';

type AnySchema = v.GenericSchema;
type JsonObject = Record<string, unknown>;

const valibotOf = new WeakMap<object, AnySchema>();
const converted = new WeakMap<AnySchema, Map<string, JsonObject>>();

const baseConfig: ConversionConfig = {
  target: 'draft-07',
  // trim is a normalisation, partial_check a cross-field rule (checked by valibot, not by the document).
  ignoreActions: ['trim', 'partial_check', 'check'],
};

/** valibot → draft-07 JSON Schema without `$schema`; `input` for requests, `output` for replies. */
export function toJson(schema: AnySchema, typeMode: 'input' | 'output'): JsonObject {
  let cache = converted.get(schema);
  if (!cache) {
    cache = new Map();
    converted.set(schema, cache);
  }
  const hit = cache.get(typeMode);
  if (hit) return hit;
  const { $schema: _drop, ...json } = toJsonSchema(schema, { ...baseConfig, typeMode }) as JsonObject;
  cache.set(typeMode, json);
  return json;
}

/** A request part: the JSON Schema Fastify sees, remembering which valibot schema validates it. */
function requestPart(schema: AnySchema): JsonObject {
  // A fresh object per use, so the WeakMap key is unique to this valibot schema.
  const json = { ...toJson(schema, 'input') };
  valibotOf.set(json, schema);
  return json;
}

const problemJson = () => toJson(problemSchema, 'output');

export type RouteSchemaInput = {
  summary: string;
  tags: string[];
  params?: AnySchema;
  querystring?: AnySchema;
  body?: AnySchema;
  /** Success replies by status; `null` means an empty reply (204). */
  response: Record<number, AnySchema | null>;
  /** Extra description for the docs. */
  description?: string;
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
        : { description: 'OK', ...toJson(schema, 'output') };
  }
  response['4xx'] = { description: 'Problem (RFC 9457)', ...problemJson() };
  response['5xx'] = { description: 'Problem (RFC 9457)', ...problemJson() };
  const schema: FastifySchema & JsonObject = { summary: input.summary, tags: input.tags, response };
  if (input.description) schema.description = input.description;
  if (input.params) schema.params = requestPart(input.params);
  if (input.querystring) schema.querystring = requestPart(input.querystring);
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
    return { error: new FieldErrors(fieldErrors(result.issues)) };
  };
};
