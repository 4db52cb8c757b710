import { UI_MESSAGES } from '@wbs/shared/messages';
import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { forcedPasswordChange, useEndSession } from './api/auth.ts';
import { setUnauthorizedHandler } from './api/client.ts';
import { SESSION_KEY } from './api/session.ts';
import { useLoading } from './ui/LoadingOverlay.tsx';
import { notify } from './ui/toaster.tsx';

/** One sign-out at a time, whatever number of calls answer 401 together (module-wide). */
let ending = false;

/**
 * On a 401 of a signed-in call (spec §8): the overlay 'Proses Logout', the server logout, the local
 * session cleared, back to /, then the server's message, once. The calls that failed with it do not
 * announce it themselves (client.ts marks such errors as handled).
 */
export function AuthBridge() {
  const { cache } = useSWRConfig();
  const endSession = useEndSession();
  const loading = useLoading();
  const [, navigate] = useLocation();
  useEffect(() => {
    setUnauthorizedHandler((error) => {
      if (error.type === 'password-change-required') {
        forcedPasswordChange.set(true);
        navigate('/user/changepassword');
        return;
      }
      const signedIn = Boolean(cache.get(SESSION_KEY)?.data);
      if (!signedIn || ending) return;
      ending = true;
      loading.show(UI_MESSAGES.loggingOut);
      void endSession().finally(() => {
        ending = false;
        loading.hide();
        navigate('/');
        notify.error(error.messages.length ? error.messages : 'Unauthorized');
      });
    });
    return () => setUnauthorizedHandler(null);
  }, [cache, endSession, loading, navigate]);
  return null;
}
