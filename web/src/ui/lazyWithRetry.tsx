/**
 * Lazily loaded pieces that survive a dropped connection: a failed chunk load is retried with a
 * growing pause, and a piece whose load finally failed can be tried afresh (React.lazy keeps a
 * rejected load for good). A chunk that no longer exists (a deployment while the page was open)
 * keeps failing; the error boundaries then offer to reload the page.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

const RETRY_PAUSES_MS = [400, 1200, 2500];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True for the errors browsers and Vite raise when a script chunk cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|module script|Importing a module script failed|Failed to fetch|preload CSS|error loading dynamically|Unable to preload/i.test(
    error.message,
  );
}

/** Runs `load`, retrying chunk-load failures a few times (a connection that drops for a moment). */
export async function retryImport<T>(load: () => Promise<T>, pauses = RETRY_PAUSES_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const wait = pauses[attempt];
      if (wait === undefined || !isChunkLoadError(error)) throw error;
      await pause(wait);
    }
  }
}

const resetters = new Set<() => void>();

/** Makes every failed lazy piece load afresh on its next render (the boundaries' "Coba lagi"). */
export function resetFailedLazyPieces(): void {
  for (const reset of resetters) reset();
}

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * Like React.lazy, with retries, and renewable after a final failure. `preload()` starts the load
 * early (e.g. the dialogs a submission needs, before it starts) and never rejects.
 */
export function lazyWithRetry<P extends object>(load: Loader<P>) {
  let failed = false;
  const start = () =>
    retryImport(load).catch((error: unknown) => {
      failed = true;
      throw error;
    });
  let current: LazyExoticComponent<ComponentType<P>> = lazy(start);
  let pending: Promise<unknown> | null = null;
  resetters.add(() => {
    if (!failed) return;
    failed = false;
    pending = null;
    current = lazy(start);
  });
  function Resilient(props: P) {
    const Current = current as unknown as ComponentType<P>;
    return <Current {...props} />;
  }
  Resilient.preload = () => {
    pending ??= start().catch(() => undefined);
    return pending;
  };
  return Resilient;
}
