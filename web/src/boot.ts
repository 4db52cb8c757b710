/**
 * The page's entry, kept tiny. A prerendered page (a guest's landing page) is painted from its
 * markup alone, so the app's code is fetched and run only after that first paint: on
 * a slow phone it never delays what the visitor sees. Any other page starts the app at once (the
 * build preloads its code with this file, web/vite.config.ts).
 */
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';

/** After the next frame has been painted (or soon, in a tab the browser does not paint). */
const afterPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

/**
 * A tap on a button of the prerendered page before the app has started would do nothing (the page is
 * only markup until then): it is held, and replayed once the app handles it. Links need no help.
 */
const heldTaps: HTMLElement[] = [];
function holdTap(event: Event) {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  heldTaps.push(button);
}

const prerendered = Boolean(document.getElementById('root')?.dataset.prerendered);
if (prerendered) {
  document.addEventListener('click', holdTap, true);
  await afterPaint();
}
const { start } = await import('./main.tsx');
start(() => {
  document.removeEventListener('click', holdTap, true);
  for (const button of heldTaps.splice(0)) if (button.isConnected) button.click();
});
