/**
 * Snackbars through the Chakra toaster (`max: 5`, bottom-end, 3000 ms). The toaster machinery loads
 * with the first message, so pages that never show one do not pay for it.
 */
import { Box, Stack } from '@chakra-ui/react';
import { SNACKBAR } from '@wbs/shared/constants';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { retryImport } from './lazyWithRetry.tsx';

type Kind = 'success' | 'error' | 'warning' | 'info';

let viewLoad: ReturnType<typeof startViewLoad> | null = null;
function startViewLoad() {
  return retryImport(() => import('./ToasterView.tsx'));
}
/** The toaster chunk, loaded once; a failed load is tried afresh next time. */
const loadView = () => {
  viewLoad ??= startViewLoad().catch((error: unknown) => {
    viewLoad = null;
    throw error;
  });
  return viewLoad;
};
/** Loads the toaster before a step that needs it (a submission), so a dropped connection cannot lose its message. */
export const preloadToaster = () =>
  loadView().then(
    () => undefined,
    () => undefined,
  );
const LazyToasterView = lazy(loadView);
let mounted = false;
const hosts = new Set<() => void>();

type Plain = { id: number; type: Kind; text: string };
let plain: Plain[] = [];
let plainId = 0;
/** When the toaster itself cannot load, messages still show, as plain boxes in the same corner. */
function showPlain(type: Kind, text: string) {
  const item = { id: ++plainId, type, text };
  plain = [...plain, item].slice(-SNACKBAR.max);
  for (const wake of hosts) wake();
  setTimeout(() => {
    plain = plain.filter((p) => p !== item);
    for (const wake of hosts) wake();
  }, SNACKBAR.durationMs * 2);
}

function show(type: Kind, text: string | string[]) {
  const lines = [...new Set((Array.isArray(text) ? text : [text]).map((t) => t.trim()).filter(Boolean))];
  if (lines.length === 0) return;
  if (!mounted) {
    mounted = true;
    for (const wake of hosts) wake();
  }
  const description = lines.join('\n');
  loadView().then(
    ({ toaster }) => toaster.create({ type, description, duration: SNACKBAR.durationMs }),
    () => showPlain(type, description),
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
  const [, setPlainVersion] = useState(0);
  useEffect(() => {
    const wake = () => {
      setActive(mounted);
      setPlainVersion((n) => n + 1);
    };
    hosts.add(wake);
    if (mounted) setActive(true);
    return () => {
      hosts.delete(wake);
    };
  }, []);
  const View: ComponentType = LazyToasterView;
  return (
    <>
      {active && (
        <ErrorBoundary fallback={() => null}>
          <Suspense fallback={null}>
            <View />
          </Suspense>
        </ErrorBoundary>
      )}
      {plain.length > 0 && (
        <Stack
          position="fixed"
          bottom="4"
          insetEnd="4"
          zIndex="toast"
          gap="2"
          maxW="sm"
          role="status"
          aria-live="polite"
        >
          {plain.map((item) => (
            <Box
              key={item.id}
              bg={
                item.type === 'success'
                  ? 'green.solid'
                  : item.type === 'info'
                    ? 'blue.solid'
                    : item.type === 'warning'
                      ? 'orange.solid'
                      : 'red.solid'
              }
              color="white"
              rounded="md"
              px="4"
              py="3"
              whiteSpace="pre-line"
              shadow="lg"
            >
              {item.text}
            </Box>
          ))}
        </Stack>
      )}
    </>
  );
}
