/** Partners (type 1 only). */
import { idParams, listQuery, messageReply } from '@wbs/shared/api/common';
import {
  createdAccountReply,
  partnerListReply,
  partnerOptionsReply,
  partnerReply,
  partnerRequest,
} from '@wbs/shared/api/partners';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { seg } from '../../legacy/client.ts';
import { ignored, partnerOptionSchema, partnerSchema } from '../../legacy/schemas.ts';
import { pageReply, paging, tableQuery } from '../../legacy/table.ts';
import { presentCreatedAccount, withAccountFieldErrors } from '../../presenters/account.ts';
import { createdId, createdRecord, sendCreated } from '../../presenters/created.ts';
import { presentOption, presentPartner } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['partners'];
type Body = v.InferOutput<typeof partnerRequest>;
type Params = v.InferOutput<typeof idParams>;

const toLegacy = (b: Body) => ({
  username: b.username,
  email: b.email,
  partnerName: b.name,
  partnerPhone: b.phone,
  partnerAddress: b.address,
  provinceId: b.provinceId,
  cityId: b.cityId,
});

export default async function partnerRoutes(app: FastifyInstance) {
  const policy = 'partners:manage' as const;

  app.get<{ Querystring: v.InferOutput<typeof listQuery> }>(
    '/partners',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Daftar partner',
        tags,
        querystring: listQuery,
        response: { 200: partnerListReply },
      }),
    },
    async (request) => {
      const p = paging(request.query);
      const result = await request.legacy.table({
        name: 'PartnerMaster.list',
        method: 'GET',
        path: '/PartnerMaster',
        query: tableQuery(p),
        row: partnerSchema,
      });
      return pageReply(p, result, presentPartner);
    },
  );

  app.get(
    '/partners/options',
    {
      config: { policy },
      schema: routeSchema({ summary: 'Pilihan partner', tags, response: { 200: partnerOptionsReply } }),
    },
    async (request) => {
      const { data } = await request.legacy.call({
        name: 'PartnerMaster.dropdown',
        method: 'GET',
        path: '/PartnerMaster/Dropdown',
        data: v.array(partnerOptionSchema),
      });
      return { items: data.map((o) => presentOption(o.partnerId, o.partnerName)) };
    },
  );

  app.get<{ Params: Params }>(
    '/partners/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Detail partner',
        tags,
        params: idParams,
        response: { 200: partnerReply },
      }),
    },
    async (request) => {
      const { data } = await request.legacy.call({
        name: 'PartnerMaster.detail',
        method: 'GET',
        path: `/PartnerMaster/${seg(request.params.id)}`,
        data: partnerSchema,
      });
      return presentPartner(data);
    },
  );

  app.post<{ Body: Body }>(
    '/partners',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Tambah partner',
        tags,
        body: partnerRequest,
        response: { 201: createdAccountReply },
      }),
    },
    async (request, reply) => {
      const { messages, data } = await withAccountFieldErrors(() =>
        request.legacy.call({
          name: 'PartnerMaster.create',
          method: 'POST',
          path: '/PartnerMaster',
          json: toLegacy(request.body),
          data: createdRecord('partnerId'),
        }),
      );
      return sendCreated(request, reply, presentCreatedAccount(messages, createdId(data, 'partnerId')));
    },
  );

  app.put<{ Params: Params; Body: Body }>(
    '/partners/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ubah partner',
        tags,
        params: idParams,
        body: partnerRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const { messages } = await request.legacy.call({
        name: 'PartnerMaster.update',
        method: 'PUT',
        path: '/PartnerMaster',
        json: { ...toLegacy(request.body), partnerId: request.params.id },
        data: ignored,
      });
      return { message: messages[0] ?? '' };
    },
  );

  app.delete<{ Params: Params }>(
    '/partners/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Hapus partner',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const { messages } = await request.legacy.call({
        name: 'PartnerMaster.delete',
        method: 'DELETE',
        path: '/PartnerMaster',
        json: { partnerId: request.params.id },
        data: ignored,
      });
      return { message: messages[0] ?? '' };
    },
  );
}
