/** The one check that a staff account's Akses Level is one the legacy offers (GET /UserRole). */
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { FieldErrors } from '../../errors.ts';
import { userRoleSchema } from '../../legacy/schemas.ts';

export async function offeredRoles(request: FastifyRequest) {
  const { data } = await request.legacy.call({
    name: 'UserRole.list',
    method: 'GET',
    path: '/UserRole',
    data: v.array(userRoleSchema),
  });
  return data;
}

/**
 * Refuses (400, field roleId) a role id the legacy does not offer: the legacy itself would store any
 * integer (`roleId: 99` became a role nobody's rules know), so the gateway is the guard.
 */
export async function assertOfferedRole(request: FastifyRequest, roleId: number): Promise<void> {
  const roles = await offeredRoles(request);
  if (roles.some((role) => role.id === roleId)) return;
  throw new FieldErrors({ roleId: FIELD_MESSAGES.roleInvalid });
}
