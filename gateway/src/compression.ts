/**
 * Compressed JSON replies (brotli, else gzip) above 1 KB. Built web assets are not compressed here:
 * the build writes `.br`/`.gz` files beside them and static.ts serves those (no CPU per request).
 *
 * Never compressed: anything that is not JSON (downloads are PDFs, images, zips, spreadsheets: already
 * compressed, or attachments whose size should stay as the legacy sent it), and the replies of the
 * routes that hand a reporter's or a user's secrets to the browser (tracking, the complaint number of a
 * new report, session and password), where a reply mixes a secret with text the request chose: a
 * BREACH-style length oracle (docs/adr/0023-compression-and-breach.md). Request bodies are never
 * decompressed (no zip bombs).
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

const JSON_TYPES = /^application\/(?:problem\+)?json(?:;|$)/;

const SECRET_BEARING = [
  /^\/api\/v1\/tracking(?:\/|$)/,
  /^\/api\/v1\/session$/,
  /^\/api\/v1\/password(?:\/|$)/,
];

export function carriesSecrets(route: Pick<RouteOptions, 'url' | 'method'>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (route.url === '/api/v1/cases' && methods.includes('POST')) return true;
  return SECRET_BEARING.some((pattern) => pattern.test(route.url));
}

export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    // Before the plugin's own onRoute hook, which reads `compress` of each route.
    app.addHook('onRoute', (route) => {
      if (carriesSecrets(route)) route.compress = false;
    });
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: 1024,
      customTypes: JSON_TYPES,
      // Quality 4: most of brotli's gain on JSON at a fraction of the default (11)'s CPU.
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'wbs-compression' },
);
