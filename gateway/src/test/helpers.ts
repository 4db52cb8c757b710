/**
 * `buildTestApp()`: the real gateway (same buildApp as production) in front of an in-memory legacy
 * on a random loopback port, with a short legacy timeout. Logs go to an array for assertions.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { RegisteredRoute } from '../policies/plugin.ts';
import { createLegacyStandIn, demoAccounts } from './legacy-standin.ts';

export { demoAccounts };
export const TEST_SECRET = 'test-session-secret-0123456789-abcdefghijkl';
export const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
export const ORIGIN = 'http://localhost';

export type TestApp = {
  app: FastifyInstance;
  legacy: Awaited<ReturnType<typeof createLegacyStandIn>>;
  logs: Record<string, unknown>[];
  routes: RegisteredRoute[];
  close(): Promise<void>;
};

export async function buildTestApp(
  env: Record<string, string> = {},
  legacyOptions: { tokenTtlSeconds?: number } = {},
): Promise<TestApp> {
  const legacy = await createLegacyStandIn(legacyOptions);
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const routes: RegisteredRoute[] = [];
  const config = loadConfig({
    SESSION_SECRET: TEST_SECRET,
    SESSION_ENCRYPTION_KEY: TEST_KEY,
    LEGACY_API_URL: legacy.url,
    LEGACY_TIMEOUT_MS: '400',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const app = await buildApp({ config, logStream, onRoute: (r) => routes.push(r) });
  await app.ready();
  return {
    app,
    legacy,
    logs,
    routes,
    async close() {
      await app.close();
      await legacy.close();
    },
  };
}

/** `name=value` of a Set-Cookie header list. */
export function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

export function cookieValue(res: LightMyRequestResponse, name: string): string | undefined {
  for (const c of setCookies(res)) {
    const [pair] = c.split(';');
    const [k, ...rest] = (pair ?? '').split('=');
    if (k === name) return rest.join('=');
  }
  return undefined;
}

/** Signs in through the gateway; returns the Cookie header to send afterwards. */
export async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/session', payload: { username, password } });
  const value = cookieValue(res, 'wbs_session');
  if (res.statusCode !== 200 || !value)
    throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return `wbs_session=${value}`;
}

export async function signInAs(app: FastifyInstance, userTypeId: number): Promise<string> {
  const account = demoAccounts.find((a) => a.userTypeId === userTypeId);
  if (!account) throw new Error(`no demo account of type ${userTypeId}`);
  return signIn(app, account.username, account.password);
}

/** Headers of a same-origin browser request carrying a session cookie. */
export const browser = (cookie: string) => ({ cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
