/**
 * The one place saying who may do what. Every route declares `config: { policy }`: an action of the
 * shared permission matrix (`shared/src/permissions.ts`) or `'public'` (sign-in, sign-out, forgot
 * password, health, docs, static files). The hook runs before validation: signed out and not allowed →
 * 401; signed in and not allowed → 403 `forbidden` (+ audit line). A route under /api/ without a
 * policy is a programming error and stops the app from starting.
 */
import { type Action, can, type Subject } from '@wbs/shared/permissions';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from '../errors.ts';
import { audit } from '../logging.ts';
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
  }
}

export type RegisteredRoute = { method: string; url: string; policy: Policy };

export function subjectOf(request: FastifyRequest): Subject {
  const user = request.session?.user ?? request.passwordChange?.user;
  return user ? { userTypeId: user.userTypeId as 1 | 2 | 3 | 4 | 5 | 6, role: user.role } : null;
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
    const callers = new WeakMap<FastifyRequest, Caller>();
    app.decorateRequest('caller', {
      getter(this: FastifyRequest) {
        let caller = callers.get(this);
        if (!caller) {
          const request = this;
          const user = request.session?.user ?? null;
          caller = {
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
          callers.set(this, caller);
        }
        return caller;
      },
    });

    app.addHook('onRequest', async (request) => {
      const policy = request.routeOptions.config.policy;
      if (policy === undefined || policy === 'public') return; // 404 handler, public routes
      const subject = subjectOf(request);
      if (can(subject, policy)) return;
      if (subject === null) throw new ApiProblem('unauthorized');
      audit(request, 'permission-denied', { action: policy });
      throw new ApiProblem('forbidden');
    });
  },
  { name: 'wbs-policy', dependencies: ['wbs-session'] },
);
