/**
 * Snackbars through the Chakra toaster (`max: 5`, bottom-end, 3000 ms). The toaster machinery loads
 * with the first message, so pages that never show one do not pay for it.
 */
import { SNACKBAR } from '@wbs/shared/constants';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';

type Kind = 'success' | 'error' | 'warning' | 'info';

const loadView = () => import('./ToasterView.tsx');
const LazyToasterView = lazy(loadView);
let mounted = false;
const hosts = new Set<() => void>();

function show(type: Kind, text: string | string[]) {
  const lines = [...new Set((Array.isArray(text) ? text : [text]).map((t) => t.trim()).filter(Boolean))];
  if (lines.length === 0) return;
  if (!mounted) {
    mounted = true;
    for (const wake of hosts) wake();
  }
  void loadView().then(({ toaster }) =>
    toaster.create({ type, description: lines.join('\n'), duration: SNACKBAR.durationMs }),
  );
}

export const notify = {
  success: (text: string | string[]) => show('success', text),
  error: (text: string | string[]) => show('error', text),
  warning: (text: string | string[]) => show('warning', text),
  info: (text: string | string[]) => show('info', text),
  /** An ApiError as a warning or error snackbar by its severity (messages joined, no duplicates). */
  problem: (error: unknown) => {
    if (error instanceof ApiError && error.handled) return; // announced once by AuthBridge
    if (error instanceof ApiError) show(error.severity === 'warning' ? 'warning' : 'error', error.messages);
    else if (error instanceof Error) show('error', error.message);
  },
};

/** Mounts the toaster region once the first snackbar is requested. */
export function Toaster() {
  const [active, setActive] = useState(mounted);
  useEffect(() => {
    const wake = () => setActive(true);
    hosts.add(wake);
    if (mounted) setActive(true);
    return () => {
      hosts.delete(wake);
    };
  }, []);
  if (!active) return null;
  const View: ComponentType = LazyToasterView;
  return (
    <Suspense fallback={null}>
      <View />
    </Suspense>
  );
}
