/**
 * How a created record leaves: 201, its id in the body, and a `Location` naming it under the
 * collection it was posted to (`POST /api/v1/partners` → `/api/v1/partners/7`). A legacy that answered
 * no id gives `id: null` and no Location.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function sendCreated<T extends { id: number | null }>(
  request: FastifyRequest,
  reply: FastifyReply,
  body: T,
): FastifyReply {
  if (body.id !== null) reply.header('location', `${request.routeOptions.url}/${body.id}`);
  return reply.code(201).send(body);
}
