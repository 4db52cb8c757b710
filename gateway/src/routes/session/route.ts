/** Sign in, who am I, sign out. */
import { loginReply, loginRequest, sessionStateReply } from '@wbs/shared/api/session';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { legacyLogin, legacyLogout } from '../../legacy/accounts.ts';
import { audit } from '../../logging.ts';
import { padFailure, signInGuard } from '../../policies/attempt-limits.ts';
import { presentUser } from '../../presenters/user.ts';
import { routeSchema } from '../../schema.ts';
import { knownDevices } from '../../session/known-device.ts';

const tags = ['session'];

/**
 * What the browser is told to forget at sign-out: cached replies and every cookie of this origin.
 * Not "storage": it holds the remembered company choice per user (spec §2) and the device token.
 */
const CLEAR_SITE_DATA = '"cache", "cookies"';

export default async function sessionRoutes(app: FastifyInstance) {
  // Staff accounts can read reporters' identities, and the legacy locks no account: guessing is
  // slowed here (docs/adr/0008-sign-in-limits-and-device-token.md) without letting anyone lock a user out.
  const settings = app.config.signIn;
  const guard = signInGuard(app, { name: 'sign-in', ...settings });
  const devices = knownDevices(app);

  app.post<{ Body: v.InferOutput<typeof loginRequest> }>(
    '/session',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Masuk (sign in)',
        description:
          'Sets the httpOnly cookie `wbs_session`. `secondFactor.status` says whether the session still needs ' +
          'its second factor (`verify`: POST /session/second-factor; `enrol`: the routes under ' +
          '/account/second-factors); until then other routes answer 401 `second-factor-required`. ' +
          'With an initial password no session starts: the reply is ' +
          '`{ passwordChangeRequired: true }` and a 10-minute single-use cookie `wbs_pwchange` accepted only by ' +
          'PUT /api/v1/password. Only failures count: after a few failures per username and client each ' +
          'attempt waits longer (429 `rate-limited` with `retry-after`); a username under attack from many ' +
          'clients is slowed for unknown browsers. Every failure is answered after the same minimum time.',
        tags,
        body: loginRequest,
        response: { 200: loginReply },
      }),
    },
    async (request, reply) => {
      const started = performance.now();
      const { username, password, deviceToken } = request.body;
      const subject = username.trim().toLowerCase();
      const knownDevice = devices.isKnown(deviceToken, subject);
      let attempt: Awaited<ReturnType<typeof guard.begin>>;
      try {
        attempt = await guard.begin(request, reply, subject, knownDevice);
      } catch (error) {
        audit(request, 'sign-in-failed', { reason: 'rate-limited' });
        throw error;
      }
      let login: Awaited<ReturnType<typeof legacyLogin>>;
      try {
        login = await legacyLogin(request.legacy, username, password, (reason) =>
          audit(request, 'sign-in-failed', { reason }),
        );
      } catch (error) {
        // A refusal stays counted and is answered in the same time whether or not the user exists;
        // a legacy that is down is nobody's failed guess.
        if (error instanceof ApiProblem && error.type === 'legacy-error') {
          await padFailure(started, settings.failureFloorMs);
        } else await attempt.cancel();
        throw error;
      }
      await attempt.succeeded();
      const nextDeviceToken = devices.remember(deviceToken, subject);
      const user = presentUser(login.user);
      // A previous session of whoever used this browser ends here.
      if (request.session) await app.sessions.end(request, reply);
      else if (request.cookies.wbs_session !== undefined) app.sessions.clear(request, reply);
      if (login.user.wbsUserInitPassword === 1) {
        await app.sessions.startPasswordChange(request, reply, user, login.token);
        audit(request, 'sign-in-password-change-required', { userId: user.id, userType: user.userTypeId });
        return { passwordChangeRequired: true as const };
      }
      const session = await app.sessions.start(
        request,
        reply,
        user,
        login.token,
        await app.secondFactors.claimForSignIn(user),
      );
      audit(request, 'sign-in', { secondFactor: session.factor.s });
      if (!knownDevice) app.notices.signedInFromNewDevice(user);
      return { user, deviceToken: nextDeviceToken, secondFactor: app.secondFactors.state(session) };
    },
  );

  app.get(
    '/session',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Pengguna yang sedang masuk',
        description:
          'Always 200: `user` is null for a signed-out visitor (or a cookie whose session ended); ' +
          '`passwordChangeRequired` is true while a forced change of an initial password is pending; ' +
          '`secondFactor` says where the session stands with its second factor (null when signed out).',
        tags,
        response: { 200: sessionStateReply },
      }),
    },
    async (request) => {
      const session = app.sessions.current(request);
      return {
        user: session?.user ?? null,
        passwordChangeRequired: !session && request.holdsPasswordChangeTicket,
        secondFactor: session ? app.secondFactors.state(session) : null,
      };
    },
  );

  app.delete(
    '/session',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Keluar (sign out)',
        description:
          'Ends the session on every replica (its cookie is refused from then on, even replayed) and clears ' +
          'the cookies (`Clear-Site-Data: "cache", "cookies"`), even when the legacy logout fails.',
        tags,
        response: { 204: null },
      }),
    },
    async (request, reply) => {
      const session = app.sessions.current(request);
      if (session) {
        try {
          await legacyLogout(request.legacy, session.auth);
        } catch (error) {
          request.log.warn({ problem: (error as ApiProblem).type ?? 'unknown' }, 'legacy logout failed');
        }
        audit(request, 'sign-out');
      }
      await app.sessions.end(request, reply);
      if (request.cookies.wbs_pwchange !== undefined) app.sessions.clearPasswordChange(request, reply);
      reply.header('clear-site-data', CLEAR_SITE_DATA);
      return reply.code(204).send();
    },
  );
}
