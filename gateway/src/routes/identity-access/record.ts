/**
 * Writes the identity-access history: called by GET /cases/{id} after the scope check, before the
 * detail (with its identity fields) leaves. Only staff reads of identified reports are recorded;
 * the signed-in reporter reading its own case is not an access to someone else's identity.
 *
 * Fails closed: when the row cannot be stored the detail is not sent (503), so no identity is shown
 * without a trace the reporter can read.
 */
import { USER_TYPES } from '@wbs/shared/constants';
import type { FastifyRequest } from 'fastify';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { recordIdentityAccess } from '../../store/identity-access.ts';
import { storeCall } from '../../store/plugin.ts';
import { caseRefOf } from '../messages/conversation.ts';

/** An anonymous report carries no identity (presenters/cases.ts withholds every identity field). */
export const isAnonymousCase = (found: LegacyCase): boolean =>
  found.caseWhistleblowerIsAnonym ?? found.caseAnonym ?? false;

export async function recordIdentityRead(request: FastifyRequest, found: LegacyCase): Promise<void> {
  const user = request.session?.user;
  if (!user || user.userTypeId === USER_TYPES.WHISTLEBLOWER || isAnonymousCase(found)) return;
  await storeCall(request, (store) =>
    recordIdentityAccess(
      store,
      caseRefOf(found),
      { userType: user.userTypeId, role: user.role },
      'case-read',
    ),
  );
}
