import { UI_MESSAGES } from '@wbs/shared/messages';
import { useLocation } from 'wouter';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import { api } from './client.ts';
import { useClearSession } from './session.ts';

/** Memory-only flag: the last sign-in answered passwordChangeRequired (forced change mode). */
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

/** Sign-out: DELETE /session, and always clear local state, 'Berhasil Keluar', back to /. */
export function useLogout() {
  const clear = useClearSession();
  const loading = useLoading();
  const [, navigate] = useLocation();
  return async () => {
    loading.show(UI_MESSAGES.loggingOut);
    try {
      await api('/session', { method: 'DELETE', authRedirect: false });
    } catch {
      // the gateway clears the cookie even when the legacy logout fails; local state goes regardless
    } finally {
      forcedPasswordChange.set(false);
      await clear();
      loading.hide();
      notify.success(UI_MESSAGES.loggedOut);
      navigate('~/'); // absolute: also called from inside the /admin nest
    }
  };
}
