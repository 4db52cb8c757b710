import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type Rollup } from 'vite';
import { defineConfig } from 'vitest/config';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text-like files worth compressing (images, woff2 and zips are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|ttf|otf|ico|map|webmanifest)$/;

/**
 * Writes `name.br` and `name.gz` beside every compressible file of the build (maximum quality, once,
 * at build time), which the gateway serves to browsers that accept them (@fastify/static
 * `preCompressed`). A file is skipped when small or when compression would save little.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'wbs-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : config.build.outDir;
    },
    async closeBundle() {
      if (!outDir) return;
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name));
      await Promise.all(
        files.map(async (entry) => {
          const path = join(entry.parentPath, entry.name);
          const bytes = await readFile(path);
          if (bytes.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (gz.length > bytes.length * 0.9) return;
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The public pages a guest sees first, rendered at build time for a guest (src/prerender.tsx) into
 * `dist/prerendered/<path>.html`: the gateway sends them to a visitor without a session cookie
 * (gateway/src/static.ts) and main.tsx hydrates them. Every other route, and a signed-in visitor, gets
 * the empty `index.html` as before.
 *
 * A page with a form renders it through HydratedForm (src/ui/HydratedForm.tsx): until the app has
 * started (hydrated), a tap on a button would do nothing, the browser could submit the form natively
 * (Pantau Laporan's number and password into the URL) and text typed would not reach the form's
 * state, so its controls stay disabled until the first render after hydration. `module` is the page's
 * lazily loaded component: its chunks are preloaded with the page instead of after the app starts.
 */
const PRERENDERED_PAGES: { path: string; file: string; module?: string }[] = [
  { path: '/', file: 'index.html' },
  { path: '/case/create', file: 'case/create.html', module: 'src/case/CaseWizardPage.tsx' },
  { path: '/admin/checkcase', file: 'admin/checkcase.html', module: 'src/tracking/CheckCasePage.tsx' },
];

/** The chunks of a lazily loaded module: its own and those it imports statically. */
function chunksOf(bundle: Rollup.OutputBundle, root: string, module: string): string[] {
  const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.facadeModuleId === join(root, module));
  if (!entry) throw new Error(`prerender: no chunk for ${module}`);
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    for (const imported of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? [])
      visit(imported);
  };
  visit(entry.fileName);
  return [...files].map((file) => `/${file}`);
}

/**
 * Runs in the browser as a classic deferred script of a prerendered page (its source is this
 * function's text): asks for the app's scripts only once the page has painted. Fetched with the
 * markup, they would share a slow connection with it and with the fonts the first paint needs. A tab
 * opened in the background paints nothing (no animation frame): the timer starts the app there.
 */
function startAfterFirstPaint() {
  const script = document.currentScript as HTMLScriptElement;
  const { entry = '', preload = '' } = script.dataset;
  // A tap on a button now would do nothing (the app's code is not even asked for yet): it is held
  // from here on and replayed once the app handles the page (src/earlyTaps.ts takes the list over).
  const held: HTMLElement[] = [];
  const hold = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(button);
  };
  document.addEventListener('click', hold, true);
  (window as unknown as { wbsEarlyTaps: unknown }).wbsEarlyTaps = {
    held,
    stop: () => document.removeEventListener('click', hold, true),
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // One insertion: each change of the document costs the browser a pass over its large styles.
    const tags = document.createDocumentFragment();
    const app = document.createElement('script');
    app.type = 'module';
    app.crossOrigin = '';
    app.src = entry;
    tags.append(app);
    for (const href of preload.split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      tags.append(link);
    }
    document.head.append(tags);
  };
  requestAnimationFrame(() => setTimeout(start));
  setTimeout(start, 1000);
}

/**
 * The prerendered page's scripts: the shell's module script and preloads (plus `extra` preloads)
 * replaced by the deferred start script, which loads them after the first paint.
 */
function startAfterPaint(shell: string, startScript: string, extra: string[]): string {
  const entry = shell.match(/<script type="module" crossorigin src="([^"]+)"><\/script>\n?\s*/);
  if (!entry?.[1]) throw new Error('prerender: no module script in index.html');
  const preloads = [...shell.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\n?\s*/g)];
  let html = shell.replace(entry[0], '');
  for (const link of preloads) html = html.replace(link[0], '');
  const hrefs = [...new Set([...preloads.map((link) => link[1] ?? ''), ...extra])].filter(
    (href) => href !== entry[1],
  );
  const tag = `<script defer src="/${startScript}" data-entry="${entry[1]}" data-preload="${hrefs.join(' ')}"></script>`;
  return html.replace('</head>', `  ${tag}\n  </head>`);
}

/**
 * The app's own stylesheet (the font faces, ~1.5 KB) inline instead of linked, so the first paint
 * waits for no second request. The CSP allows inline styles; URLs in it are absolute (/assets/…).
 */
async function inlineStylesheets(outDir: string, html: string): Promise<string> {
  let result = html;
  for (const match of html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g)) {
    const css = await readFile(join(outDir, match[1] ?? ''), 'utf8');
    if (css.includes('</')) throw new Error(`prerender: ${match[1]} cannot be inlined`);
    result = result.replace(match[0], `<style>${css.trim()}</style>`);
  }
  return result;
}

function prerenderPages(): Plugin {
  let outDir = '';
  let cacheDir = '';
  let root = '';
  let startScriptRef = '';
  return {
    name: 'wbs-prerender',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : config.build.outDir;
      cacheDir = join(config.root, 'node_modules', '.cache', 'wbs-prerender');
      root = config.root;
    },
    generateBundle() {
      if (!outDir) return;
      startScriptRef = this.emitFile({
        type: 'asset',
        name: 'start.js',
        source: `(${startAfterFirstPaint.toString()})();\n`,
      });
    },
    async writeBundle(_options, bundle) {
      if (!outDir) return;
      const startScript = this.getFileName(startScriptRef);
      // Rendered by a server build of the same sources (react-dom/server in Node), beside node_modules
      // so its imports resolve.
      await build({
        logLevel: 'warn',
        build: { ssr: 'src/prerender.tsx', outDir: cacheDir, emptyOutDir: true, copyPublicDir: false },
      });
      // Imported by its plain URL: the lazily loaded chunks import the entry back by that URL, and a
      // second instance of it would hold second copies of the app's React contexts.
      const { renderPage } = (await import(
        pathToFileURL(join(cacheDir, 'prerender.js')).href
      )) as typeof import('./src/prerender.tsx');
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      for (const page of PRERENDERED_PAGES) {
        const { head, body } = await renderPage(page.path);
        const lazyChunks = page.module ? chunksOf(bundle, root, page.module) : [];
        // The page paints from its markup alone; its scripts (hydration) are asked for after that.
        const html = startAfterPaint(await inlineStylesheets(outDir, shell), startScript, lazyChunks)
          .replace('</head>', `  ${head}\n  </head>`)
          .replace('<div id="root"></div>', `<div id="root" data-prerendered="guest">${body}</div>`);
        if (!html.includes('data-prerendered'))
          throw new Error('prerender: <div id="root"></div> not found in index.html');
        const target = join(outDir, 'prerendered', page.file);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, html);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), prerenderPages(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // Every browser of the build target supports modulepreload: no polyfill to load and run.
    modulePreload: { polyfill: false },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
