/** The one check that a staff account's Akses Level is one the legacy offers (GET /UserRole). */
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { FieldErrors } from '../../errors.ts';
import { userRoles } from '../../legacy/reference.ts';

/**
 * Refuses (400, field roleId) a role id the legacy does not offer: the legacy itself would store any
 * integer (`roleId: 99` became a role nobody's rules know), so the gateway is the guard.
 */
export async function assertOfferedRole(request: FastifyRequest, roleId: number): Promise<void> {
  const roles = await userRoles(request.legacy);
  if (roles.some((role) => role.id === roleId)) return;
  throw new FieldErrors({ roleId: FIELD_MESSAGES.roleInvalid });
}
