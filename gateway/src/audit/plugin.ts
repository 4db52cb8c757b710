/**
 * Hooks the store's audit trail onto `audit()` (logging.ts), the one place the gateway already names
 * what a user did: every such event of a signed-in staff user (types 1–5) is appended as a
 * hash-chained record, and every successful master-data change (create, update, delete of partners,
 * companies, statuses, categories, staff) is recorded here once, without touching each route.
 *
 * Kept out (reporter protection): events of a reporter's route (filing, tracking, the reporter's own
 * history or profile) even when a staff user happens to be signed in, and every event of a signed-in
 * reporter (type 6): a record tying a user to a case they filed would name the reporter. Fields keep
 * only short scalar values under keys that are not secrets or identity (logging.ts REDACTED_KEYS).
 *
 * Appends of parallel requests are grouped into one chain transaction (group commit, store.ts).
 *
 * Failure (docs/adr/0032-hash-chained-audit-trail.md): the reply waits for the record. When it cannot be
 * written, a reply
 * that would disclose case data (case read or list, download, export, messages, contact reveal) is
 * withheld: 503 `store-unavailable` (fail closed, nothing leaves unrecorded). Changes the legacy has
 * already made are answered as they are (refusing would hide a done change from its author); the
 * missed record goes to the ops log at error level with the event.
 */
import type { Action } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from '../errors.ts';
import { REDACTED_KEYS } from '../logging.ts';
import type { StoreDb } from '../store/database.ts';
import type { AuditActor } from './chain.ts';
import { AuditAppender } from './store.ts';

/** Routes of the reporter's side: nothing a user does there enters the trail. */
const REPORTER_POLICIES = new Set<string>([
  'cases:create',
  'tracking:use',
  'identity-access:read-own',
  'profile:manage',
] satisfies Action[]);

const MASTER_DATA_POLICIES = new Set<string>([
  'partners:manage',
  'companies:manage',
  'case-statuses:manage',
  'case-categories:manage',
  'partner-staff:manage',
  'analysts:manage',
  'handling-deadlines:manage',
] satisfies Action[]);

/** Events whose reply carries case data: withheld when their record cannot be written. */
const DISCLOSING_EVENTS = new Set([
  'case-read',
  'case-list-read',
  'download',
  'export',
  'messages-read',
  'contact-revealed',
  'audit-trail-exported',
]);

const STAFF_TYPES = new Set([1, 2, 3, 4, 5]);
const MAX_FIELD_CHARS = 100;
const REDACTED = new Set(REDACTED_KEYS);

type Pending = { event: string; write: Promise<unknown> };

declare module 'fastify' {
  interface FastifyInstance {
    auditTrail: { record(request: FastifyRequest, event: string, fields: Record<string, unknown>): void };
  }
  interface FastifyRequest {
    auditWrites: Pending[] | null;
  }
}

function staffActor(request: FastifyRequest): AuditActor | null {
  // A session at its second-factor step is the same person: its attempts belong in the trail too.
  const user = (request.session ?? request.secondFactorPending)?.user;
  if (!user || !STAFF_TYPES.has(user.userTypeId)) return null;
  return {
    userId: user.id,
    userType: user.userTypeId,
    role: user.role,
    companyId: user.companyId,
    partnerId: user.partnerId,
  };
}

/** Short scalars only: no free text, nothing under a secret or identity key. */
export function safeFields(
  fields: Record<string, unknown>,
): Record<string, string | number | boolean | null> {
  const kept: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (REDACTED.has(key)) continue;
    if (value === null || typeof value === 'boolean') kept[key] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
    else if (typeof value === 'string' && value.length <= MAX_FIELD_CHARS) kept[key] = value;
  }
  return kept;
}

function withheld(reply: FastifyReply, payload: unknown): string {
  if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') {
    (payload as { destroy(): void }).destroy();
  }
  const problem = new ApiProblem('store-unavailable');
  reply.code(problem.status);
  reply.removeHeader('content-disposition');
  reply.removeHeader('content-length');
  reply.header('content-type', 'application/problem+json; charset=utf-8');
  return JSON.stringify(problem.toJSON());
}

export const auditTrailPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auditWrites', null);
    // One appender per opened database (the store opens one per app).
    const appenders = new WeakMap<StoreDb, AuditAppender>();
    const appenderOf = (db: StoreDb) => {
      let appender = appenders.get(db);
      if (!appender) {
        appender = new AuditAppender(db);
        appenders.set(db, appender);
      }
      return appender;
    };
    app.decorate('auditTrail', {
      record(request, event, fields) {
        const policy = request.routeOptions.config?.policy;
        if (policy && REPORTER_POLICIES.has(policy)) return;
        const actor = staffActor(request);
        if (!actor) return;
        const write = app.store.open().then((store) =>
          appenderOf(store.db).append({
            event,
            actor,
            method: request.method,
            route: request.routeOptions.url ?? null,
            fields: safeFields(fields),
          }),
        );
        // Awaited in onSend; never an unhandled rejection meanwhile.
        write.catch(() => {});
        request.auditWrites ??= [];
        request.auditWrites.push({ event, write });
      },
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const policy = request.routeOptions.config?.policy;
      if (policy && MASTER_DATA_POLICIES.has(policy) && request.method !== 'GET' && reply.statusCode < 300) {
        const id = (request.params as { id?: unknown } | undefined)?.id;
        app.auditTrail.record(request, 'master-data-changed', {
          action: policy,
          resourceId: typeof id === 'string' || typeof id === 'number' ? Number(id) : null,
        });
      }
      const pending = request.auditWrites;
      if (!pending) return payload;
      request.auditWrites = null;
      let refuse = false;
      for (const { event, write } of pending) {
        try {
          await write;
        } catch (error) {
          request.log.error(
            { err: { message: (error as Error).message }, event, auditStoreFailed: true },
            'audit record could not be stored',
          );
          if (DISCLOSING_EVENTS.has(event) && reply.statusCode < 400) refuse = true;
        }
      }
      return refuse ? withheld(reply, payload) : payload;
    });
  },
  { name: 'wbs-audit-trail', dependencies: ['wbs-store', 'wbs-session'] },
);
