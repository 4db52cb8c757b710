/** Legacy sign-in, sign-out and password calls (JwtAuth, User). */
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { audit } from '../logging.ts';
import type { LegacyAuth } from './client.ts';
import { seg } from './client.ts';
import { ignored, type LegacyLogin, loginDataSchema } from './schemas.ts';

const SIGN_IN_REFUSALS = new Set(['legacy-error', 'legacy-warning', 'unauthorized']);
const WRONG_CREDENTIALS = 'Username atau kata sandi salah';

/**
 * POST /JwtAuth/Login. A refusal (legacy code 0/-1, or HTTP 401) becomes 422 `legacy-error` with the
 * legacy's message, never 401: a 401 means "your session ended" to the web app.
 */
export async function legacyLogin(
  request: FastifyRequest,
  userName: string,
  password: string,
): Promise<LegacyLogin> {
  try {
    const { data } = await request.legacy.call({
      name: 'JwtAuth.login',
      method: 'POST',
      path: '/JwtAuth/Login',
      json: { userName, password },
      auth: null,
      data: loginDataSchema,
    });
    return data as LegacyLogin;
  } catch (error) {
    if (!(error instanceof ApiProblem) || !SIGN_IN_REFUSALS.has(error.type)) throw error;
    audit(request, 'sign-in-failed', { reason: error.type });
    // An HTTP 401 carries no text of its own; a code 0 or -1 carries the legacy's.
    const extras = error.type === 'unauthorized' ? { messages: [WRONG_CREDENTIALS] } : error.extras;
    throw new ApiProblem('legacy-error', { ...extras, severity: 'error' });
  }
}

/** POST /JwtAuth/Logout with header UserId. */
export async function legacyLogout(request: FastifyRequest, auth: LegacyAuth): Promise<void> {
  await request.legacy.call({
    name: 'JwtAuth.logout',
    method: 'POST',
    path: '/JwtAuth/Logout',
    headers: { UserId: String(auth.userId) },
    auth,
    data: ignored,
  });
}

export async function legacyChangePassword(
  request: FastifyRequest,
  auth: LegacyAuth,
  body: { oldPassword: string; newPassword: string; confirmNewPassword: string },
): Promise<string[]> {
  const { messages } = await request.legacy.call({
    name: 'User.changePassword',
    method: 'PUT',
    path: '/User/ChangePassword',
    json: { ...body, userId: auth.userId },
    auth,
    data: ignored,
  });
  return messages;
}

export async function legacyForgotPassword(request: FastifyRequest, email: string): Promise<void> {
  await request.legacy.call({
    name: 'User.forgotPassword',
    method: 'PUT',
    path: '/User/ForgotPassword',
    json: { email },
    auth: null,
    data: ignored,
  });
}

export async function legacyResetPassword(request: FastifyRequest, userId: number): Promise<string[]> {
  const { messages } = await request.legacy.call({
    name: 'User.resetPassword',
    method: 'PUT',
    path: `/User/ResetPassword/${seg(userId)}`,
    data: ignored,
  });
  return messages;
}
