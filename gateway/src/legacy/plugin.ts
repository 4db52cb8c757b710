/** Decorates the app with the legacy client and each request with `request.legacy`, bound to it. */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Dispatcher } from 'undici';
import type { Config } from '../config.ts';
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
     * The legacy API for work outside a request (jobs): calls carry `auth` (the service account's
     * token) and a request id of their own, and log to `log`.
     */
    backgroundLegacy(log: FastifyBaseLogger, auth: LegacyAuth | null): LegacyCaller;
    /** Reference lists reused for a short time (./reference-cache.ts). */
    referenceCache: ReferenceCache;
  }
  interface FastifyRequest {
    legacy: LegacyCaller;
  }
}

/** A caller over `client` whose calls carry `ctx` and, unless they name their own, `defaultAuth()`. */
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

export const legacyPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; dispatcher?: Dispatcher }) => {
    const client = new LegacyClient(opts.config, opts.dispatcher);
    app.decorate('legacyClient', client);
    const cache = referenceCache(opts.config.referenceCacheSeconds);
    app.decorate('referenceCache', cache);
    const bound = new WeakMap<FastifyRequest, LegacyCaller>();
    app.decorateRequest('legacy', {
      getter(this: FastifyRequest) {
        let legacy = bound.get(this);
        if (!legacy) {
          legacy = bind(client, cache, this);
          bound.set(this, legacy);
        }
        return legacy;
      },
    });
    app.decorate('backgroundLegacy', (log: FastifyBaseLogger, auth: LegacyAuth | null) =>
      callerOf(
        client,
        cache,
        {
          requestId: randomUUID(),
          log,
          onLatency: () => {},
          onCall: (name, outcome, ms) => app.telemetry?.legacyCall(name, outcome, ms),
        },
        () => auth,
      ),
    );
    app.addHook('onClose', async () => client.close());
  },
  { name: 'wbs-legacy', dependencies: ['wbs-logging'] },
);
