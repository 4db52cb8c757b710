/** The signed-in user, from GET /api/v1/session through SWR (null for a guest). */
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { ApiError, type ApiReply, api, reportSessionEnded } from './client.ts';
import { asUser, type User } from './types.ts';

/** The SWR key of the session: the URL of its GET, like every other key (see useApi.ts). */
export const SESSION_KEY = '/api/v1/session';

/** Tab-scoped flag: a forced change of an initial password is pending (the gateway holds the ticket). */
const FORCED_KEY = 'wbs.pwchange';
export const forcedPasswordChange = {
  get: (): boolean => {
    try {
      return sessionStorage.getItem(FORCED_KEY) === '1';
    } catch {
      return false;
    }
  },
  set: (on: boolean) => {
    try {
      if (on) sessionStorage.setItem(FORCED_KEY, '1');
      else sessionStorage.removeItem(FORCED_KEY);
    } catch {
      // storage unavailable: the flag only lives as long as the page
    }
  },
};

/** The user the app shows now (kept by useSession): a probe finding nobody means the session ended. */
let shown: User | null = null;

/** A signed-out visitor is an ordinary 200 reply (`user: null`), never a failed request. */
export async function fetchSession(): Promise<User | null> {
  let reply: ApiReply<'get', '/api/v1/session'>;
  try {
    reply = await api.GET('/api/v1/session', { authRedirect: false });
  } catch (error) {
    // A proxy (or an older gateway) answering 401/403 means signed out as well.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
  const user = reply?.user ? asUser(reply.user) : null;
  // The gateway knows whether this browser holds a forced-change ticket (any tab, after a reload).
  if (!user) forcedPasswordChange.set(Boolean(reply?.passwordChangeRequired));
  // Ended elsewhere (sign-out in another tab, password changed, account reset): announced like a 401,
  // which also clears the cached user; until then the screen keeps it.
  if (!user && shown && reportSessionEnded(PROBLEM_MESSAGES.unauthorized)) return shown;
  return user;
}

export function useSession() {
  const { data, error, isLoading, mutate } = useSWR<User | null>(SESSION_KEY, fetchSession, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
  });
  // When the gateway cannot be reached the app behaves as for a guest rather than spinning forever.
  const user = data ?? null;
  if (data !== undefined) shown = data;
  return { user, loading: isLoading && data === undefined && !error, error, mutate };
}

/** Clears every cached reply (the session first) without refetching: used on sign-out and on 401. */
export function useClearSession() {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    await mutate(SESSION_KEY, null, { revalidate: false });
    await mutate((key) => key !== SESSION_KEY, undefined, { revalidate: false });
  }, [mutate]);
}
