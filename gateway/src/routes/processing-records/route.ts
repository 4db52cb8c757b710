/**
 * The records of processing (Catatan Pemrosesan Data): generated from the running configuration and
 * the permission matrix on every read (retention/records.ts), so they stay true. Type 1 only.
 */
import { processingRecordsReply } from '@wbs/shared/api/retention';
import type { FastifyInstance } from 'fastify';
import { companyOptions } from '../../legacy/masters.ts';
import { processingRecords } from '../../retention/records.ts';
import { ownPeriods } from '../../retention/store.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';

export default async function processingRecordRoutes(app: FastifyInstance) {
  app.get(
    '/processing-records',
    {
      config: { policy: 'processing-records:read' },
      schema: routeSchema({
        summary: 'Catatan pemrosesan data pribadi',
        description:
          'Type 1 only. The records of processing (UU 27/2022 article 31), generated from the running ' +
          'configuration: retention periods, store engine, mail, second-factor policy and the permission ' +
          'matrix. All texts Indonesian.',
        tags: ['processing-records'],
        response: { 200: processingRecordsReply },
      }),
    },
    async (request) => {
      const { config, mailer } = request.server;
      const [companies, own, engine] = await Promise.all([
        companyOptions(request.legacy, 0),
        storeCall(request, (store) => ownPeriods(store)),
        storeCall(request, async (store) => store.engine),
      ]);
      const names = new Map(companies.map((c) => [c.companyId, c.companyName]));
      return processingRecords({
        now: new Date(),
        defaultMonths: config.retentionMonths,
        ownPeriods: [...own].map(([companyId, months]) => ({
          companyName: names.get(companyId) ?? `Perusahaan ${companyId}`,
          months,
        })),
        storeEngine: engine,
        mailOn: mailer.configured,
        secondFactorTypes: config.secondFactorTypes,
      });
    },
  );
}
