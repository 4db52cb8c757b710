/** Change the password (normal or forced) and forgot-password. */
import { messageReply } from '@wbs/shared/api/common';
import { changePasswordReply, changePasswordRequest, forgotPasswordRequest } from '@wbs/shared/api/password';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyChangePassword, legacyForgotPassword, legacyLogin } from '../../legacy/accounts.ts';
import { audit } from '../../logging.ts';
import { attemptLimiter, passwordBackoff } from '../../policies/attempt-limits.ts';
import { presentUser } from '../../presenters/user.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['password'];

export default async function passwordRoutes(app: FastifyInstance) {
  // Each request may send a reset mail: limited per e-mail and per client, like sign-in.
  const forgotAttempts = await attemptLimiter(app, { name: 'password-forgot', ...app.config.passwordForgot });
  // The current-password check is a password oracle for whoever holds a session (or a ticket):
  // the same back-off per user as sign-in per username + client.
  const currentPasswordChecks = passwordBackoff(app, 'password-current', app.config.signIn);

  app.put<{ Body: v.InferOutput<typeof changePasswordRequest> }>(
    '/password',
    {
      config: { policy: 'password:change', passwordChange: true },
      schema: routeSchema({
        summary: 'Ubah kata sandi',
        description:
          'With a session: changes the password and ends every OTHER session of the user. With the single-use ' +
          '`wbs_pwchange` ticket (initial password): changes it, signs in again with the new password and sets ' +
          '`wbs_session`. Wrong current passwords are slowed per user (429 `rate-limited` with `retry-after`).',
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
      // A ticket is good for one change: a replay (or a parallel second try) finds it used.
      if (!session && !(await app.sessions.claimPasswordChange(request))) {
        app.sessions.clearPasswordChange(request, reply);
        throw new ApiProblem('unauthorized');
      }
      let attempt: Awaited<ReturnType<typeof currentPasswordChecks.begin>>;
      try {
        attempt = await currentPasswordChecks.begin(request, reply, String(actor.user.id));
      } catch (error) {
        if (!session) await app.sessions.restorePasswordChange(request); // waited, not used
        throw error;
      }
      let messages: string[];
      try {
        messages = await legacyChangePassword(request.legacy, actor.auth, request.body);
      } catch (error) {
        const refused =
          error instanceof ApiProblem && ['legacy-error', 'legacy-warning'].includes(error.type);
        if (!refused) await attempt.cancel();
        // A refused change (wrong current password) may be tried again with the same ticket.
        if (!session && error instanceof ApiProblem && error.type !== 'unauthorized') {
          await app.sessions.restorePasswordChange(request);
        }
        throw error;
      }
      await attempt.succeeded();
      const message = messages[0] ?? '';
      audit(request, 'password-changed', { userId: actor.user.id, forced: !session });
      if (session) {
        await app.sessions.registry.endUser(session.user.id, session.id);
        return { message, user: session.user, secondFactor: app.secondFactors.state(session) };
      }

      // Forced change: sign in again with the new password, then drop the ticket.
      app.sessions.clearPasswordChange(request, reply);
      const login = await legacyLogin(
        request.legacy,
        actor.user.username,
        request.body.newPassword,
        (reason) => audit(request, 'sign-in-failed', { reason }),
      );
      const user = presentUser(login.user);
      if (login.user.wbsUserInitPassword === 1) throw new ApiProblem('password-change-required');
      const factor = await app.secondFactors.claimForSignIn(user);
      await app.sessions.registry.endUser(user.id);
      const started = await app.sessions.start(request, reply, user, login.token, factor);
      audit(request, 'sign-in', { secondFactor: factor.s });
      return { message, user, secondFactor: app.secondFactors.state(started) };
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
      await legacyForgotPassword(request.legacy, request.body.email);
      audit(request, 'password-forgot-requested');
      return { message: PROBLEM_MESSAGES.forgotPasswordSent };
    },
  );
}
