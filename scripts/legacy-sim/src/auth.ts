/**
 * Bearer-token authentication like the legacy's: a signed HS256 JWT (sub = wbsUserId, userTypeId,
 * jti, exp). It trusts the identity in the token and enforces NO role or scope rules.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from './context.ts';
import { unauthorized } from './envelope.ts';
import type { User } from './types.ts';

type Claims = { sub?: string; userTypeId?: number; jti?: string };

export function signToken(app: FastifyInstance, user: User): string {
  return app.jwt.sign(
    { sub: String(user.wbsUserId), userTypeId: user.wbsUserUserTypeId, jti: randomUUID() },
    { algorithm: 'HS256' },
  );
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export function registerAuth(app: FastifyInstance, ctx: Ctx): void {
  app.decorateRequest('wbsUser', null);
  app.decorateRequest('tokenJti', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.toLowerCase().startsWith('/api/')) return;
    const token = bearer(request);
    if (token) {
      try {
        const claims = app.jwt.verify<Claims>(token, { algorithms: ['HS256'] });
        const user = ctx.store.users.get(Number(claims.sub));
        if (user && claims.jti && !ctx.revoked.has(claims.jti)) {
          request.wbsUser = user;
          request.tokenJti = claims.jti;
        }
      } catch {
        // invalid, expired or foreign token: treated as absent
      }
    }
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (config?.public) return;
    if (!request.wbsUser) return unauthorized(reply);
    if (request.wbsUser.wbsUserInitPassword === 1 && !config?.initAllowed) return unauthorized(reply);
  });
}
