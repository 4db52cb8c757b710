/** Sign in, who am I, sign out. */
import { loginReply, loginRequest, sessionReply } from '@wbs/shared/api/session';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyLogin, legacyLogout } from '../../legacy/auth.ts';
import { audit } from '../../logging.ts';
import { attemptLimiter } from '../../policies/attempt-limits.ts';
import { presentUser } from '../../presenters/user.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['session'];

export default async function sessionRoutes(app: FastifyInstance) {
  // Staff accounts can read reporters' identities, and the legacy locks no account: guessing a
  // password is limited here, per username and per client.
  const signInAttempts = await attemptLimiter(app, { name: 'sign-in', ...app.config.signIn });

  app.post<{ Body: v.InferOutput<typeof loginRequest> }>(
    '/session',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Masuk (sign in)',
        description:
          'Sets the httpOnly cookie `wbs_session`. With an initial password no session starts: the reply is ' +
          '`{ passwordChangeRequired: true }` and a 10-minute cookie `wbs_pwchange` valid only for PUT /api/v1/password. ' +
          'Attempts are limited per username and per client (429 `rate-limited` with `retry-after`).',
        tags,
        body: loginRequest,
        response: { 200: loginReply },
      }),
    },
    async (request, reply) => {
      const { username, password } = request.body;
      try {
        await signInAttempts.consume(request, reply, username.trim().toLowerCase());
      } catch (error) {
        audit(request, 'sign-in-failed', { reason: 'rate-limited' });
        throw error;
      }
      const login = await legacyLogin(request, username, password);
      const user = presentUser(login.user);
      // A previous session of whoever used this browser ends here.
      if (request.cookies.wbs_session !== undefined) app.sessions.clear(request, reply);
      if (login.user.wbsUserInitPassword === 1) {
        app.sessions.startPasswordChange(request, reply, user, login.token);
        audit(request, 'sign-in-password-change-required', { userId: user.id, userType: user.userTypeId });
        return { passwordChangeRequired: true as const };
      }
      app.sessions.start(request, reply, user, login.token);
      audit(request, 'sign-in');
      return { user };
    },
  );

  app.get(
    '/session',
    {
      config: { policy: 'session:read' },
      schema: routeSchema({ summary: 'Pengguna yang sedang masuk', tags, response: { 200: sessionReply } }),
    },
    async (request) => {
      if (!request.session) throw new ApiProblem('unauthorized');
      return { user: request.session.user };
    },
  );

  app.delete(
    '/session',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Keluar (sign out)',
        description: 'Always clears the cookie, even when the legacy logout fails.',
        tags,
        response: { 204: null },
      }),
    },
    async (request, reply) => {
      const session = request.session;
      if (session) {
        try {
          await legacyLogout(request, session.auth);
        } catch (error) {
          request.log.warn({ problem: (error as ApiProblem).type ?? 'unknown' }, 'legacy logout failed');
        }
        audit(request, 'sign-out');
      }
      app.sessions.clear(request, reply);
      return reply.code(204).send();
    },
  );
}
