/** The signed-in user, from GET /api/v1/session through SWR (null for a guest). */
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { ApiError, api } from './client.ts';
import type { User } from './types.ts';

export const SESSION_KEY = '/session';

export async function fetchSession(): Promise<User | null> {
  try {
    const reply = await api<{ user: User }>(SESSION_KEY, { authRedirect: false });
    return reply?.user ?? null;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

export function useSession() {
  const { data, error, isLoading, mutate } = useSWR<User | null>(SESSION_KEY, fetchSession, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
  });
  // When the gateway cannot be reached the app behaves as for a guest rather than spinning forever.
  const user = data ?? null;
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
