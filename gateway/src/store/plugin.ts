/**
 * The gateway's own store as an app plugin: opens the database (PostgreSQL with `DATABASE_URL`, the
 * embedded PGlite otherwise), runs the migrations before the app accepts requests, decorates
 * `app.store`, and closes it when the app closes. /readyz asks `app.store.ping`.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { StoreSettings } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { type Database, openEmbedded, openPostgres, type StoreDb } from './database.ts';
import { type Sealer, sealer } from './keyring.ts';

export type Store = {
  db: StoreDb;
  engine: Database['engine'];
  sealer: Sealer;
  ping(timeoutMs: number): Promise<boolean>;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
}

/** Runs a store query; a failing database becomes a neutral 503 (the cause goes to the ops log only). */
export async function storeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiProblem) throw error;
    throw new ApiProblem('store-unavailable', { cause: error });
  }
}

export const storePlugin = fp(
  async (app: FastifyInstance, opts: { settings: StoreSettings }) => {
    const { settings } = opts;
    const database = settings.databaseUrl
      ? await openPostgres(settings.databaseUrl, (error) =>
          app.log.warn({ err: { message: error.message } }, 'store: idle database connection failed'),
        )
      : await openEmbedded(settings.dataDir);
    app.log.debug({ engine: database.engine }, 'store open, migrations applied');
    app.decorate('store', {
      db: database.db,
      engine: database.engine,
      sealer: sealer(settings.keys),
      ping: database.ping,
    } satisfies Store);
    app.addHook('onClose', async () => {
      await database.close();
    });
  },
  { name: 'wbs-store' },
);
