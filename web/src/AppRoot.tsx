import { ChakraProvider } from '@chakra-ui/react';
import { useEffect } from 'react';
import { SWRConfig } from 'swr';
import { App } from './App.tsx';
import { ApiError } from './api/client.ts';
import { SESSION_KEY } from './api/session.ts';
import { system } from './theme.ts';
import { ConfirmProvider } from './ui/ConfirmDialog.tsx';
import { ErrorBoundary } from './ui/ErrorBoundary.tsx';
import { LoadingProvider } from './ui/LoadingOverlay.tsx';
import { notify, Toaster } from './ui/toaster.tsx';

/**
 * The whole app with its providers: rendered in the browser (main.tsx) and, for the public pages, at
 * build time (prerender.tsx). `guest` says the page was prerendered for a visitor without a session
 * (the gateway serves prerendered pages only then): the session starts as "signed out" instead of
 * "loading", so the first render matches the prerendered markup; SWR still asks the gateway.
 * `onStarted` runs once the first render is committed (src/boot.ts replays taps held until then).
 */
/** Calls `onStarted` once the app's first render is on screen and handles events (hydrated). */
function Started({ onStarted }: { onStarted?: () => void }) {
  useEffect(() => onStarted?.(), [onStarted]);
  return null;
}

export function AppRoot({ guest = false, onStarted }: { guest?: boolean; onStarted?: () => void }) {
  return (
    <ChakraProvider value={system}>
      <SWRConfig
        value={{
          // No app-wide fetcher: every query brings its typed one (api/useApi.ts).
          revalidateOnFocus: false,
          shouldRetryOnError: false,
          ...(guest ? { fallback: { [SESSION_KEY]: null } } : {}),
          // A failed load (reference data, tables, details) is reported once as a snackbar.
          onError: (error, key) => {
            // 401s are handled (and announced) by AuthBridge
            if (key !== SESSION_KEY && !(error instanceof ApiError && error.status === 401))
              notify.problem(error);
          },
        }}
      >
        <LoadingProvider>
          <ConfirmProvider>
            {/* The last line of defence: a failure anywhere shows a message, never a blank page. */}
            <ErrorBoundary offerReload>
              <App />
            </ErrorBoundary>
            <Toaster />
            {/* Rendered at build time too (without a callback), so both trees have the same shape. */}
            <Started onStarted={onStarted} />
          </ConfirmProvider>
        </LoadingProvider>
      </SWRConfig>
    </ChakraProvider>
  );
}
