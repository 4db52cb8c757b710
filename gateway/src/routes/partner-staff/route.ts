/** Partner staff, managed by a partner user (type 3) within its own partner only. */
import { idParams, listQuery, messageReply } from '@wbs/shared/api/common';
import { createdAccountReply } from '@wbs/shared/api/partners';
import { partnerStaffListReply, partnerStaffRequest, partnerStaffSchemaOut } from '@wbs/shared/api/staff';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyResetPassword } from '../../legacy/auth.ts';
import { seg } from '../../legacy/client.ts';
import { ignored, type LegacyPartnerStaff, partnerStaffSchema } from '../../legacy/schemas.ts';
import { pageReply, paging, tableQuery } from '../../legacy/table.ts';
import { audit } from '../../logging.ts';
import { outOfScope, ownPartnerId } from '../../policies/scope.ts';
import { presentCreatedAccount, withAccountFieldErrors } from '../../presenters/account.ts';
import { createdId, createdRecord, sendCreated } from '../../presenters/created.ts';
import { presentPartnerStaff } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';
import { assertOfferedRole } from '../user-roles/offered.ts';

const tags = ['partner-staff'];
type Body = v.InferOutput<typeof partnerStaffRequest>;
type Params = v.InferOutput<typeof idParams>;

/** The staff member, only when it belongs to the caller's partner (else 404 + audit). */
async function ownStaff(request: FastifyRequest, id: number): Promise<LegacyPartnerStaff> {
  const partnerId = ownPartnerId(request);
  try {
    const { data } = await request.legacy.call({
      name: 'PartnerStaffMaster.detail',
      method: 'POST',
      path: '/PartnerStaffMaster/Detail',
      json: { partnerStaffId: id, partnerId },
      data: partnerStaffSchema,
    });
    if (data.partnerStaffId === id && data.partnerStaffPartnerId === partnerId) return data;
  } catch (error) {
    const missing = ['not-found', 'legacy-error', 'legacy-warning'];
    if (!(error instanceof ApiProblem) || !missing.includes(error.type)) throw error;
  }
  throw outOfScope(request, 'partner-staff', id);
}

export default async function partnerStaffRoutes(app: FastifyInstance) {
  const policy = 'partner-staff:manage' as const;

  app.get<{ Querystring: v.InferOutput<typeof listQuery> }>(
    '/partner-staff',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Daftar staff partner',
        tags,
        querystring: listQuery,
        response: { 200: partnerStaffListReply },
      }),
    },
    async (request) => {
      const p = paging(request.query);
      const result = await request.legacy.table({
        name: 'PartnerStaffMaster.list',
        method: 'GET',
        path: `/PartnerStaffMaster/${seg(ownPartnerId(request))}`,
        query: tableQuery(p),
        row: partnerStaffSchema,
      });
      return pageReply(p, result, presentPartnerStaff);
    },
  );

  app.get<{ Params: Params }>(
    '/partner-staff/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Detail staff partner',
        tags,
        params: idParams,
        response: { 200: partnerStaffSchemaOut },
      }),
    },
    async (request) => presentPartnerStaff(await ownStaff(request, request.params.id)),
  );

  app.post<{ Body: Body }>(
    '/partner-staff',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Tambah staff partner',
        tags,
        body: partnerStaffRequest,
        response: { 201: createdAccountReply },
      }),
    },
    async (request, reply) => {
      const { fullName, username, email, roleId } = request.body;
      await assertOfferedRole(request, roleId);
      const { messages, data } = await withAccountFieldErrors(() =>
        request.legacy.call({
          name: 'PartnerStaffMaster.create',
          method: 'POST',
          path: '/PartnerStaffMaster',
          json: { fullName, username, email, roleId, partnerId: ownPartnerId(request) },
          data: createdRecord('partnerStaffId'),
        }),
      );
      return sendCreated(request, reply, presentCreatedAccount(messages, createdId(data, 'partnerStaffId')));
    },
  );

  app.put<{ Params: Params; Body: Body }>(
    '/partner-staff/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ubah staff partner',
        tags,
        params: idParams,
        body: partnerStaffRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const staff = await ownStaff(request, request.params.id);
      const { fullName, username, email, roleId } = request.body;
      await assertOfferedRole(request, roleId);
      const { messages } = await request.legacy.call({
        name: 'PartnerStaffMaster.update',
        method: 'PUT',
        path: '/PartnerStaffMaster',
        json: {
          partnerStaffId: staff.partnerStaffId,
          fullName,
          username,
          email,
          roleId,
          partnerId: ownPartnerId(request),
        },
        data: ignored,
      });
      // A new role or line changes what the user may do: their sessions end (claims would be stale).
      if (roleId !== staff.partnerStaffWbsUser?.wbsUserRole) {
        await request.server.sessions.endUser(
          request,
          staff.partnerStaffWbsUser?.wbsUserId,
          'role-or-line-changed',
        );
      }
      return { message: messages[0] ?? '' };
    },
  );

  app.delete<{ Params: Params }>(
    '/partner-staff/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Hapus staff partner',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const staff = await ownStaff(request, request.params.id);
      const { messages } = await request.legacy.call({
        name: 'PartnerStaffMaster.delete',
        method: 'DELETE',
        path: '/PartnerStaffMaster',
        json: { partnerStaffId: staff.partnerStaffId, partnerId: ownPartnerId(request) },
        data: ignored,
      });
      await request.server.sessions.endUser(request, staff.partnerStaffWbsUser?.wbsUserId, 'account-removed');
      return { message: messages[0] ?? '' };
    },
  );

  app.post<{ Params: Params }>(
    '/partner-staff/:id/password-reset',
    {
      config: { policy: 'password:reset-staff' },
      schema: routeSchema({
        summary: 'Reset kata sandi staff partner',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      // password:reset-staff admits types 2 and 3; partner staff belong to type 3 only.
      const staff = await ownStaff(request, request.params.id);
      const userId = staff.partnerStaffWbsUser?.wbsUserId;
      if (!userId) throw outOfScope(request, 'partner-staff', request.params.id);
      const messages = await legacyResetPassword(request, userId);
      await request.server.sessions.endUser(request, userId, 'password-reset');
      audit(request, 'password-reset', { resource: 'partner-staff', resourceId: staff.partnerStaffId });
      return { message: messages[0] ?? '' };
    },
  );
}
