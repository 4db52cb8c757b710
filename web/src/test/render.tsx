/**
 * Renders a screen as the app does: Chakra's theme, a fresh SWR cache per render that asks again at
 * once, then the loading overlay and the confirm dialog, optionally under a router at a path.
 * Test-only: imported by *.test.tsx files alone, never by the app.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType, ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { system } from '../theme.ts';
import { ConfirmProvider } from '../ui/ConfirmDialog.tsx';
import { LoadingProvider } from '../ui/LoadingOverlay.tsx';

type Wrapper = ComponentType<{ children: ReactNode }>;

export type ProviderOptions = {
  /**
   * The LoadingProvider; another copy of it (a test that re-imports the app after
   * `vi.resetModules()` passes the fresh module's, whose context the fresh app reads), or none.
   */
  loading?: Wrapper | false;
  /** The ConfirmProvider, another copy of it, or none. */
  confirm?: Wrapper | false;
  /** More SWR settings over the fresh cache and `dedupingInterval: 0` (the app's `onError`, say). */
  swr?: SWRConfiguration;
};

const Pass: Wrapper = ({ children }) => children;

export function renderWithProviders(node: ReactNode, options: ProviderOptions = {}) {
  const Loading = options.loading === false ? Pass : (options.loading ?? LoadingProvider);
  const Confirm = options.confirm === false ? Pass : (options.confirm ?? ConfirmProvider);
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, ...options.swr }}>
        <Loading>
          <Confirm>{node}</Confirm>
        </Loading>
      </SWRConfig>
    </ChakraProvider>,
  );
}

/** As renderWithProviders, inside a router that starts at `path`; returns its location (history recorded). */
export function renderAt(path: string, node: ReactNode, options: ProviderOptions = {}) {
  const location = memoryLocation({ path, record: true });
  renderWithProviders(
    <Router hook={location.hook} searchHook={location.searchHook}>
      {node}
    </Router>,
    options,
  );
  return location;
}

/** After each test: unmount, give `fetch` and other stubbed globals back, forget the mocks' calls. */
export function cleanUp() {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
}

/**
 * The heading of a page reached by a route: pages are lazy modules, which a loaded machine may take
 * longer than Testing Library's 1 s default to load in a test.
 */
export const findPage = (name: string) => screen.findByRole('heading', { name }, { timeout: 5_000 });
