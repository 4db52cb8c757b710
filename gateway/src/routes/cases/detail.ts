/** GET /cases/{id}: one case of the caller's scope, presented for this reader. */

import { caseDetailSchema } from '@wbs/shared/api/cases';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import type { FastifyInstance } from 'fastify';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { subjectOf } from '../../policies/plugin.ts';
import { audienceOf, presentCaseDetail } from '../../presenters/cases.ts';
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
          '(masked for type 6); the reporter’s name is withheld from type 6; anonymous reports carry no identity.',
        tags,
        params: idParams,
        response: { 200: caseDetailSchema },
      }),
    },
    async (request) => {
      const found = await loadCaseInScope(request, request.params.id);
      // Who read which report is part of the reporter's protection: every read is on record.
      audit(request, 'case-read', { resource: 'case', resourceId: found.caseId });
      await recordIdentityRead(request, found);
      return presentCaseDetail(found, audienceOf(subjectOf(request)));
    },
  );
}
