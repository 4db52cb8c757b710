/**
 * Handling deadlines per company (docs/product/handling.md#handling-clocks): the group default comes from the
 * configuration (HANDLING_ACK_DAYS, HANDLING_FEEDBACK_MONTHS); the administrator (type 1) may give a
 * company its own. A change applies to reports the gateway sees from then on: a date already promised
 * to a reporter does not move. Company admins (type 2) and partners (type 3) read theirs.
 */

import {
  type HandlingDeadlinesInput,
  handlingDeadlinesReply,
  handlingDeadlinesSchema,
} from '@wbs/shared/api/cases';
import { type IdParams, idParams, messageReply } from '@wbs/shared/api/common';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forgetCompanyDeadlines } from '../../clocks/service.ts';
import { deadlinesOf, removeDeadlines, saveDeadlines } from '../../clocks/store.ts';
import { companyOptions } from '../../legacy/masters.ts';
import { type CompanyOption, outOfScope, partnerCompanies, scopeOf } from '../../policies/scope.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';

const tags = ['handling-deadlines'];

/** The companies the caller may see the deadlines of (type 1: the whole group). */
async function companiesInScope(request: FastifyRequest): Promise<CompanyOption[]> {
  const scope = scopeOf(request.caller);
  if (scope.kind === 'partner') return partnerCompanies(request.caller, scope.partnerId);
  if (scope.kind !== 'all' && scope.kind !== 'company') throw outOfScope(request.caller, 'company', null);
  // Partner id 0 lists every company of the group (as GET /companies/options does for type 1).
  const data = await companyOptions(request.legacy, 0);
  return scope.kind === 'all' ? data : data.filter((c) => c.companyId === scope.companyId);
}

async function groupCompany(request: FastifyRequest, companyId: number): Promise<CompanyOption> {
  const company = (await companiesInScope(request)).find((c) => c.companyId === companyId);
  if (!company) throw outOfScope(request.caller, 'company', companyId);
  return company;
}

export default async function handlingDeadlineRoutes(app: FastifyInstance) {
  app.get(
    '/handling-deadlines',
    {
      config: { policy: 'handling-deadlines:read' },
      schema: routeSchema({
        summary: 'Tenggat penanganan per perusahaan',
        description:
          'The acknowledgement (days after filing) and feedback (months after filing) deadlines of each ' +
          'company of the caller’s scope, and the group default. Type 1: every company; type 2: its own; ' +
          'type 3: its partner’s.',
        tags,
        response: { 200: handlingDeadlinesReply },
      }),
    },
    async (request) => {
      const companies = await companiesInScope(request);
      const defaults = request.server.config.handlingDeadlines;
      const deadlines = await storeCall(request, (store) =>
        deadlinesOf(
          store,
          companies.map((c) => c.companyId),
          defaults,
        ),
      );
      return {
        defaults,
        companies: companies.map((c) => ({
          companyId: c.companyId,
          companyName: c.companyName,
          ...(deadlines.get(c.companyId) ?? { ...defaults, own: false }),
        })),
      };
    },
  );

  app.put<{ Params: IdParams; Body: HandlingDeadlinesInput }>(
    '/handling-deadlines/:id',
    {
      config: { policy: 'handling-deadlines:manage' },
      schema: routeSchema({
        summary: 'Ubah tenggat penanganan perusahaan',
        description:
          'Type 1 only. Gives the company its own deadlines; they apply to reports the gateway sees from ' +
          'now on (a date already promised to a reporter does not move).',
        tags,
        params: idParams,
        body: handlingDeadlinesSchema,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const company = await groupCompany(request, request.params.id);
      await storeCall(request, (store) =>
        saveDeadlines(store, company.companyId, request.body, request.session?.user.id ?? null),
      );
      forgetCompanyDeadlines(request.clocks, company.companyId);
      return { message: UI_MESSAGES.handlingDeadlinesSaved };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/handling-deadlines/:id',
    {
      config: { policy: 'handling-deadlines:manage' },
      schema: routeSchema({
        summary: 'Kembalikan tenggat penanganan ke bawaan grup',
        description:
          'Type 1 only. The company follows the group default again (for reports seen from now on).',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const company = await groupCompany(request, request.params.id);
      await storeCall(request, (store) => removeDeadlines(store, company.companyId));
      forgetCompanyDeadlines(request.clocks, company.companyId);
      return { message: UI_MESSAGES.handlingDeadlinesReset };
    },
  );
}
