/**
 * Writes the identity-access history: GET /cases/{id} calls it after the scope check, before a
 * detail that shows the reporter's identity leaves (a hidden or anonymous identity is no access);
 * POST /cases/{id}/contact-reveal calls it for every reveal of masked contact details. The signed-in
 * reporter reading its own case is not an access to someone else's identity.
 *
 * Fails closed: when the row cannot be stored the reply is not sent (503), so no identity is shown
 * without a trace the reporter can read.
 */
import { USER_TYPES } from '@wbs/shared/constants';
import type { FastifyRequest } from 'fastify';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { type IdentityAccessRow, recordIdentityAccess } from '../../store/identity-access.ts';
import { storeCall } from '../../store/plugin.ts';

export async function recordIdentityRead(
  request: FastifyRequest,
  found: LegacyCase,
  kind: IdentityAccessRow['kind'],
): Promise<void> {
  const user = request.session?.user;
  if (!user || user.userTypeId === USER_TYPES.WHISTLEBLOWER) return;
  await storeCall(request, (store) =>
    recordIdentityAccess(
      store,
      store.cases.bind(found),
      { userType: user.userTypeId, role: user.role },
      kind,
    ),
  );
}
