/** Legacy sign-in, sign-out and password calls (JwtAuth, User). */
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { audit } from '../logging.ts';
import type { LegacyAuth } from './client.ts';
import { seg } from './client.ts';
import { ignored, type LegacyLogin, loginDataSchema } from './schemas.ts';

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
    if (
      error instanceof ApiProblem &&
      ['legacy-error', 'legacy-warning', 'unauthorized'].includes(error.type)
    ) {
      audit(request, 'sign-in-failed', { reason: error.type });
      if (error.type === 'unauthorized') {
        throw new ApiProblem('legacy-error', {
          severity: 'error',
          messages: ['Username atau kata sandi salah'],
        });
      }
      if (error.type === 'legacy-warning') {
        throw new ApiProblem('legacy-error', { ...error.extras, severity: 'error' });
      }
    }
    throw error;
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
