import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { forcedPasswordChange } from './api/auth.ts';
import { setUnauthorizedHandler } from './api/client.ts';
import { SESSION_KEY, useClearSession } from './api/session.ts';
import { notify } from './ui/toaster.tsx';

/** On a 401 of a signed-in call: clear the session cache, go to /, show the server message. */
export function AuthBridge() {
  const { cache } = useSWRConfig();
  const clear = useClearSession();
  const [, navigate] = useLocation();
  useEffect(() => {
    let busy = false;
    setUnauthorizedHandler((error) => {
      if (error.type === 'password-change-required') {
        forcedPasswordChange.set(true);
        navigate('/user/changepassword');
        return;
      }
      const signedIn = Boolean(cache.get(SESSION_KEY)?.data);
      if (!signedIn || busy) return;
      busy = true;
      void clear().finally(() => {
        busy = false;
        navigate('/');
        notify.error(error.messages.length ? error.messages : 'Unauthorized');
      });
    });
    return () => setUnauthorizedHandler(null);
  }, [cache, clear, navigate]);
  return null;
}
