/**
 * Retention periods per company (docs/product/retention.md): the group default comes from the
 * configuration (RETENTION_MONTHS); the administrator (type 1, the group's data protection officer)
 * may give a company its own. A change applies at the next retention scan, to every final case of the
 * company, including cases closed before the change (the period is a rule about keeping, not a
 * promise made to anyone).
 */
import { type IdParams, idParams, messageReply } from '@wbs/shared/api/common';
import {
  type RetentionPeriodRequest,
  retentionPeriodRequest,
  retentionPeriodsReply,
} from '@wbs/shared/api/retention';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { companyOptions } from '../../legacy/masters.ts';
import { audit } from '../../logging.ts';
import { assertRecentFactor } from '../../policies/plugin.ts';
import { type CompanyOption, outOfScope } from '../../policies/scope.ts';
import { periodsOf, removePeriod, savePeriod } from '../../retention/store.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';

const tags = ['retention-periods'];

/** Every company of the group (partner id 0 lists them all, as GET /companies/options does for type 1). */
function groupCompanies(request: FastifyRequest): Promise<CompanyOption[]> {
  return companyOptions(request.legacy, 0);
}

async function groupCompany(request: FastifyRequest, companyId: number): Promise<CompanyOption> {
  const company = (await groupCompanies(request)).find((c) => c.companyId === companyId);
  if (!company) throw outOfScope(request.caller, 'company', companyId);
  return company;
}

/**
 * A shorter period than the company has now deletes sooner, at the next scan, and for good: like every
 * action that cannot be undone it needs a second factor used within ten minutes (step-up). A longer
 * one deletes nothing and needs none.
 */
async function assertStepUpToShorten(
  request: FastifyRequest,
  reply: FastifyReply,
  companyId: number,
  nextMonths: number,
): Promise<void> {
  const defaultMonths = request.server.config.retentionMonths;
  const periods = await storeCall(request, (store) => periodsOf(store, [companyId], defaultMonths));
  const current = periods.get(companyId)?.months ?? defaultMonths;
  if (nextMonths < current) await assertRecentFactor(request, reply);
}

export default async function retentionPeriodRoutes(app: FastifyInstance) {
  app.get(
    '/retention-periods',
    {
      config: { policy: 'retention:read' },
      schema: routeSchema({
        summary: 'Masa retensi data per perusahaan',
        description:
          'Type 1 only. The group default (RETENTION_MONTHS) and each company’s retention period in months, ' +
          'counted from the day a case reached a final status.',
        tags,
        response: { 200: retentionPeriodsReply },
      }),
    },
    async (request) => {
      const companies = await groupCompanies(request);
      const defaultMonths = request.server.config.retentionMonths;
      const periods = await storeCall(request, (store) =>
        periodsOf(
          store,
          companies.map((c) => c.companyId),
          defaultMonths,
        ),
      );
      return {
        defaultMonths,
        companies: companies.map((c) => ({
          companyId: c.companyId,
          companyName: c.companyName,
          ...(periods.get(c.companyId) ?? { months: defaultMonths, own: false }),
        })),
      };
    },
  );

  app.put<{ Params: IdParams; Body: RetentionPeriodRequest }>(
    '/retention-periods/:id',
    {
      config: { policy: 'retention:manage' },
      schema: routeSchema({
        summary: 'Ubah masa retensi perusahaan',
        description:
          'Type 1 only. Gives the company its own retention period (1 to 120 months); it applies at the ' +
          'next retention scan to every final case of the company. Step-up when shorter than the ' +
          'company’s period now. Audited (`retention-period-changed`).',
        tags,
        params: idParams,
        body: retentionPeriodRequest,
        response: { 200: messageReply },
      }),
    },
    async (request, reply) => {
      const company = await groupCompany(request, request.params.id);
      await assertStepUpToShorten(request, reply, company.companyId, request.body.months);
      await storeCall(request, (store) =>
        savePeriod(store, company.companyId, request.body.months, request.session?.user.id ?? null),
      );
      audit(request, 'retention-period-changed', {
        companyId: company.companyId,
        months: request.body.months,
      });
      return { message: UI_MESSAGES.retentionPeriodSaved };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/retention-periods/:id',
    {
      config: { policy: 'retention:manage' },
      schema: routeSchema({
        summary: 'Kembalikan masa retensi ke bawaan grup',
        description:
          'Type 1 only. The company follows the group default again. Step-up when the default is shorter ' +
          'than the company’s own period. Audited (`retention-period-reset`).',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request, reply) => {
      const company = await groupCompany(request, request.params.id);
      await assertStepUpToShorten(request, reply, company.companyId, request.server.config.retentionMonths);
      await storeCall(request, (store) => removePeriod(store, company.companyId));
      audit(request, 'retention-period-reset', { companyId: company.companyId });
      return { message: UI_MESSAGES.retentionPeriodReset };
    },
  );
}
