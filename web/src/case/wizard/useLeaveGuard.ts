/**
 * Asks before the wizard's typed data is thrown away: a link anywhere on the page (menu, logo,
 * footer), the browser's Back, and reload or closing the tab (the browser's own beforeunload prompt;
 * its text cannot be set).
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';

export const LEAVE_QUESTION = {
  title: 'Tinggalkan halaman?',
  message:
    'Data laporan yang sudah Anda isi akan hilang jika Anda meninggalkan halaman ini. Tetap tinggalkan?',
  actionLabel: 'Oke',
} as const;

const GUARD_STATE = { wbsWizardGuard: true };

export function useLeaveGuard(active: boolean): void {
  const confirm = useConfirm();
  const [, navigate] = useLocation();
  const activeRef = useRef(active);
  activeRef.current = active;

  // Reload, close, typing another address.
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  // Links: caught before the router sees the click.
  useEffect(() => {
    if (!active) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (
        !(anchor instanceof HTMLAnchorElement) ||
        anchor.target === '_blank' ||
        anchor.hasAttribute('download')
      )
        return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      void confirm(LEAVE_QUESTION).then((leave) => {
        if (!leave) return;
        activeRef.current = false;
        navigate(`${url.pathname}${url.search}${url.hash}`, { replace: isGuardEntry() });
      });
    };
    window.addEventListener('click', onClick, true);
    return () => window.removeEventListener('click', onClick, true);
  }, [active, confirm, navigate]);

  // Back: a guard entry on top of the wizard's own; Back lands on the wizard's entry and asks.
  useEffect(() => {
    if (!active) return;
    if (!isGuardEntry()) window.history.pushState(GUARD_STATE, '', window.location.href);
    const onPopState = () => {
      if (!activeRef.current || isGuardEntry()) return;
      void confirm(LEAVE_QUESTION).then((leave) => {
        if (leave) {
          activeRef.current = false;
          window.history.back();
        } else {
          window.history.pushState(GUARD_STATE, '', window.location.href);
        }
      });
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [active, confirm]);
}

export function isGuardEntry(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'wbsWizardGuard' in state;
}
