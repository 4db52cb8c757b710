/** Change the password (normal or forced) and forgot-password. */
import { messageReply } from '@wbs/shared/api/common';
import { changePasswordReply, changePasswordRequest, forgotPasswordRequest } from '@wbs/shared/api/password';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyChangePassword, legacyForgotPassword, legacyLogin } from '../../legacy/auth.ts';
import { audit } from '../../logging.ts';
import { attemptLimiter } from '../../policies/attempt-limits.ts';
import { presentUser } from '../../presenters/user.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['password'];

export default async function passwordRoutes(app: FastifyInstance) {
  // Each request may send a reset mail: limited per e-mail and per client, like sign-in.
  const forgotAttempts = await attemptLimiter(app, { name: 'password-forgot', ...app.config.signIn });

  app.put<{ Body: v.InferOutput<typeof changePasswordRequest> }>(
    '/password',
    {
      config: { policy: 'password:change', passwordChange: true },
      schema: routeSchema({
        summary: 'Ubah kata sandi',
        description:
          'With a session: changes the password. With the `wbs_pwchange` ticket (initial password): changes it, ' +
          'signs in again with the new password and sets `wbs_session`.',
        tags,
        body: changePasswordRequest,
        response: { 200: changePasswordReply },
      }),
    },
    async (request, reply) => {
      const session = request.session;
      const ticket = request.passwordChange;
      const actor = session ?? ticket;
      if (!actor) throw new ApiProblem('unauthorized');
      const messages = await legacyChangePassword(request, actor.auth, request.body);
      const message = messages[0] ?? '';
      audit(request, 'password-changed', { userId: actor.user.id, forced: !session });
      if (session) return { message, user: session.user };

      // Forced change: sign in again with the new password, then drop the ticket.
      app.sessions.clearPasswordChange(request, reply);
      const login = await legacyLogin(request, actor.user.username, request.body.newPassword);
      const user = presentUser(login.user);
      if (login.user.wbsUserInitPassword === 1) throw new ApiProblem('password-change-required');
      app.sessions.start(request, reply, user, login.token);
      audit(request, 'sign-in');
      return { message, user };
    },
  );

  app.post<{ Body: v.InferOutput<typeof forgotPasswordRequest> }>(
    '/password/forgot',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Lupa kata sandi',
        description:
          'The same reply whether or not the e-mail is registered. Attempts are limited per e-mail and per ' +
          'client (429 `rate-limited`).',
        tags,
        body: forgotPasswordRequest,
        response: { 200: messageReply },
      }),
    },
    async (request, reply) => {
      await forgotAttempts.consume(request, reply, request.body.email.trim().toLowerCase());
      try {
        await legacyForgotPassword(request, request.body.email);
      } catch (error) {
        // "Email tidak terdaftar" and friends must not tell anyone which addresses exist.
        const hidden = ['legacy-error', 'legacy-warning', 'not-found'];
        if (!(error instanceof ApiProblem) || !hidden.includes(error.type)) throw error;
      }
      audit(request, 'password-forgot-requested');
      return { message: PROBLEM_MESSAGES.forgotPasswordSent };
    },
  );
}
