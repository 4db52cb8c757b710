/**
 * The gateway as one Fastify plugin: the request-id hook, then the app plugins in this order (errors,
 * metrics, security headers, compression, multipart, uploads, session, logging, legacy client, redis,
 * store, jobs, audit trail, mail, notifications, csrf, policy, clocks, case index, OpenAPI with its UI
 * when docs are on, static files), then the routes. The order matters: hooks run in the order their
 * plugins were registered, so it is the order a request meets them. `buildApp()` creates the Fastify
 * instance around it; server.ts, the tests, the OpenAPI writer and the benchmarks all use it.
 */

import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import fp from 'fastify-plugin';
import type { DestinationStream } from 'pino';
import type { Dispatcher } from 'undici';
import { auditTrailPlugin } from './audit/plugin.ts';
import { caseIndexPlugin } from './case-index/plugin.ts';
import { clocksPlugin } from './clocks/plugin.ts';
import { compressionPlugin } from './compression.ts';
import type { Config } from './config.ts';
import { csrfPlugin } from './csrf.ts';
import { errorsPlugin } from './errors.ts';
import { jobsPlugin } from './jobs/plugin.ts';
import { legacyPlugin } from './legacy/plugin.ts';
import { loggerOptions, loggingPlugin } from './logging.ts';
import { mailPlugin } from './mail/plugin.ts';
import { metricsPlugin } from './metrics.ts';
import { notificationsPlugin } from './notifications/plugin.ts';
import {
  finishDocument,
  REQUEST_ID_PATTERN,
  SECURITY_SCHEMES,
  transformRoute,
} from './openapi-conventions.ts';
import { policyPlugin, type RegisteredRoute } from './policies/plugin.ts';
import { redisPlugin } from './redis.ts';
import { retentionPlugin } from './retention/plugin.ts';
import { routes } from './routes/index.ts';
import { valibotValidatorCompiler } from './schema.ts';
import { secondFactorPlugin } from './second-factor/plugin.ts';
import { securityHeadersPlugin } from './security-headers.ts';
import { sessionPlugin } from './session/plugin.ts';
import { staticPlugin } from './static.ts';
import { storePlugin } from './store/plugin.ts';
import { uploadsPlugin } from './uploads/plugin.ts';

export type AppOptions = {
  config: Config;
  /** Injected undici dispatcher for the legacy client (tests: MockAgent). */
  legacyDispatcher?: Dispatcher;
  /** Sees every registered route with its policy (the policy walk test, OpenAPI checks). */
  onRoute?: (route: RegisteredRoute) => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export const OPENAPI_INFO = {
  title: 'WBS Gateway API',
  version: '1.0.0',
  description:
    'Backend-for-frontend of the WBS whistleblowing system. Cookie session (`wbs_session`), ' +
    'RFC 9457 problem details with Indonesian texts. See docs/api-contract.md.',
  contact: { name: 'WBS team', url: 'https://wbs.example/' },
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};

export const app = fp(
  async (app: FastifyInstance, opts: AppOptions) => {
    const { config } = opts;
    app.decorate('config', config);
    app.setValidatorCompiler(valibotValidatorCompiler);
    // First hook of all, so even refused requests carry their id.
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

    await app.register(errorsPlugin);
    await app.register(metricsPlugin);
    await app.register(securityHeadersPlugin);
    await app.register(compressionPlugin);
    // Only the upload routes read multipart bodies, as streams, each with its own limits (uploads/spool.ts).
    await app.register(multipart);
    await app.register(uploadsPlugin, { settings: config.uploads });
    await app.register(sessionPlugin, { config });
    await app.register(loggingPlugin);
    await app.register(legacyPlugin, { config, dispatcher: opts.legacyDispatcher });
    await app.register(redisPlugin, { config });
    await app.register(storePlugin, { settings: config.store });
    await app.register(secondFactorPlugin);
    await app.register(jobsPlugin, { enabled: config.jobs.enabled, databaseUrl: config.store.databaseUrl });
    await app.register(auditTrailPlugin);
    await app.register(mailPlugin, { settings: config.mail });
    await app.register(notificationsPlugin);
    await app.register(csrfPlugin);
    // The policy plugin sees every route registered after it (and refuses an API route without one).
    await app.register(policyPlugin, { onRoute: opts.onRoute });
    await app.register(clocksPlugin);
    // `app.caseIndex.poll()`: one case-index poll; the job queue schedules it, nothing here does.
    await app.register(caseIndexPlugin);
    // `app.retention.scan()`: one retention scan; the job queue runs it nightly and at start-up.
    await app.register(retentionPlugin);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: OPENAPI_INFO,
        servers: [{ url: '/' }],
        components: { securitySchemes: SECURITY_SCHEMES as never },
      },
      hideUntagged: true,
      // The conventions every operation gets, routes added later included (openapi-conventions.ts).
      transform: transformRoute as never,
      transformObject: (document) =>
        finishDocument((document as { openapiObject: never }).openapiObject) as never,
    });
    if (config.docsEnabled) {
      await app.register(swaggerUi, { routePrefix: '/api/docs' });
    }

    await app.register(staticPlugin, { webDistDir: config.webDistDir });
    await app.register(routes);
  },
  { name: 'wbs-app' },
);

/** Creates the Fastify instance and registers the gateway plugin; not listening yet. */
export async function buildApp(
  opts: AppOptions & { logStream?: DestinationStream },
): Promise<FastifyInstance> {
  const { config } = opts;
  const instance = Fastify({
    logger: opts.logStream
      ? { ...loggerOptions(config.logLevel), stream: opts.logStream }
      : loggerOptions(config.logLevel),
    // A caller's (or proxy's) valid X-Request-Id is kept, so one id follows a request end to end.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    // Our own response line replaces Fastify's request/response lines (see logging.ts).
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // The embedded store's first open creates its database (initdb), which takes seconds on a busy
    // machine; Fastify's default 10 s plugin timeout would stop a first `pnpm start` there.
    pluginTimeout: 120_000,
  });
  await instance.register(app, opts);
  return instance;
}
