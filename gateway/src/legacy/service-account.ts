/**
 * The gateway's own legacy account (LEGACY_SERVICE_USERNAME / _PASSWORD), used for ONE call: adding
 * a proven tracker's evidence (the legacy's add-attachments call needs a bearer token and a tracker
 * has none). The gateway proves number and password first; the account never reads anything for
 * anyone. The token is kept in memory per app and renewed once when the legacy refuses it.
 * Without an account the tracker's Tambah Bukti answers 503 with a clear text.
 */
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import type { LegacyAuth } from './client.ts';
import { type LegacyLogin, loginDataSchema } from './schemas.ts';

const tokens = new WeakMap<FastifyInstance, Promise<LegacyAuth>>();

async function signIn(request: FastifyRequest): Promise<LegacyAuth> {
  const account = request.server.config.legacyService;
  if (!account) {
    throw new ApiProblem('legacy-unavailable', {
      detail: PROBLEM_MESSAGES.evidenceUnavailable,
      cause: 'LEGACY_SERVICE_USERNAME not set',
    });
  }
  try {
    const { data } = await request.legacy.call({
      name: 'JwtAuth.login.service',
      method: 'POST',
      path: '/JwtAuth/Login',
      json: { userName: account.username, password: account.password },
      auth: null,
      data: loginDataSchema,
    });
    const login = data as LegacyLogin;
    return { token: login.token, userId: login.user.wbsUserId };
  } catch (error) {
    // A refused service account is the operator's problem, never the reporter's.
    throw new ApiProblem('legacy-unavailable', {
      detail: PROBLEM_MESSAGES.evidenceUnavailable,
      cause: `service account sign-in failed: ${(error as Error)?.name}`,
    });
  }
}

function tokenOf(request: FastifyRequest, fresh: boolean): Promise<LegacyAuth> {
  const app = request.server;
  let token = fresh ? undefined : tokens.get(app);
  if (!token) {
    token = signIn(request);
    tokens.set(app, token);
    token.catch(() => tokens.delete(app));
  }
  return token;
}

/** Runs `call` with the service account's token; a refused (expired) token is renewed once. */
export async function withServiceAccount<T>(
  request: FastifyRequest,
  call: (auth: LegacyAuth) => Promise<T>,
): Promise<T> {
  try {
    return await call(await tokenOf(request, false));
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.type !== 'unauthorized') throw error;
  }
  try {
    return await call(await tokenOf(request, true));
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.type !== 'unauthorized') throw error;
    throw new ApiProblem('legacy-unavailable', {
      detail: PROBLEM_MESSAGES.evidenceUnavailable,
      cause: 'service account token refused',
    });
  }
}
