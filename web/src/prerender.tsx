/**
 * Build-time rendering of the landing page (web/vite.config.ts runs it after the client build):
 * the markup a guest's first render produces, with the UI library's styles inline, so a phone paints
 * the page before any script has run; main.tsx then hydrates it.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { Router } from 'wouter';
import { AppRoot } from './AppRoot.tsx';

const page = (path: string) => (
  <StrictMode>
    <Router ssrPath={path}>
      <AppRoot guest />
    </Router>
  </StrictMode>
);

/** A prerendered page: style elements for the head and the markup of `#root`. */
export type RenderedPage = { head: string; body: string };

const STYLE_TAG = /<style data-emotion="([^"]+)"[^>]*>([^<]*)<\/style>/g;

/**
 * The UI library's styles, rendered inline before the elements that use them, moved into the head:
 * the parser then styles the page once instead of again after every tag, and the browser's style
 * engine (@emotion/cache) takes them over as they are — global ones by their own tags, the
 * components' classes from one `data-emotion="css id id …"` tag, in the order they were rendered.
 */
function hoistStyles(html: string): RenderedPage {
  const globals: string[] = [];
  const ids: string[] = [];
  const rules: string[] = [];
  const body = html.replace(STYLE_TAG, (_tag, names: string, css: string) => {
    const [key, ...rest] = names.split(' ');
    if (key === 'css-global') globals.push(`<style data-emotion="${names}">${css}</style>`);
    else if (key === 'css') {
      ids.push(...rest);
      rules.push(css);
    } else throw new Error(`prerender: unexpected style key ${key}`);
    return '';
  });
  const components =
    ids.length > 0 ? `<style data-emotion="css ${ids.join(' ')}">${rules.join('')}</style>` : '';
  return { head: globals.join('') + components, body };
}

/**
 * The page's markup. A first pass waits for every lazily loaded piece the page shows; the second
 * renders them all in place. (A streaming render would instead append late pieces with inline
 * scripts that move them, which the Content-Security-Policy forbids.)
 */
export async function renderPage(path: string): Promise<RenderedPage> {
  await prerender(page(path));
  const html = renderToString(page(path));
  if (html.includes('<script') || html.includes('<!--$?-->') || html.includes('<!--$!-->'))
    throw new Error(`prerender of ${path}: a part of the page did not render at build time`);
  const rendered = hoistStyles(html);
  if (rendered.body.includes('<style'))
    throw new Error(`prerender of ${path}: a style was left in the markup`);
  return rendered;
}
