import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './AppRoot.tsx';

/** Starts the app in #root; `onStarted` runs once its first render is on screen. */
export function start(onStarted?: () => void): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  // A guest's landing page arrives prerendered (web/vite.config.ts): its markup is hydrated, not
  // replaced. As a transition, the first render yields to the browser every few milliseconds instead
  // of holding the main thread for the whole tree (a phone's taps and paints are not blocked).
  const guest = root.dataset.prerendered === 'guest';
  const app = (
    <StrictMode>
      <AppRoot guest={guest} onStarted={onStarted} />
    </StrictMode>
  );
  startTransition(() => {
    if (guest) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
}
