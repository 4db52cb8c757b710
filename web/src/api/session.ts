/**
 * The session, from GET /api/v1/session through SWR (null for a guest): its user and where the
 * sign-in's second step stands. A session still waiting for its second factor (`verify`, `enrol`)
 * has a user, yet `useSession().user` stays null for it: the app treats it as not signed in, except
 * for the screen of that step (App.tsx).
 */
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

/** Where the sign-in's second step stands (null when signed out). */
export type SecondFactorState = NonNullable<ApiReply<'get', '/api/v1/session'>['secondFactor']>;

/** A session: its user, and its second factor (null from a gateway that knows none: a full session). */
export type Session = { user: User; secondFactor: SecondFactorState | null };

/** The second-factor step a session waits for; null for a full session (or none). */
export type PendingStep = 'verify' | 'enrol';
export const pendingStep = (session: Session | null | undefined): PendingStep | null => {
  const status = session?.secondFactor?.status;
  return status === 'verify' || status === 'enrol' ? status : null;
};

/**
 * Tab-scoped: where a user was when the second step interrupted (a reload, a 401
 * `second-factor-required`), or where the sign-in was going (/ after a forced password change), to go
 * there once the step is done. A path of the app (/ or under /admin/), never a query.
 */
const RETURN_KEY = 'wbs.after2fa';
const returnable = (path: string | null | undefined): path is string =>
  path === '/' || Boolean(path?.startsWith('/admin/'));
export const secondFactorReturn = {
  take: (): string | null => {
    try {
      const path = sessionStorage.getItem(RETURN_KEY);
      sessionStorage.removeItem(RETURN_KEY);
      return returnable(path) ? path : null;
    } catch {
      return null;
    }
  },
  set: (path: string) => {
    try {
      if (returnable(path)) sessionStorage.setItem(RETURN_KEY, path);
    } catch {
      // storage unavailable: the user lands on its start screen instead
    }
  },
};

/** The session the app shows now (kept by useSession): a probe finding nobody means it ended. */
let shown: Session | null = null;

/** A signed-out visitor is an ordinary 200 reply (`user: null`), never a failed request. */
export async function fetchSession(): Promise<Session | null> {
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
  return user ? { user, secondFactor: reply?.secondFactor ?? null } : null;
}

export function useSession() {
  const { data, error, isLoading, mutate } = useSWR<Session | null>(SESSION_KEY, fetchSession, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
  });
  // When the gateway cannot be reached the app behaves as for a guest rather than spinning forever.
  const session = data ?? null;
  if (data !== undefined) shown = data;
  const pending = pendingStep(session);
  return {
    /** The signed-in user of a full session (null while its second step is pending). */
    user: pending ? null : (session?.user ?? null),
    session,
    /** The second-factor step the session waits for, if any. */
    pending,
    loading: isLoading && data === undefined && !error,
    error,
    mutate,
  };
}

/** Clears every cached reply (the session first) without refetching: used on sign-out and on 401. */
export function useClearSession() {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    await mutate(SESSION_KEY, null, { revalidate: false });
    await mutate((key) => key !== SESSION_KEY, undefined, { revalidate: false });
  }, [mutate]);
}
