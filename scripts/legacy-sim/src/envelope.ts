/** The legacy reply envelope `{ code, message: string[], data }`, always at HTTP 200 unless stated. */
import type { FastifyReply } from 'fastify';

export type Envelope<T = unknown> = { code: 1 | 0 | -1; message: string[]; data: T | null };

export const ok = <T>(data: T, ...message: string[]): Envelope<T> => ({ code: 1, message, data });
/** A warning: validation failure, not found, wrong password… */
export const warn = (...message: string[]): Envelope => ({ code: 0, message, data: null });
export const fail = (...message: string[]): Envelope => ({ code: -1, message, data: null });

export const NOT_FOUND = 'Data tidak ditemukan';

export function unauthorized(reply: FastifyReply): FastifyReply {
  return reply.code(401).send(fail('Unauthorized'));
}

export function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send(fail('Not Found'));
}
