/** The optional `Idempotency-Key` header of the routes that create something (8-128 of A-Z a-z 0-9 _ -). */

import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../uploads/idempotency.ts';

/** The header value, or null when absent; a malformed key is a 400 on the header's name. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value)) return value;
  throw new ApiProblem('validation', { errors: { 'Idempotency-Key': PROBLEM_MESSAGES.validation } });
}
