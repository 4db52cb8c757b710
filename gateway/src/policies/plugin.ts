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
 * `stepUp` also need a factor used within the last ten minutes (401 `step-up-required`).
 */
import { type Action, can, type Subject } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from '../errors.ts';
import { audit } from '../logging.ts';
import { decorateRequestOnce } from '../request-once.ts';
import { needsStepUp } from '../second-factor/state.ts';
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
 * Step-up (docs/product/second-factor.md#step-up): throws 401 `step-up-required` when the request's
 * session has a factor that was not used within the last ten minutes. For checks a route can only
 * make once it has read its data (the attachments of an identified report).
 */
export function assertRecentFactor(request: FastifyRequest): void {
  const session = request.session;
  if (session && needsStepUp(session.factor)) {
    audit(request, 'step-up-asked'); // the audit line names the route already
    throw new ApiProblem('step-up-required');
  }
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

    app.addHook('onRequest', async (request) => {
      const { policy, secondFactorStep, stepUp } = request.routeOptions.config;
      if (policy === undefined || policy === 'public') return; // 404 handler, public routes
      const pending = request.secondFactorPending;
      if (pending) {
        // Only the step's own routes see the pending session; the rest treat the request as signed
        // out, and say why when a signed-out visitor could not go on either.
        if (secondFactorStep === pending.factor.s && can(subjectOfUser(pending.user), policy)) return;
        if (can(null, policy)) return;
        throw new ApiProblem('second-factor-required');
      }
      const subject = subjectOf(request);
      if (can(subject, policy)) {
        if (stepUp) assertRecentFactor(request);
        return;
      }
      if (subject === null) throw new ApiProblem('unauthorized');
      audit(request, 'permission-denied', { action: policy });
      throw new ApiProblem('forbidden');
    });
  },
  { name: 'wbs-policy', dependencies: ['wbs-session'] },
);
