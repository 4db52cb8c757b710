/** GET /cases/{id}: one case of the caller's scope, presented for this reader. */

import { caseDetailSchema } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import type { FastifyInstance } from 'fastify';
import { clockOfCase } from '../../clocks/service.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { subjectOf } from '../../policies/plugin.ts';
import { pelaporHidesIdentity } from '../../policies/reporter-privacy.ts';
import { audienceOf, presentCaseDetail, showsIdentity } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';
import { recordIdentityRead } from '../identity-access/record.ts';

export function caseDetailRoutes(app: FastifyInstance, tags: string[]) {
  app.get<{ Params: IdParams }>(
    '/cases/:id',
    {
      config: { policy: 'cases:read' },
      schema: routeSchema({
        summary: 'Detail laporan',
        description:
          'Another scope’s case is 404. Log notes, authors and log attachment names only for types 2–5 ' +
          '(masked for type 6); the reporter’s name is withheld from type 6; anonymous reports carry no identity. ' +
          'For handlers, anonymous reports and reports of a pelapor who hides its identity carry a masked ' +
          'e-mail and phone (`contactMasked`), and the latter no identity (`identityHidden`).',
        tags,
        params: idParams,
        response: { 200: caseDetailSchema },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request.caller, request.params.id);
      // Who read which report is part of the reporter's protection: every read is on record.
      audit(request, 'case-read', { resource: 'case', resourceId: found.caseId });
      const audience = audienceOf(subjectOf(request));
      // Independent reads (the legacy's pelapor record, the store's clock facts): side by side.
      const [hidden, handling] = await Promise.all([
        audience.handler ? pelaporHidesIdentity(request.caller, found) : false,
        clockOfCase(request.clocks, found),
      ]);
      const detail = presentCaseDetail(found, audience, hidden, handling);
      if (showsIdentity(detail)) await recordIdentityRead(request, found, 'case-read');
      return detail;
    },
  );
}
