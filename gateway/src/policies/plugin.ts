/**
 * The one place saying who may do what. Every route declares `config: { policy }`: an action of the
 * shared permission matrix (`shared/src/permissions.ts`) or `'public'` (sign-in, sign-out, forgot
 * password, health, docs, static files). The hook runs before validation: signed out and not allowed →
 * 401; signed in and not allowed → 403 `forbidden` (+ audit line). A route under /api/ without a
 * policy is a programming error and stops the app from starting.
 *
 * The second factor (docs/product/second-factor.md): a session whose second-factor step is pending
 * reaches only the routes declaring that step (`secondFactorStep: 'verify' | 'enrol'`); anything else
 * that is not open to a signed-out visitor answers 401 `second-factor-required`. Routes declaring
 * `stepUp` also need a factor used within the last ten minutes (401 `step-up-required`) when the
 * account has one: the store says whether it has, never the methods the session's cookie listed
 * (docs/adr/0073-step-up-decided-from-the-store.md).
 */
import { type Action, can, type Subject } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from '../errors.ts';
import { audit } from '../logging.ts';
import { decorateRequestOnce } from '../request-once.ts';
import { accountOf } from '../second-factor/plugin.ts';
import { claimAfterPassword, factorIsRecent, needsStepUp } from '../second-factor/state.ts';
import { methodsOf, summaryOf } from '../second-factor/store.ts';
import type { Session } from '../session/plugin.ts';
import { storeCall } from '../store/plugin.ts';
import { type Caller, scopeOfUser } from './caller.ts';
import { partnerCompanyCache } from './scope.ts';

export type Policy = Action | 'public';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking, for the policies and domain functions (policies/caller.ts); made on first use. */
    caller: Caller;
  }
  interface FastifyContextConfig {
    policy?: Policy;
    /** The route also accepts the forced-password-change ticket (PUT /api/v1/password only). */
    passwordChange?: boolean;
    /** The route also serves a session whose second-factor step is pending in this state. */
    secondFactorStep?: 'verify' | 'enrol';
    /** The action needs a second factor used within the last ten minutes (when the user has one). */
    stepUp?: boolean;
  }
}

export type RegisteredRoute = { method: string; url: string; policy: Policy };

export function subjectOf(request: FastifyRequest): Subject {
  const user = request.session?.user ?? request.passwordChange?.user;
  return user ? { userTypeId: user.userTypeId as 1 | 2 | 3 | 4 | 5 | 6, role: user.role } : null;
}

const subjectOfUser = (user: { userTypeId: number; role: number | null }): Subject => ({
  userTypeId: user.userTypeId as 1 | 2 | 3 | 4 | 5 | 6,
  role: user.role,
});

/**
 * Step-up (docs/product/second-factor.md#step-up): throws 401 `step-up-required` when the account of
 * the request's session has a factor (as the store says now) that this session did not use within the
 * last ten minutes. A session that used one recently costs no query. Also for checks a route can only
 * make once it has read its data (the attachments of an identified report).
 */
export async function assertRecentFactor(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = request.session;
  if (!session || factorIsRecent(session.factor)) return;
  const methods = await storeCall(request, (store) => methodsOf(store.db, accountOf(session.user)));
  if (!needsStepUp(methods, session.factor)) return;
  // The prompt offers what the account has now (a factor added in another browser), not what the
  // cookie listed when this session signed in.
  if (methods.join() !== session.factor.m.join()) {
    request.server.sessions.setFactor(request, reply, { ...session.factor, m: methods });
  }
  audit(request, 'step-up-asked'); // the audit line names the route already
  throw new ApiProblem('step-up-required');
}

/**
 * A session at its enrolment step adds the account's first factor without a prompt: there is none to
 * give. Once the account has one (enrolled meanwhile in another session), this session must give it
 * like any other: it moves to the verify step (401 `second-factor-required`, the web app shows it).
 */
async function assertStillFirstFactor(request: FastifyRequest, reply: FastifyReply, session: Session) {
  const summary = await storeCall(request, (store) => summaryOf(store.db, accountOf(session.user)));
  if (summary.methods.length === 0) return;
  request.server.sessions.setFactor(request, reply, claimAfterPassword(summary, true));
  audit(request, 'second-factor-enrolment-closed');
  throw new ApiProblem('second-factor-required');
}

export const policyPlugin = fp(
  async (app: FastifyInstance, opts: { onRoute?: (route: RegisteredRoute) => void }) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const config = (route.config ?? {}) as { policy?: Policy };
      if (!config.policy) {
        if (route.url.startsWith('/api/v1')) {
          throw new Error(`route ${String(route.method)} ${route.url} declares no policy`);
        }
        // Plugin-owned routes outside the API (static files, docs UI) are public by nature.
        route.config = { ...config, policy: 'public' };
      }
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        opts.onRoute?.({ method, url: route.url, policy: (route.config as { policy: Policy }).policy });
      }
    });

    const partnerCompanies = partnerCompanyCache();
    decorateRequestOnce(app, 'caller', (request): Caller => {
      const user = request.session?.user ?? null;
      return {
        legacy: request.legacy,
        user,
        scope: scopeOfUser(user),
        log: request.log,
        denied(resource, id) {
          audit(request, 'scope-denied', { resource, resourceId: id });
          return new ApiProblem('not-found');
        },
        partnerCompanies,
      };
    });

    app.addHook('onRequest', async (request, reply) => {
      const { policy, secondFactorStep, stepUp } = request.routeOptions.config;
      if (policy === undefined || policy === 'public') return; // 404 handler, public routes
      const pending = request.secondFactorPending;
      if (pending) {
        // Only the step's own routes see the pending session; the rest treat the request as signed
        // out, and say why when a signed-out visitor could not go on either.
        if (secondFactorStep === pending.factor.s && can(subjectOfUser(pending.user), policy)) {
          if (stepUp && pending.factor.s === 'enrol') await assertStillFirstFactor(request, reply, pending);
          return;
        }
        if (can(null, policy)) return;
        throw new ApiProblem('second-factor-required');
      }
      const subject = subjectOf(request);
      if (can(subject, policy)) {
        if (stepUp) await assertRecentFactor(request, reply);
        return;
      }
      if (subject === null) throw new ApiProblem('unauthorized');
      audit(request, 'permission-denied', { action: policy });
      throw new ApiProblem('forbidden');
    });
  },
  { name: 'wbs-policy', dependencies: ['wbs-session'] },
);
