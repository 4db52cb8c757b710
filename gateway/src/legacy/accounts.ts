/**
 * Accounts at the legacy: sign-in, sign-out and password calls (JwtAuth, User) and the signed-in
 * reporter's own profile (WhistleblowerMaster).
 */
import { ApiProblem } from '../errors.ts';
import type { LegacyAuth } from './client.ts';
import { seg } from './client.ts';
import type { LegacyCaller } from './plugin.ts';
import { orMissing } from './records.ts';
import { ignored, type LegacyLogin, loginDataSchema, whistleblowerSchema } from './schemas.ts';

const SIGN_IN_REFUSALS = new Set(['legacy-error', 'legacy-warning', 'unauthorized']);
const WRONG_CREDENTIALS = 'Username atau kata sandi salah';

/**
 * POST /JwtAuth/Login. A refusal (legacy code 0/-1, or HTTP 401) becomes 422 `legacy-error` with the
 * legacy's message, never 401: a 401 means "your session ended" to the web app.
 */
export async function legacyLogin(
  legacy: LegacyCaller,
  userName: string,
  password: string,
  /** Told why a refusal was one (for the audit line), before it is thrown. */
  onRefused: (reason: string) => void,
): Promise<LegacyLogin> {
  try {
    const { data } = await legacy.call({
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
    onRefused(error.type);
    // An HTTP 401 carries no text of its own; a code 0 or -1 carries the legacy's.
    const extras = error.type === 'unauthorized' ? { messages: [WRONG_CREDENTIALS] } : error.extras;
    throw new ApiProblem('legacy-error', { ...extras, severity: 'error' });
  }
}

/** POST /JwtAuth/Logout with header UserId. */
export async function legacyLogout(legacy: LegacyCaller, auth: LegacyAuth): Promise<void> {
  await legacy.call({
    name: 'JwtAuth.logout',
    method: 'POST',
    path: '/JwtAuth/Logout',
    headers: { UserId: String(auth.userId) },
    auth,
    data: ignored,
  });
}

export async function legacyChangePassword(
  legacy: LegacyCaller,
  auth: LegacyAuth,
  body: { oldPassword: string; newPassword: string; confirmNewPassword: string },
): Promise<string[]> {
  const { messages } = await legacy.call({
    name: 'User.changePassword',
    method: 'PUT',
    path: '/User/ChangePassword',
    json: { ...body, userId: auth.userId },
    auth,
    data: ignored,
  });
  return messages;
}

/**
 * PUT /User/ForgotPassword. An address the legacy does not know ("Email tidak terdaftar" and friends)
 * is answered like a known one: nobody learns which addresses exist.
 */
export async function legacyForgotPassword(legacy: LegacyCaller, email: string): Promise<void> {
  await orMissing(
    legacy.call({
      name: 'User.forgotPassword',
      method: 'PUT',
      path: '/User/ForgotPassword',
      json: { email },
      auth: null,
      data: ignored,
    }),
  );
}

export async function legacyResetPassword(legacy: LegacyCaller, userId: number): Promise<string[]> {
  const { messages } = await legacy.call({
    name: 'User.resetPassword',
    method: 'PUT',
    path: `/User/ResetPassword/${seg(userId)}`,
    data: ignored,
  });
  return messages;
}

/** The signed-in reporter's profile record (WhistleblowerMaster). */
export type ReporterRef = { whistleblowerId: number; whistleblowerCompanyId: number };

export async function reporterProfile(legacy: LegacyCaller, who: ReporterRef) {
  const { data } = await legacy.call({
    name: 'WhistleblowerMaster.detail',
    method: 'POST',
    path: '/WhistleblowerMaster/Detail',
    json: who,
    data: whistleblowerSchema,
  });
  return data;
}

export async function saveReporterProfile(
  legacy: LegacyCaller,
  who: ReporterRef,
  profile: { fullName: string; hideIdentity: boolean },
): Promise<string[]> {
  const { messages } = await legacy.call({
    name: 'WhistleblowerMaster.update',
    method: 'PUT',
    path: '/WhistleblowerMaster',
    json: { whistleblowerFullName: profile.fullName, isAnonymous: profile.hideIdentity, ...who },
    data: ignored,
  });
  return messages;
}
