/**
 * Serves the built web app (WEB_DIST_DIR) when the folder exists: hashed assets cached for a year,
 * HTML never cached (its Content-Security-Policy, like every reply's, comes from
 * security-headers.ts), and every non-/api GET that matches no file and names no file falls back to
 * index.html (client-side routing). A public page the build prerendered for guests
 * (`prerendered/<path>.html`, web/vite.config.ts) is sent instead of index.html to a visitor without a
 * session cookie: it paints before any script runs. Precompressed .br/.gz twins are preferred when
 * accepted. Skipped silently (one info line) when the folder is missing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from './session/plugin.ts';

/** Paths that name a file (`/assets/x.js`, `/favicon.ico`): a missing one is a 404, never the app. */
const looksLikeFile = (path: string) => path.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(path);

const PRERENDERED = 'prerendered';

/** The prerendered pages of the build by URL path (`/` → `prerendered/index.html`), read once at start. */
function prerenderedPages(root: string): Map<string, string> {
  const dir = join(root, PRERENDERED);
  const pages = new Map<string, string>();
  if (!existsSync(dir)) return pages;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/');
    const path = `/${file.slice(PRERENDERED.length + 1, -'.html'.length)}`;
    pages.set(path === '/index' ? '/' : path, file);
  }
  return pages;
}

export const staticPlugin = fp(
  async (app: FastifyInstance, opts: { webDistDir: string | undefined }) => {
    const root = opts.webDistDir ? resolve(opts.webDistDir) : undefined;
    const enabled = root !== undefined && existsSync(join(root, 'index.html'));
    if (!enabled) {
      if (root) app.log.info({ webDistDir: root }, 'web app not served: no index.html there');
      app.decorate('spaFallback', () => false);
      return;
    }
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text asset (web/vite.config.ts): served to browsers that
      // accept them, with Vary: Accept-Encoding; the plain file otherwise.
      preCompressed: true,
      setHeaders(res, path) {
        // `path` is the file sent: for a compressed reply its .br/.gz twin.
        const isHtml = /\.html(?:\.br|\.gz)?$/.test(path);
        res.header('cache-control', isHtml ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
    });
    const prerendered = prerenderedPages(root);
    app.decorate('spaFallback', (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const path = request.url.split('?')[0] ?? '/';
      if (path === '/api' || path.startsWith('/api/') || path === '/healthz' || path === '/readyz')
        return false;
      // Serving the app for a missing script would leave the browser a blank page (e.g. a stale
      // tab after a deploy); a plain 404 lets it fail visibly.
      if (looksLikeFile(path)) return false;
      reply.header('cache-control', 'no-cache');
      // The prerendered markup is a guest's page: with a session (or a stale cookie) the app renders
      // from the empty shell as before. The cookie decides which HTML comes back, hence Vary.
      const page = prerendered.get(path);
      if (page) reply.header('vary', 'Cookie');
      void reply.sendFile(page && !request.cookies[SESSION_COOKIE] ? page : 'index.html');
      return true;
    });
  },
  { name: 'wbs-static' },
);
