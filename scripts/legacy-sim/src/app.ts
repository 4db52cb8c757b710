/** The Fastify app: every legacy call under /api, plus /__sim test knobs when enabled. */
import fastifyJwt from '@fastify/jwt';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuth, signToken } from './auth.ts';
import type { Ctx } from './context.ts';
import { fail, notFound, ok } from './envelope.ts';
import { type Knobs, parseKnobs, registerKnobs } from './knobs.ts';
import { authRoutes } from './routes/auth.ts';
import { caseRoutes } from './routes/cases.ts';
import { dashboardRoutes } from './routes/dashboards.ts';
import { exportRoutes } from './routes/export.ts';
import { masterRoutes } from './routes/master.ts';
import { referenceRoutes } from './routes/reference.ts';
import { staffRoutes } from './routes/staff.ts';
import { MAX_CASE_FILES, MAX_FILE_BYTES } from './seed/constants.ts';
import { generateCases } from './seed/generate.ts';
import type { Regions } from './seed/regions.ts';
import type { Store } from './store/store.ts';

export type AppOptions = {
  store: Store;
  regions: Regions;
  jwtSecret: string;
  tokenTtlSeconds: number;
  testKnobs: boolean;
  logger: boolean;
  knobs: { get(): Knobs; set(knobs: Knobs): void; reset(): Promise<void> };
};

export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; ctx: Ctx }> {
  const app = Fastify({
    // Request bodies are never logged; off by default.
    logger: options.logger ? { level: 'info' } : false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    forceCloseConnections: true,
    bodyLimit: 1_048_576,
  });
  await app.register(fastifyJwt, {
    secret: options.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: options.tokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  await app.register(fastifyMultipart, {
    // One byte over the limit marks a file as too large; one file over the limit trips FilesLimit.
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_CASE_FILES + 1, fields: 200, fieldSize: 1_048_576 },
  });

  const ctx: Ctx = {
    store: options.store,
    regions: options.regions,
    revoked: new Set(),
    tokenTtlSeconds: options.tokenTtlSeconds,
    sign: (user) => signToken(app, user),
  };

  if (options.testKnobs) {
    registerKnobs(app, options.knobs.get);
    app.post('/__sim/knobs', async (request) => {
      options.knobs.set(parseKnobs(request.body));
      return ok(options.knobs.get());
    });
    // Many cases at once, for scale runs (a company with years of history): {count, companyId?,
    // maxAgeDays?, seed?} → the new case ids.
    app.post('/__sim/cases', async (request, reply) => {
      const b = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      const number = (key: string) => (typeof b[key] === 'number' ? (b[key] as number) : undefined);
      try {
        const ids = await generateCases(options.store, {
          count: number('count') ?? 0,
          companyId: number('companyId'),
          maxAgeDays: number('maxAgeDays'),
          seed: number('seed'),
        });
        return ok({ caseIds: ids });
      } catch (error) {
        return reply.code(400).send(fail((error as Error).message));
      }
    });
    app.post('/__sim/reset', async () => {
      await options.knobs.reset();
      ctx.revoked.clear();
      return ok(null, 'reset');
    });
  }
  registerAuth(app, ctx);

  authRoutes(app, ctx);
  referenceRoutes(app, ctx);
  masterRoutes(app, ctx);
  staffRoutes(app, ctx);
  caseRoutes(app, ctx);
  exportRoutes(app, ctx);
  dashboardRoutes(app, ctx);

  app.setNotFoundHandler((_request, reply) => notFound(reply));
  app.setErrorHandler((error, request, reply) => {
    const code = (error as { statusCode?: unknown }).statusCode;
    const status = typeof code === 'number' && code < 500 ? code : 500;
    if (status >= 500) request.log.error({ err: error }, 'legacy-sim error');
    return reply.code(status).send(fail(status >= 500 ? 'Internal Server Error' : 'Bad Request'));
  });
  return { app, ctx };
}
