import { useEffect, useRef } from 'react';
import { useLogout } from '../api/auth.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';

/** /auth/logout (the top-bar menu's Keluar path): signs out and returns to /. */
export function LogoutPage() {
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, [logout]);
  return <PageSpinner />;
}
