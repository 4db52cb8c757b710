/**
 * `buildTestApp()`: the real gateway (same buildApp as production) in front of an in-memory
 * legacy-sim (scripts/legacy-sim, test knobs on) on a random loopback port, with a generous legacy
 * timeout. Logs go to an array for assertions.
 */
import { Writable } from 'node:stream';
import { createLegacySim, type DemoAccount, demoAccounts } from '@wbs/legacy-sim';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { RegisteredRoute } from '../policies/plugin.ts';

export { demoAccounts };

/** legacy-sim's demo account with this username; throws when the seed has none. */
export function demoAccount(username: string): DemoAccount {
  const account = demoAccounts.find((a) => a.username === username);
  if (!account) throw new Error(`no demo account ${username}`);
  return account;
}
export const TEST_SECRET = 'test-session-secret-0123456789-abcdefghijkl';
export const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
export const ORIGIN = 'http://localhost';

export type TestApp = {
  app: FastifyInstance;
  legacy: Awaited<ReturnType<typeof createLegacySim>>;
  logs: Record<string, unknown>[];
  routes: RegisteredRoute[];
  close(): Promise<void>;
};

export async function buildTestApp(
  env: Record<string, string> = {},
  legacyOptions: { tokenTtlSeconds?: number } = {},
): Promise<TestApp> {
  const legacy = await createLegacySim({ testKnobs: true, ...legacyOptions });
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
    LEGACY_API_URL: legacy.apiUrl,
    // Generous: a loaded CI machine must not turn a slow answer into a 504. Tests of the timeout
    // itself set their own short bound.
    LEGACY_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'debug',
    // Suites submit far more than a reporter would from one address; flood tests set their own limits.
    CASE_SUBMISSIONS_MAX_PER_CLIENT: '100000',
    CASE_LOGS_MAX_PER_CLIENT: '100000',
    CASE_SUBMISSIONS_MAX_GLOBAL: '1000000',
    CASE_LOGS_MAX_GLOBAL: '1000000',
    STORE_DATA_DIR: 'memory://',
    // Jobs start only where a test asks for them (a queue's tables cost each app a second).
    JOBS_ENABLED: 'false',
    // The second factor has its own tests (routes/second-factor, routes/own-second-factors) and the
    // black-box suites run with the production default; route tests of everything else sign in with
    // a password alone. A test of the gate passes SECOND_FACTOR_TYPES itself.
    SECOND_FACTOR_TYPES: 'none',
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

/**
 * Signs demo accounts in once and keeps their cookies: `login(username)` answers the cookie. `app` is
 * read at each call (suites build their app in beforeAll).
 */
export function demoLogins(app: () => FastifyInstance): (username: string) => Promise<string> {
  const cookies = new Map<string, string>();
  return async (username) => {
    const hit = cookies.get(username);
    if (hit) return hit;
    const cookie = await signIn(app(), username, demoAccount(username).password);
    cookies.set(username, cookie);
    return cookie;
  };
}

export async function signInAs(app: FastifyInstance, userTypeId: number): Promise<string> {
  const account = demoAccounts.find((a) => a.userTypeId === userTypeId && !a.initPassword);
  if (!account) throw new Error(`no demo account of type ${userTypeId}`);
  return signIn(app, account.username, account.password);
}

/** A legacy reply envelope. */
export type LegacyEnvelope<T = unknown> = { code: number; message: string[]; data: T };

/**
 * Calls legacy-sim directly (not through the gateway), signed in as a demo account (default the
 * type-1 `admin`): for set-up and checks the gateway does not offer. legacy-sim enforces no role or
 * scope, so any account's token may do anything.
 */
export async function legacyCall<T = unknown>(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  username = 'admin',
): Promise<LegacyEnvelope<T>> {
  const send = async (m: string, p: string, b: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (b !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${t.legacy.apiUrl}${p}`, {
      method: m,
      headers,
      ...(b === undefined ? {} : { body: JSON.stringify(b) }),
    });
    if (res.status !== 200) throw new Error(`legacy ${m} ${p} answered ${res.status}`);
    return (await res.json()) as LegacyEnvelope<never>;
  };
  const { password } = demoAccount(username);
  const login = await send('POST', '/JwtAuth/Login', { userName: username, password });
  const data = (login.data ?? {}) as Record<string, { token?: string } | string | undefined>;
  const token =
    typeof data.token === 'string'
      ? data.token
      : Object.values(data).find((v): v is { token: string } => typeof v === 'object' && !!v?.token)?.token;
  if (login.code !== 1 || !token) throw new Error(`legacy sign-in of ${username} failed`);
  return send(method, path, body, token) as Promise<LegacyEnvelope<T>>;
}

/** Headers of a same-origin browser request carrying a session cookie. */
export const browser = (cookie: string) => ({ cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' });

/** Every Redis key of one test namespace (below the gateway's `wbs:gw:` prefix), for checks and clean-up. */
export async function redisKeys(redis: Pick<Redis, 'scan'> | null, namespace: string): Promise<string[]> {
  if (!redis) return [];
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `wbs:gw:${namespace}:*`, 'COUNT', 500);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}
