/**
 * "Siapa yang melihat identitas saya": for an identified report, the reporter reads when staff
 * opened the case detail with its identity fields, and in which role (never who). Rows are written
 * by `recordIdentityRead` (called by GET /cases/{id}); anonymous reports have no identity and no
 * history.
 */
import type { TrackingRequest } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import { identityAccessReply, trackerConversationRequest } from '@wbs/shared/api/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import { isAnonymousCase } from '../../presenters/cases.ts';
import { presentIdentityAccess } from '../../presenters/messages.ts';
import { routeSchema } from '../../schema.ts';
import { listIdentityAccess } from '../../store/identity-access.ts';
import { storeCall } from '../../store/plugin.ts';

const schemaTags = ['identity-access'];

/** An anonymous report has no identity to open, but its masked contact details can be revealed. */
async function historyOf(request: FastifyRequest, found: LegacyCase) {
  const rows = await storeCall(request, (store) => listIdentityAccess(store, store.cases.bind(found)));
  if (isAnonymousCase(found)) {
    return presentIdentityAccess(
      false,
      rows.filter((row) => row.kind === 'contact-reveal'),
    );
  }
  return presentIdentityAccess(true, rows);
}

export default async function identityAccessRoutes(app: FastifyInstance) {
  const proveTracker = await trackerProof(app);
  app.get<{ Params: IdParams }>(
    '/cases/:id/identity-access',
    {
      config: { policy: 'identity-access:read-own' },
      schema: routeSchema({
        summary: 'Riwayat akses identitas',
        description:
          'The signed-in reporter (type 6), own cases only: each time staff opened the case detail with the ' +
          'identity fields or revealed its masked contact, newest first (at most 100): date and role, never a name. ' +
          'Anonymous: `identified: false` and only the contact reveals.',
        tags: schemaTags,
        params: idParams,
        response: { 200: identityAccessReply },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      audit(request, 'identity-access-read', { resource: 'case', resourceId: found.caseId });
      return historyOf(request, found);
    },
  );

  app.post<{ Body: TrackingRequest }>(
    '/tracking/identity-access',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Riwayat akses identitas (Pantau Laporan)',
        description:
          'Public: the same history for the tracked case, proven by number and password as in POST /tracking.',
        tags: schemaTags,
        body: trackerConversationRequest,
        response: { 200: identityAccessReply },
      }),
    },
    async (request, reply) =>
      historyOf(request, await proveTracker(request, reply, 'tracking-identity-access')),
  );
}
