/**
 * Serves the built web app (WEB_DIST_DIR) when the folder exists: hashed assets cached for a year,
 * index.html never cached (its Content-Security-Policy, like every reply's, comes from
 * security-headers.ts), and every non-/api GET that matches no file and names no file falls back to
 * index.html (client-side routing). Precompressed .br/.gz twins are preferred when accepted. Skipped silently (one info line) when the folder is missing.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Paths that name a file (`/assets/x.js`, `/favicon.ico`): a missing one is a 404, never the app. */
const looksLikeFile = (path: string) => path.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(path);

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
        const isIndex = path.endsWith('index.html');
        res.header('cache-control', isIndex ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
    });
    app.decorate('spaFallback', (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const path = request.url.split('?')[0] ?? '/';
      if (path === '/api' || path.startsWith('/api/') || path === '/healthz' || path === '/readyz')
        return false;
      // Serving the app for a missing script would leave the browser a blank page (e.g. a stale
      // tab after a deploy); a plain 404 lets it fail visibly.
      if (looksLikeFile(path)) return false;
      reply.header('cache-control', 'no-cache');
      void reply.sendFile('index.html');
      return true;
    });
  },
  { name: 'wbs-static' },
);
