import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './AppRoot.tsx';
import { replayHeldTaps } from './earlyTaps.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

// A guest's landing page arrives prerendered (web/vite.config.ts): its markup is hydrated, not
// replaced. As a transition, the first render yields to the browser every few milliseconds instead
// of holding the main thread for the whole tree (a phone's taps and paints are not blocked).
const guest = root.dataset.prerendered === 'guest';
// `data-started` marks the moment the app handles the page (browser journeys wait for it).
const started = () => {
  root.dataset.started = '';
  replayHeldTaps();
};
const app = (
  <StrictMode>
    <AppRoot guest={guest} onStarted={started} />
  </StrictMode>
);
startTransition(() => {
  if (guest) hydrateRoot(root, app);
  else createRoot(root).render(app);
});
