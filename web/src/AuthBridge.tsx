import { UI_MESSAGES } from '@wbs/shared/messages';
import { useEffect, useRef } from 'react';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { forcedPasswordChange, useEndSession } from './api/auth.ts';
import { setUnauthorizedHandler } from './api/client.ts';
import { SESSION_KEY, secondFactorReturn } from './api/session.ts';
import { useLoading } from './ui/LoadingOverlay.tsx';
import { notify } from './ui/toaster.tsx';

/** One sign-out at a time, whatever number of calls answer 401 together (module-wide). */
let ending = false;

/**
 * On a 401 of a signed-in call (spec §8): the overlay 'Proses Logout', the server logout, the local
 * session cleared, back to /, then the server's message, once. The calls that failed with it do not
 * announce it themselves (client.ts marks such errors as handled).
 *
 * A 401 `second-factor-required` ends nothing: the session waits for its second step, so the session
 * is read again and App.tsx shows that step (and returns to this page after it).
 */
export function AuthBridge() {
  const { cache, mutate } = useSWRConfig();
  const endSession = useEndSession();
  const loading = useLoading();
  const [location, navigate] = useLocation();
  const here = useRef(location);
  here.current = location;
  useEffect(() => {
    setUnauthorizedHandler((error) => {
      if (error.type === 'password-change-required') {
        forcedPasswordChange.set(true);
        navigate('/user/changepassword');
        return;
      }
      if (error.type === 'second-factor-required') {
        if (here.current.startsWith('/admin/')) secondFactorReturn.set(here.current);
        void mutate(SESSION_KEY);
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
  }, [cache, mutate, endSession, loading, navigate]);
  return null;
}
