import { UI_MESSAGES } from '@wbs/shared/messages';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import { api } from './client.ts';
import { forcedPasswordChange, secondFactorReturn, useClearSession } from './session.ts';

export { forcedPasswordChange };

/**
 * The device token of the last successful sign-in in this browser (gateway: a username under attack
 * is slowed for unknown browsers only). Local storage, so signing out (Clear-Site-Data "cookies")
 * keeps it; it grants nothing else.
 */
const DEVICE_KEY = 'wbs.device';
export const deviceToken = {
  get: (): string | undefined => {
    try {
      return localStorage.getItem(DEVICE_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set: (token: string | undefined) => {
    try {
      if (token) localStorage.setItem(DEVICE_KEY, token);
    } catch {
      // storage unavailable: this browser is simply not remembered
    }
  },
};

/**
 * Ends the session on the gateway (DELETE /session, failures ignored: the local state goes
 * regardless) and clears every cached reply.
 */
export function useEndSession() {
  const clear = useClearSession();
  return useCallback(async () => {
    try {
      await api.DELETE('/api/v1/session', { authRedirect: false });
    } catch {
      // the gateway clears the cookie even when the legacy logout fails
    } finally {
      forcedPasswordChange.set(false);
      secondFactorReturn.take(); // the next user of this tab starts on its own screen
      await clear();
    }
  }, [clear]);
}

/** Sign-out: overlay 'Proses Logout', end the session, 'Berhasil Keluar', back to /. */
export function useLogout() {
  const endSession = useEndSession();
  const loading = useLoading();
  const [, navigate] = useLocation();
  return async () => {
    loading.show(UI_MESSAGES.loggingOut);
    try {
      await endSession();
    } finally {
      loading.hide();
      notify.success(UI_MESSAGES.loggedOut);
      navigate('~/'); // absolute: also called from inside the /admin nest
    }
  };
}
