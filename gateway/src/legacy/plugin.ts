/** Decorates the app with the legacy client and each request with `request.legacy`, bound to it. */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Dispatcher } from 'undici';
import type { Config } from '../config.ts';
import { decorateRequestOnce } from '../request-once.ts';
import {
  type CallContext,
  type LegacyAuth,
  type LegacyCall,
  LegacyClient,
  type LegacyResult,
  type StreamCall,
  type TableCall,
  type TableResult,
} from './client.ts';
import { type ReferenceCache, referenceCache } from './reference-cache.ts';
import { type ServiceAccount, serviceAccount } from './service-account.ts';

/** `auth` defaults to the caller's session (or forced-change ticket); `null` sends no token. */
type Bound<C> = Omit<C, 'auth'> & { auth?: LegacyAuth | null };

/**
 * The legacy API as one request may call it (its token, request id, logs and metrics bound in): what
 * the repository functions of this folder take. Nothing else of the request comes with it.
 */
export type LegacyCaller = {
  call<T>(call: Bound<LegacyCall<T>>): Promise<LegacyResult<T>>;
  /** A reference list's `data`, reused under `key` for a short time (./reference-cache.ts). */
  reference<T>(key: string, call: Bound<LegacyCall<T>>): Promise<T>;
  /** Any value derived from reference lists, reused under `key` like them. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets `key` in this process (the gateway just changed that list). */
  forget(key: string): void;
  table<T>(call: Bound<TableCall<T>>): Promise<TableResult<T>>;
  stream(call: Bound<StreamCall>): Promise<Dispatcher.ResponseData>;
};

declare module 'fastify' {
  interface FastifyInstance {
    legacyClient: LegacyClient;
    /**
     * The gateway's own legacy account (LEGACY_SERVICE_USERNAME), one per app so its token is signed
     * for once and shared by every job and route that needs it.
     */
    serviceAccount: ServiceAccount;
    /** Reference lists reused for a short time (./reference-cache.ts). */
    referenceCache: ReferenceCache;
  }
  interface FastifyRequest {
    legacy: LegacyCaller;
  }
}

/** A caller over the app's client and cache whose calls carry `ctx` and, unless they name their own, `defaultAuth()`. */
function callerOf(
  client: LegacyClient,
  cache: ReferenceCache,
  ctx: CallContext,
  defaultAuth: () => LegacyAuth | null,
): LegacyCaller {
  const withAuth = <C extends { auth?: LegacyAuth | null }>(call: C) => ({
    ...call,
    auth: call.auth === undefined ? defaultAuth() : call.auth,
  });
  return {
    call: (call) => client.call(ctx, withAuth(call)),
    reference: (key, call) => cache.get(key, async () => (await client.call(ctx, withAuth(call))).data),
    cached: (key, load) => cache.get(key, load),
    forget: (key) => cache.invalidate(key),
    table: (call) => client.table(ctx, withAuth(call)),
    stream: (call) => client.stream(ctx, withAuth(call)),
  };
}

function bind(client: LegacyClient, cache: ReferenceCache, request: FastifyRequest): LegacyCaller {
  const ctx: CallContext = {
    requestId: request.id,
    log: request.log,
    onLatency: (ms) => {
      request.legacyMs += ms;
      request.legacyCalls += 1;
    },
    onCall: (name, outcome, ms) => request.server.telemetry?.legacyCall(name, outcome, ms),
  };
  return callerOf(client, cache, ctx, () => request.session?.auth ?? request.passwordChange?.auth ?? null);
}

/**
 * The legacy API for work outside any request (the case-index watcher, the notices): the app's client
 * and reference cache, calls logged on `log` under `requestId` and counted in the app's metrics. No
 * token is sent unless a call names one (see `withToken`).
 */
export function backgroundLegacy(
  app: FastifyInstance,
  context: { requestId: string; log: FastifyBaseLogger },
): LegacyCaller {
  const ctx: CallContext = {
    requestId: context.requestId,
    log: context.log,
    onCall: (name, outcome, ms) => app.telemetry?.legacyCall(name, outcome, ms),
  };
  return callerOf(app.legacyClient, app.referenceCache, ctx, () => null);
}

/**
 * Runs `work` with the legacy as the gateway's own account reads it (`app.serviceAccount`, its token
 * renewed once when refused): what the jobs outside requests use.
 */
export function asServiceAccount<T>(
  app: FastifyInstance,
  context: { requestId: string; log: FastifyBaseLogger },
  work: (legacy: LegacyCaller) => Promise<T>,
): Promise<T> {
  const legacy = backgroundLegacy(app, context);
  return app.serviceAccount.run(legacy, (auth) => work(withToken(legacy, auth)));
}

/** `legacy` with `auth` sent on every call that names no token of its own (a service account's). */
export function withToken(legacy: LegacyCaller, auth: LegacyAuth): LegacyCaller {
  const own = <C extends { auth?: LegacyAuth | null }>(call: C) =>
    call.auth === undefined ? { ...call, auth } : call;
  return {
    call: (call) => legacy.call(own(call)),
    reference: (key, call) => legacy.reference(key, own(call)),
    cached: (key, load) => legacy.cached(key, load),
    forget: (key) => legacy.forget(key),
    table: (call) => legacy.table(own(call)),
    stream: (call) => legacy.stream(own(call)),
  };
}

export const legacyPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; dispatcher?: Dispatcher }) => {
    const client = new LegacyClient(opts.config, opts.dispatcher);
    app.decorate('legacyClient', client);
    const cache = referenceCache(opts.config.referenceCacheSeconds);
    app.decorate('referenceCache', cache);
    app.decorate('serviceAccount', serviceAccount(opts.config.legacyService));
    decorateRequestOnce(app, 'legacy', (request) => bind(client, cache, request));
    app.addHook('onClose', async () => client.close());
  },
  { name: 'wbs-legacy', dependencies: ['wbs-logging'] },
);
