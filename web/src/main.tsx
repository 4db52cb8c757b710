import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './AppRoot.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

// The public pages arrive prerendered (web/scripts/prerender.ts): their markup is hydrated, not
// replaced. As a transition, the first render yields to the browser every few milliseconds instead
// of holding the main thread for the whole tree (a phone's taps and paints are not blocked).
const guest = root.dataset.prerendered === 'guest';
const app = (
  <StrictMode>
    <AppRoot guest={guest} />
  </StrictMode>
);
startTransition(() => {
  if (guest) hydrateRoot(root, app);
  else createRoot(root).render(app);
});
