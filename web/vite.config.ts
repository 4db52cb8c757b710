import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
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
 * The landing page, rendered at build time for a guest (src/prerender.tsx) into
 * `dist/prerendered/<path>.html`: the gateway sends it to a visitor without a session cookie
 * (gateway/src/static.ts) and main.tsx hydrates it. Every other route, and a signed-in visitor, gets
 * the empty `index.html` as before.
 *
 * Only pages without form fields: until the app has started (hydrated), a tap on a button does
 * nothing, a form would submit itself natively (Pantau Laporan's number and password into the URL),
 * and this React version does not carry text typed before hydration into the form's state. The
 * wizard and Pantau Laporan therefore stay client-rendered until that is solved.
 */
const PRERENDERED_PAGES: { path: string; file: string }[] = [{ path: '/', file: 'index.html' }];

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
  return {
    name: 'wbs-prerender',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : config.build.outDir;
      cacheDir = join(config.root, 'node_modules', '.cache', 'wbs-prerender');
    },
    async writeBundle() {
      if (!outDir) return;
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
        const html = (await inlineStylesheets(outDir, shell))
          .replace('</head>', `  ${head}\n  </head>`)
          // The page paints from its markup alone: its scripts (hydration) must not be fetched ahead
          // of what the paint needs, nor be taken for render-blocking.
          .replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"')
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
