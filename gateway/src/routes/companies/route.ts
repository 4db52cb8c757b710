/** Companies (type 1 manages all; types 3 and 5 read the options of their own partner). */
import {
  companyListReply,
  companyOptionsReply,
  companyReply,
  companyRequest,
} from '@wbs/shared/api/companies';
import type { FastifyInstance } from 'fastify';
import { companies, companyOptions } from '../../legacy/masters.ts';
import { scopeOf } from '../../policies/scope.ts';
import { presentCompany, presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';
import { masterRoutes } from '../master-data.ts';

export default async function companyRoutes(app: FastifyInstance) {
  app.get(
    '/companies/options',
    {
      config: { policy: 'companies:list-own' },
      schema: routeSchema({
        summary: 'Pilihan perusahaan',
        description: 'Type 1: every company; types 3 and 5: the companies of their own partner.',
        tags: ['companies'],
        response: { 200: companyOptionsReply },
      }),
    },
    async (request) => {
      const scope = scopeOf(request.caller);
      // Type 1 holds no partner: partner id 0 lists every company.
      const partnerId = scope.kind === 'partner' ? scope.partnerId : 0;
      const options = await companyOptions(request.legacy, partnerId);
      return { items: options.map((o) => presentOption(o.companyId, o.companyName)) };
    },
  );

  masterRoutes(app, {
    path: '/companies',
    tag: 'companies',
    policy: 'companies:manage',
    resource: 'company',
    summaries: {
      list: 'Daftar perusahaan',
      detail: 'Detail perusahaan',
      create: 'Tambah perusahaan',
      update: 'Ubah perusahaan',
      remove: 'Hapus perusahaan',
    },
    schemas: { request: companyRequest, item: companyReply, list: companyListReply },
    repository: companies,
    userIdOf: (row) => row.companyWbsUser?.wbsUserId,
    secondFactorResetSummary: 'Reset faktor kedua akun perusahaan',
    owner: () => null,
    present: presentCompany,
  });
}
