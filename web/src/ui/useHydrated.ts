import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while the markup comes from the build (prerender.tsx) or is being hydrated, true in every
 * render after that: React renders the server snapshot during hydration, so the hydrated tree matches
 * the prerendered markup, and re-renders with `true` right after. A page rendered in the browser from
 * the start (createRoot) is true from its first render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
