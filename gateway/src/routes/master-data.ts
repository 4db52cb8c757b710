/**
 * The one shape of the master-data resources (partners, companies, partner staff, analysts): list,
 * detail, create, update and delete of accounts at the legacy, a reset of the account's second
 * factors by whoever manages it, plus a password reset for staff. Each
 * resource is a definition (its folder's route.ts) fed to `masterRoutes`; what differs between them,
 * and only that, is in the definition: paths, texts, schemas, the legacy repository, the owner the
 * caller's scope gives, the presenter, and for staff what ends the user's sessions.
 */
import { idParams, listQuery, messageReply } from '@wbs/shared/api/common';
import { createdAccountReply } from '@wbs/shared/api/partners';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { Action } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { legacyResetPassword } from '../legacy/accounts.ts';
import type { MasterRepository } from '../legacy/masters.ts';
import { pageReply, paging } from '../legacy/table.ts';
import { audit } from '../logging.ts';
import { outOfScope } from '../policies/scope.ts';
import { presentCreatedAccount, withAccountFieldErrors } from '../presenters/account.ts';
import { routeSchema } from '../schema.ts';
import { resetFactors } from '../second-factor/reset.ts';
import { storeCall } from '../store/plugin.ts';
import { sendCreated } from './created.ts';
import { assertOfferedRole } from './user-roles/offered.ts';

type Params = v.InferOutput<typeof idParams>;

/** A staff account: the legacy user behind a record, and which edits change what that user may do. */
export type StaffAccount<Row, Input> = {
  idOf(row: Row): number;
  /** Whether saving `input` over `row` changes the user's role or case line (its sessions end). */
  changesRights(row: Row, input: Input): boolean;
  roleOf(input: Input): number;
  passwordResetSummary: string;
};

export type MasterDefinition<Row, Input, Owner> = {
  /** The collection under /api/v1, e.g. `/partners`. */
  path: string;
  tag: string;
  policy: Action;
  /** Audit name of a record asked for outside the caller's scope. */
  resource: string;
  summaries: { list: string; detail: string; create: string; update: string; remove: string };
  schemas: {
    request: v.GenericSchema;
    item: v.GenericSchema;
    list: v.GenericSchema;
  };
  repository: MasterRepository<Row, Input, Owner>;
  /** The partner or company the caller manages records of (404 + audit outside it); null: the group. */
  owner(request: FastifyRequest): Owner;
  present(row: Row): unknown;
  /** The legacy user behind a record (its sign-in account). */
  userIdOf(row: Row): number | null | undefined;
  secondFactorResetSummary: string;
  /** Staff accounts only. */
  staff?: StaffAccount<Row, Input>;
};

export function masterRoutes<Row, Input, Owner>(
  app: FastifyInstance,
  def: MasterDefinition<Row, Input, Owner>,
): void {
  const { path, policy, repository } = def;
  const tags = [def.tag];

  /** The record of the caller's owner, else 404 + audit (never telling which). */
  async function ownRecord(request: FastifyRequest, id: number): Promise<Row> {
    const row = await repository.detail(request.legacy, def.owner(request), id);
    if (row === null) throw outOfScope(request.caller, def.resource, id);
    return row;
  }

  app.get<{ Querystring: v.InferOutput<typeof listQuery> }>(
    path,
    {
      config: { policy },
      schema: routeSchema({
        summary: def.summaries.list,
        tags,
        querystring: listQuery,
        response: { 200: def.schemas.list },
      }),
    },
    async (request) => {
      const p = paging(request.query);
      const result = await repository.list(request.legacy, def.owner(request), p);
      return pageReply(p, result, def.present);
    },
  );

  app.get<{ Params: Params }>(
    `${path}/:id`,
    {
      config: { policy },
      schema: routeSchema({
        summary: def.summaries.detail,
        tags,
        params: idParams,
        response: { 200: def.schemas.item },
      }),
    },
    async (request) => def.present(await ownRecord(request, request.params.id)),
  );

  app.post<{ Body: Input }>(
    path,
    {
      config: { policy },
      schema: routeSchema({
        summary: def.summaries.create,
        tags,
        body: def.schemas.request,
        response: { 201: createdAccountReply },
      }),
    },
    async (request, reply) => {
      const owner = def.owner(request);
      const body = request.body as Input;
      if (def.staff) await assertOfferedRole(request, def.staff.roleOf(body));
      const { id, messages } = await withAccountFieldErrors(() =>
        repository.create(request.legacy, owner, body),
      );
      return sendCreated(request, reply, presentCreatedAccount(messages, id));
    },
  );

  app.put<{ Params: Params; Body: Input }>(
    `${path}/:id`,
    {
      config: { policy },
      schema: routeSchema({
        summary: def.summaries.update,
        tags,
        params: idParams,
        body: def.schemas.request,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const owner = def.owner(request);
      const body = request.body as Input;
      const { staff } = def;
      if (!staff) {
        const { messages } = await repository.update(request.legacy, owner, request.params.id, body);
        return { message: messages[0] ?? '' };
      }
      const row = await ownRecord(request, request.params.id);
      await assertOfferedRole(request, staff.roleOf(body));
      const { messages } = await repository.update(request.legacy, owner, staff.idOf(row), body);
      // A new role or line changes what the user may do: their sessions end (claims would be stale).
      if (staff.changesRights(row, body)) {
        await request.server.sessions.endUser(request, def.userIdOf(row), 'role-or-line-changed');
      }
      return { message: messages[0] ?? '' };
    },
  );

  app.delete<{ Params: Params }>(
    `${path}/:id`,
    {
      config: { policy },
      schema: routeSchema({
        summary: def.summaries.remove,
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const owner = def.owner(request);
      const { staff } = def;
      if (!staff) {
        const { messages } = await repository.remove(request.legacy, owner, request.params.id);
        return { message: messages[0] ?? '' };
      }
      const row = await ownRecord(request, request.params.id);
      const { messages } = await repository.remove(request.legacy, owner, staff.idOf(row));
      await request.server.sessions.endUser(request, def.userIdOf(row), 'account-removed');
      return { message: messages[0] ?? '' };
    },
  );

  app.post<{ Params: Params }>(
    `${path}/:id/second-factor-reset`,
    {
      // Whoever manages the record manages its account (type 1: partners and companies; type 2: its
      // analysts; type 3: its partner staff); a fresh second factor first, like every sensitive action.
      config: { policy, stepUp: true },
      schema: routeSchema({
        summary: def.secondFactorResetSummary,
        description:
          'Removes every second factor and recovery code of the account and ends its sessions: the user ' +
          'enrols again at the next sign-in. An audit event.',
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const row = await ownRecord(request, request.params.id);
      const userId = def.userIdOf(row);
      if (!userId) throw outOfScope(request.caller, def.resource, request.params.id);
      const removed = await storeCall(request, (store) => resetFactors(store.db, userId));
      await request.server.sessions.endUser(request, userId, 'second-factor-reset');
      audit(request, 'second-factor-reset', {
        resource: def.resource,
        resourceId: request.params.id,
        targetUserId: userId,
        removed,
      });
      return { message: PROBLEM_MESSAGES.secondFactorReset };
    },
  );

  const { staff } = def;
  if (!staff) return;
  app.post<{ Params: Params }>(
    `${path}/:id/password-reset`,
    {
      config: { policy: 'password:reset-staff' },
      schema: routeSchema({
        summary: staff.passwordResetSummary,
        tags,
        params: idParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      // password:reset-staff admits types 2 and 3; each resource's owner() admits only its own type.
      const row = await ownRecord(request, request.params.id);
      const userId = def.userIdOf(row);
      if (!userId) throw outOfScope(request.caller, def.resource, request.params.id);
      const messages = await legacyResetPassword(request.legacy, userId);
      await request.server.sessions.endUser(request, userId, 'password-reset');
      audit(request, 'password-reset', { resource: def.resource, resourceId: staff.idOf(row) });
      return { message: messages[0] ?? '' };
    },
  );
}
