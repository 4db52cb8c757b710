/**
 * How a created record leaves: 201, its id in the body, and a `Location` naming it under the
 * collection it was posted to (`POST /api/v1/partners` → `/api/v1/partners/7`). The id comes from
 * the record the legacy answers with; a legacy that answers none gives `id: null` and no Location.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';

/** The legacy `data` of a create call: the new record, of which only its id (under `idKey`) is read. */
export const createdRecord = (idKey: string) =>
  v.optional(
    v.nullable(v.looseObject({ [idKey]: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) })),
    null,
  );

export function createdId(data: Record<string, unknown> | null | undefined, idKey: string): number | null {
  const id = data?.[idKey];
  return typeof id === 'number' ? id : null;
}

export function sendCreated<T extends { id: number | null }>(
  request: FastifyRequest,
  reply: FastifyReply,
  body: T,
): FastifyReply {
  if (body.id !== null) reply.header('location', `${request.routeOptions.url}/${body.id}`);
  return reply.code(201).send(body);
}
