/**
 * Security headers of every reply (app, API, downloads, refusals), set in an `onRequest` hook
 * (registered first, so even a 401 or a CSRF refusal carries them). Their values are @fastify/helmet's
 * for our options, taken once at start: the plugin builds a new helmet middleware on every request
 * (parsing the CSP directives each time) for headers that never change between requests.
 * - Content-Security-Policy: the web app's same-origin-only policy (`WEB_CSP`,
 * docs/adr/0001-no-reporter-data-in-urls-or-storage.md)
 *   on every reply; downloads replace it with their own sandboxing policy (routes/cases/files.ts);
 * - X-Frame-Options DENY, Referrer-Policy no-referrer, X-Content-Type-Options nosniff;
 * - Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy same-origin (no other site keeps a
 *   handle on a reporter's window or embeds our replies);
 * - Permissions-Policy: every powerful browser feature the app never uses is off;
 * - Strict-Transport-Security only on a reply served over https: the request itself arrived over TLS,
 *   or through a trusted proxy (`TRUST_PROXY`) that says `X-Forwarded-Proto: https`. On plain http
 *   (local runs, tests) the header would be ignored by browsers anyway, and sending it for
 *   `localhost` would pin developers' browsers to https.
 * API replies are never cached unless the route says otherwise.
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The web app's Content-Security-Policy: everything from this origin only, so even an injected tag
 * cannot make a reporter's browser call another host (fonts and assets are bundled). Styles allow
 * inline because the UI library injects its styles at run time; scripts do not (the build has none
 * inline). Images allow data:/blob: for the generated PDF and chart exports.
 */
export const WEB_CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The same policy as one header value. */
export const WEB_CSP = Object.entries(WEB_CSP_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join('; ');

/**
 * Browser features the app never uses, switched off for this origin and anything it might embed.
 * Passkeys (the second factor) are used by this origin itself: its own documents only, never a frame
 * of another origin.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** One year; no includeSubDomains or preload: other hosts of the utility's domain are not ours to pin. */
export const HSTS = 'max-age=31536000';

export const HELMET_OPTIONS: FastifyHelmetOptions = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: WEB_CSP_DIRECTIVES },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
};

/** Headers any Fastify reply has without helmet: not part of what helmet adds. */
const NOT_HELMET = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/** The headers @fastify/helmet sends with `options`, read off one reply of a throwaway instance. */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const res = await probe.inject({ method: 'GET', url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (!NOT_HELMET.has(name) && value !== undefined) headers[name] = String(value);
    }
    return headers;
  } finally {
    await probe.close();
  }
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const fixed = { ...(await helmetHeaders(HELMET_OPTIONS)), 'permissions-policy': PERMISSIONS_POLICY };
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(fixed);
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'wbs-security-headers' },
);
