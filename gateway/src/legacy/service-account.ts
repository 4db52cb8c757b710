/**
 * The gateway's own legacy account (LEGACY_SERVICE_USERNAME / _PASSWORD), used for two things:
 * - adding a proven tracker's evidence (the legacy's add-attachments call needs a bearer token and a
 *   tracker has none); the gateway proves number and password first;
 * - the jobs' reads: the case-index watcher's (case-index/watcher.ts, ADR 0058: the company list, each
 *   company's case table and some case details) and the notices' (the staff records that say who is
 *   told, the status table); nothing read leaves to a user.
 * One per app (`app.serviceAccount`, legacy/plugin.ts): its token is kept in memory and renewed once
 * when the legacy refuses it. Without an account the tracker's Tambah Bukti answers 503 with a clear
 * text and there is no watcher and no notice.
 */
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { ApiProblem } from '../errors.ts';
import type { LegacyAuth, LegacyCall, LegacyResult } from './client.ts';
import { type LegacyLogin, loginDataSchema } from './schemas.ts';

/** What signing in needs of a legacy caller (plugin.ts SignInCaller has it; plugin.ts decorates the app with this module). */
type SignInCaller = {
  call<T>(call: Omit<LegacyCall<T>, 'auth'> & { auth?: LegacyAuth | null }): Promise<LegacyResult<T>>;
};

export type ServiceAccount = {
  /** Runs `call` with the account's token; a refused (expired) token is renewed once. */
  run<T>(legacy: SignInCaller, call: (auth: LegacyAuth) => Promise<T>): Promise<T>;
};

const unavailable = (cause: string) =>
  new ApiProblem('legacy-unavailable', { detail: PROBLEM_MESSAGES.evidenceUnavailable, cause });

const refused = (error: unknown) => error instanceof ApiProblem && error.type === 'unauthorized';

export function serviceAccount(account: { username: string; password: string } | null): ServiceAccount {
  let token: Promise<LegacyAuth> | undefined;

  async function signIn(legacy: SignInCaller): Promise<LegacyAuth> {
    if (!account) throw unavailable('LEGACY_SERVICE_USERNAME not set');
    try {
      const { data } = await legacy.call({
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
      throw unavailable(`service account sign-in failed: ${(error as Error)?.name}`);
    }
  }

  function tokenOf(legacy: SignInCaller, fresh: boolean): Promise<LegacyAuth> {
    let current = fresh ? undefined : token;
    if (!current) {
      current = signIn(legacy);
      token = current;
      current.catch(() => {
        if (token === current) token = undefined;
      });
    }
    return current;
  }

  return {
    async run(legacy, call) {
      try {
        return await call(await tokenOf(legacy, false));
      } catch (error) {
        if (!refused(error)) throw error;
      }
      try {
        return await call(await tokenOf(legacy, true));
      } catch (error) {
        if (!refused(error)) throw error;
        throw unavailable('service account token refused');
      }
    },
  };
}
