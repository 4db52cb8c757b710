/** Companies (type 1 manages all; types 3 and 5 read the options of their own partner). */
import { idParams, listQuery, messageReply } from '@wbs/shared/api/common';
import {
  companyListReply,
  companyOptionsReply,
  companyReply,
  companyRequest,
} from '@wbs/shared/api/companies';
import { createdAccountReply } from '@wbs/shared/api/partners';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { seg } from '../../legacy/client.ts';
import { companyOptionSchema, companySchema, ignored } from '../../legacy/schemas.ts';
import { pageReply, paging, tableQuery } from '../../legacy/table.ts';
import { scopeOf } from '../../policies/scope.ts';
import { presentCreatedAccount, withAccountFieldErrors } from '../../presenters/account.ts';
import { createdId, createdRecord, sendCreated } from '../../presenters/created.ts';
import { presentCompany, presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['companies'];
type Body = v.InferOutput<typeof companyRequest>;
type Params = v.InferOutput<typeof idParams>;

const toLegacy = (b: Body) => ({
  username: b.username,
  email: b.email,
  companyName: b.name,
  companyPhone: b.phone,
  companyAddress: b.address,
  provinceId: b.provinceId,
  cityId: b.cityId,
  partnerId: b.partnerId,
});

export default async function companyRoutes(app: FastifyInstance) {
  const policy = 'companies:manage' as const;

  app.get<{ Querystring: v.InferOutput<typeof listQuery> }>(
    '/companies',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Daftar perusahaan',
        tags,
        querystring: listQuery,
        response: { 200: companyListReply },
      }),
    },
    async (request) => {
      const p = paging(request.query);
      const result = await request.legacy.table({
        name: 'CompanyMaster.list',
        method: 'GET',
        path: '/CompanyMaster',
        query: tableQuery(p),
        row: companySchema,
      });
      return pageReply(p, result, presentCompany);
    },
  );

  app.get(
    '/companies/options',
    {
      config: { policy: 'companies:list-own' },
      schema: routeSchema({
        summary: 'Pilihan perusahaan',
        description: 'Type 1: every company; types 3 and 5: the companies of their own partner.',
        tags,
        response: { 200: companyOptionsReply },
      }),
    },
    async (request) => {
      const scope = scopeOf(request);
      // Type 1 holds no partner: partner id 0 lists every company.
      const partnerId = scope.kind === 'partner' ? scope.partnerId : 0;
      const { data } = await request.legacy.call({
        name: 'CompanyMaster.dropdown',
        method: 'GET',
        path: `/CompanyMaster/Dropdown/${seg(partnerId)}`,
        data: v.array(companyOptionSchema),
      });
      return { items: data.map((o) => presentOption(o.companyId, o.companyName)) };
    },
  );

  app.get<{ Params: Params }>(
    '/companies/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Detail perusahaan',
        tags,
        params: idParams,
        response: { 200: companyReply },
      }),
    },
    async (request) => {
      const { data } = await request.legacy.call({
        name: 'CompanyMaster.detail',
        method: 'GET',
        path: `/CompanyMaster/${seg(request.params.id)}`,
        data: companySchema,
      });
      return presentCompany(data);
    },
  );

  app.post<{ Body: Body }>(
    '/companies',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Tambah perusahaan',
        tags,
        body: companyRequest,
        response: { 201: createdAccountReply },
      }),
    },
    async (request, reply) => {
      const { messages, data } = await withAccountFieldErrors(() =>
        request.legacy.call({
          name: 'CompanyMaster.create',
          method: 'POST',
          path: '/CompanyMaster',
          json: toLegacy(request.body),
          data: createdRecord('companyId'),
        }),
      );
      return sendCreated(request, reply, presentCreatedAccount(messages, createdId(data, 'companyId')));
    },
  );

  app.put<{ Params: Params; Body: Body }>(
    '/companies/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ubah perusahaan',
        tags,
        params: idParams,
        body: companyRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const { messages } = await request.legacy.call({
        name: 'CompanyMaster.update',
        method: 'PUT',
        path: '/CompanyMaster',
        json: { ...toLegacy(request.body), companyId: request.params.id },
        data: ignored,
      });
      return { message: messages[0] ?? '' };
    },
  );

  app.delete<{ Params: Params }>(
    '/companies/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Hapus perusahaan',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const { messages } = await request.legacy.call({
        name: 'CompanyMaster.delete',
        method: 'DELETE',
        path: '/CompanyMaster',
        json: { companyId: request.params.id },
        data: ignored,
      });
      return { message: messages[0] ?? '' };
    },
  );
}
