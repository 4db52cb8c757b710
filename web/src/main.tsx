import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SWRConfig } from 'swr';
import { App } from './App.tsx';
import { ApiError, swrFetcher } from './api/client.ts';
import { SESSION_KEY } from './api/session.ts';
import { system } from './theme.ts';
import { ConfirmProvider } from './ui/ConfirmDialog.tsx';
import { ErrorBoundary } from './ui/ErrorBoundary.tsx';
import { LoadingProvider } from './ui/LoadingOverlay.tsx';
import { notify, Toaster } from './ui/toaster.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

createRoot(root).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <SWRConfig
        value={{
          fetcher: swrFetcher,
          revalidateOnFocus: false,
          shouldRetryOnError: false,
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
          </ConfirmProvider>
        </LoadingProvider>
      </SWRConfig>
    </ChakraProvider>
  </StrictMode>,
);
