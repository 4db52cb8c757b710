import { Box, Spinner, Stack, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

type LoadingState = { message?: string; progress?: number | null } | null;

type LoadingApi = {
  /** Shows the global overlay, with an optional message. */
  show: (message?: string) => void;
  /** Upload progress 0..1 (null hides the bar). */
  progress: (fraction: number | null) => void;
  hide: () => void;
};

const LoadingContext = createContext<LoadingApi | null>(null);

export function useLoading(): LoadingApi {
  const api = useContext(LoadingContext);
  if (!api) throw new Error('useLoading outside LoadingProvider');
  return api;
}

/** Global loading overlay 'Memuat...' asking not to close the page; may carry a message and progress. */
export function LoadingProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<LoadingState>(null);
  const show = useCallback((message?: string) => setState({ message, progress: null }), []);
  const progress = useCallback(
    (fraction: number | null) => setState((s) => (s ? { ...s, progress: fraction } : s)),
    [],
  );
  const hide = useCallback(() => setState(null), []);
  const api = useMemo(() => ({ show, progress, hide }), [show, progress, hide]);
  const percent = state?.progress == null ? null : Math.round(state.progress * 100);
  return (
    <LoadingContext.Provider value={api}>
      {children}
      {state && (
        <Box
          position="fixed"
          inset="0"
          zIndex="overlay"
          bg="blackAlpha.600"
          display="flex"
          alignItems="center"
          justifyContent="center"
          p="4"
          aria-busy="true"
        >
          <Stack
            role="status"
            aria-live="polite"
            bg="bg.panel"
            rounded="lg"
            shadow="lg"
            p="6"
            gap="3"
            align="center"
            textAlign="center"
            maxW="sm"
            w="full"
          >
            <Spinner size="lg" color="brand.solid" />
            <Text fontWeight="semibold" fontSize="lg">
              {UI_MESSAGES.loading}
            </Text>
            <Text color="fg.muted">{UI_MESSAGES.loadingHint}</Text>
            {state.message && <Text>{state.message}</Text>}
            {percent !== null && (
              <Box w="full">
                <Box
                  role="progressbar"
                  aria-label="Kemajuan unggahan"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  h="2"
                  bg="brand.muted"
                  rounded="full"
                  overflow="hidden"
                >
                  <Box h="full" bg="brand.solid" width={`${percent}%`} transition="width 0.2s" />
                </Box>
                <Text mt="1" fontSize="sm">
                  {percent}%
                </Text>
              </Box>
            )}
          </Stack>
        </Box>
      )}
    </LoadingContext.Provider>
  );
}
