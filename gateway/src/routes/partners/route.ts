/** Partners (type 1 only). */
import {
  partnerListReply,
  partnerOptionsReply,
  partnerReply,
  partnerRequest,
} from '@wbs/shared/api/partners';
import type { FastifyInstance } from 'fastify';
import { partnerOptions, partners } from '../../legacy/masters.ts';
import { presentOption, presentPartner } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';
import { masterRoutes } from '../master-data.ts';

export default async function partnerRoutes(app: FastifyInstance) {
  const policy = 'partners:manage' as const;

  app.get(
    '/partners/options',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Pilihan partner',
        tags: ['partners'],
        response: { 200: partnerOptionsReply },
      }),
    },
    async (request) => ({
      items: (await partnerOptions(request.legacy)).map((o) => presentOption(o.partnerId, o.partnerName)),
    }),
  );

  masterRoutes(app, {
    path: '/partners',
    tag: 'partners',
    policy,
    resource: 'partner',
    summaries: {
      list: 'Daftar partner',
      detail: 'Detail partner',
      create: 'Tambah partner',
      update: 'Ubah partner',
      remove: 'Hapus partner',
    },
    schemas: { request: partnerRequest, item: partnerReply, list: partnerListReply },
    repository: partners,
    userIdOf: (row) => row.partnerWbsUser?.wbsUserId,
    secondFactorResetSummary: 'Reset faktor kedua akun partner',
    owner: () => null,
    present: presentPartner,
  });
}
