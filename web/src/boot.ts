/**
 * The page's entry, kept tiny. A prerendered page (a guest's /, /case/create or /admin/checkcase) is
 * painted from its markup alone, so the app's code is fetched and run only after that first paint: on
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

if (document.getElementById('root')?.dataset.prerendered) await afterPaint();
await import('./main.tsx');
