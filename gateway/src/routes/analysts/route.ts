/** Analysts (company staff), managed by a company admin (type 2) within its own company only. */
import { idParams, listQuery, messageReply } from '@wbs/shared/api/common';
import { createdAccountReply } from '@wbs/shared/api/partners';
import { analystListReply, analystRequest, analystSchemaOut } from '@wbs/shared/api/staff';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyResetPassword } from '../../legacy/auth.ts';
import { companyStaffSchema, ignored, type LegacyCompanyStaff } from '../../legacy/schemas.ts';
import { pageReply, paging, tableQuery } from '../../legacy/table.ts';
import { audit } from '../../logging.ts';
import { outOfScope, ownCompanyId } from '../../policies/scope.ts';
import { presentCreatedAccount, withAccountFieldErrors } from '../../presenters/account.ts';
import { createdId, createdRecord, sendCreated } from '../../presenters/created.ts';
import { presentAnalyst } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';
import { assertOfferedRole } from '../user-roles/offered.ts';

const tags = ['analysts'];
type Body = v.InferOutput<typeof analystRequest>;
type Params = v.InferOutput<typeof idParams>;

/** The analyst, only when it belongs to the caller's company (else 404 + audit). */
async function ownAnalyst(request: FastifyRequest, id: number): Promise<LegacyCompanyStaff> {
  const companyId = ownCompanyId(request);
  try {
    const { data } = await request.legacy.call({
      name: 'CompanyStaffMaster.detail',
      method: 'POST',
      path: '/CompanyStaffMaster/detail',
      json: { companyStaffId: id, companyId },
      data: companyStaffSchema,
    });
    if (data.companyStaffId === id && data.companyStaffCompanyId === companyId) return data;
  } catch (error) {
    const missing = ['not-found', 'legacy-error', 'legacy-warning'];
    if (!(error instanceof ApiProblem) || !missing.includes(error.type)) throw error;
  }
  throw outOfScope(request, 'analyst', id);
}

export default async function analystRoutes(app: FastifyInstance) {
  const policy = 'analysts:manage' as const;

  app.get<{ Querystring: v.InferOutput<typeof listQuery> }>(
    '/analysts',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Daftar analis',
        tags,
        querystring: listQuery,
        response: { 200: analystListReply },
      }),
    },
    async (request) => {
      const p = paging(request.query);
      const result = await request.legacy.table({
        name: 'CompanyStaffMaster.list',
        method: 'POST',
        path: '/CompanyStaffMaster/GetAll',
        query: tableQuery(p),
        json: { companyId: ownCompanyId(request) },
        row: companyStaffSchema,
      });
      return pageReply(p, result, presentAnalyst);
    },
  );

  app.get<{ Params: Params }>(
    '/analysts/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Detail analis',
        tags,
        params: idParams,
        response: { 200: analystSchemaOut },
      }),
    },
    async (request) => presentAnalyst(await ownAnalyst(request, request.params.id)),
  );

  app.post<{ Body: Body }>(
    '/analysts',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Tambah analis',
        tags,
        body: analystRequest,
        response: { 201: createdAccountReply },
      }),
    },
    async (request, reply) => {
      const { fullName, username, email, roleId, caseLineId } = request.body;
      await assertOfferedRole(request, roleId);
      const { messages, data } = await withAccountFieldErrors(() =>
        request.legacy.call({
          name: 'CompanyStaffMaster.create',
          method: 'POST',
          path: '/CompanyStaffMaster',
          json: { fullName, username, email, roleId, caseLineId, companyId: ownCompanyId(request) },
          data: createdRecord('companyStaffId'),
        }),
      );
      return sendCreated(request, reply, presentCreatedAccount(messages, createdId(data, 'companyStaffId')));
    },
  );

  app.put<{ Params: Params; Body: Body }>(
    '/analysts/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Ubah analis',
        tags,
        params: idParams,
        body: analystRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const analyst = await ownAnalyst(request, request.params.id);
      const { fullName, username, email, roleId, caseLineId } = request.body;
      await assertOfferedRole(request, roleId);
      const { messages } = await request.legacy.call({
        name: 'CompanyStaffMaster.update',
        method: 'PUT',
        path: '/CompanyStaffMaster',
        json: {
          companyStaffId: analyst.companyStaffId,
          fullName,
          username,
          email,
          roleId,
          caseLineId,
          companyId: ownCompanyId(request),
        },
        data: ignored,
      });
      // A new role or line changes what the user may do: their sessions end (claims would be stale).
      if (
        roleId !== analyst.companyStaffWbsUser?.wbsUserRole ||
        caseLineId !== analyst.companyStaffCaseLineId
      ) {
        await request.server.sessions.endUser(
          request,
          analyst.companyStaffWbsUser?.wbsUserId,
          'role-or-line-changed',
        );
      }
      return { message: messages[0] ?? '' };
    },
  );

  app.delete<{ Params: Params }>(
    '/analysts/:id',
    {
      config: { policy },
      schema: routeSchema({
        summary: 'Hapus analis',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const analyst = await ownAnalyst(request, request.params.id);
      const { messages } = await request.legacy.call({
        name: 'CompanyStaffMaster.delete',
        method: 'DELETE',
        path: '/CompanyStaffMaster',
        json: { companyStaffId: analyst.companyStaffId, companyId: ownCompanyId(request) },
        data: ignored,
      });
      await request.server.sessions.endUser(
        request,
        analyst.companyStaffWbsUser?.wbsUserId,
        'account-removed',
      );
      return { message: messages[0] ?? '' };
    },
  );

  app.post<{ Params: Params }>(
    '/analysts/:id/password-reset',
    {
      config: { policy: 'password:reset-staff' },
      schema: routeSchema({
        summary: 'Reset kata sandi analis',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      // password:reset-staff admits types 2 and 3; analysts belong to type 2 only (ownCompanyId → 403).
      const analyst = await ownAnalyst(request, request.params.id);
      const userId = analyst.companyStaffWbsUser?.wbsUserId;
      if (!userId) throw outOfScope(request, 'analyst', request.params.id);
      const messages = await legacyResetPassword(request, userId);
      await request.server.sessions.endUser(request, userId, 'password-reset');
      audit(request, 'password-reset', { resource: 'analyst', resourceId: analyst.companyStaffId });
      return { message: messages[0] ?? '' };
    },
  );
}
