/**
 * The gateway's own store as an app plugin: opens the database (PostgreSQL with `DATABASE_URL`, the
 * embedded PGlite otherwise), runs the migrations, decorates `app.store`, and closes it when the app
 * closes. /readyz asks `app.store.ping`.
 *
 * A server or a data folder is opened before the app accepts requests (a broken database or a
 * failed migration stops the start). An in-memory store (`memory://`, tests and the OpenAPI writer)
 * opens on first use instead, so apps that never touch it do not pay for a database.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StoreSettings } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { type BindingTable, type CaseBinder, caseBinder, loadBindingKey } from './case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres, type StoreDb } from './database.ts';
import { type Sealer, sealer } from './keyring.ts';

/** What the store's queries work with: the typed database, the key ring and the case binder. */
export type Store = {
  db: StoreDb;
  engine: Database['engine'];
  sealer: Sealer;
  cases: CaseBinder;
  /** The embedded database's connection (null on a PostgreSQL server): the job queue shares it. */
  embedded: Database['embedded'];
};

export type StoreAccess = {
  /** The open store (opening it first when it is opened on first use). */
  open(): Promise<Store>;
  /** Whether the store answers a query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: StoreAccess;
  }
}

/**
 * Runs store queries for a request; a failing database (or a row that no key opens) becomes a
 * neutral 503, the cause going to the ops log only.
 */
export async function storeCall<T>(request: FastifyRequest, work: (store: Store) => Promise<T>): Promise<T> {
  try {
    return await work(await request.server.store.open());
  } catch (error) {
    if (error instanceof ApiProblem) throw error;
    throw new ApiProblem('store-unavailable', { cause: error });
  }
}

export const storePlugin = fp(
  async (app: FastifyInstance, opts: { settings: StoreSettings }) => {
    const { settings } = opts;
    const keys = sealer(settings.keys);
    const connect = () =>
      settings.databaseUrl
        ? openPostgres(settings.databaseUrl, (error) =>
            app.log.warn({ err: { message: error.message } }, 'store: idle database connection failed'),
          )
        : openEmbedded(settings.dataDir);
    // Rows of another incarnation of a case (a reissued legacy id) are left out of every read: an
    // operator should learn of it (a restored legacy backup?), never a reader.
    const onMismatch = (table: BindingTable, ref: { companyId: number; caseId: number }, rows: number) => {
      app.log.warn(
        { table, companyId: ref.companyId, caseId: ref.caseId, rows },
        'store: rows of another incarnation of this case left out',
      );
      if (app.hasDecorator('telemetry')) app.telemetry.caseBindingMismatch(table, rows);
    };
    type Opened = Database & { cases: CaseBinder };
    let opening: Promise<Opened> | undefined;
    let closed = false;
    const database = () => {
      if (closed) return Promise.reject(new Error('store closed'));
      opening ??= connect().then(
        async (opened) => {
          try {
            const cases = caseBinder(await loadBindingKey(opened.db, keys), onMismatch);
            app.log.debug({ engine: opened.engine }, 'store open, migrations applied');
            return { ...opened, cases };
          } catch (error) {
            await opened.close().catch(() => {});
            throw error;
          }
        },
        (error) => {
          opening = undefined;
          throw error;
        },
      );
      return opening;
    };
    if (settings.databaseUrl || settings.dataDir !== MEMORY_DATA_DIR) await database();

    app.decorate('store', {
      async open() {
        const opened = await database();
        return {
          db: opened.db,
          engine: opened.engine,
          sealer: keys,
          cases: opened.cases,
          embedded: opened.embedded,
        };
      },
      async ping(timeoutMs) {
        try {
          return await (await database()).ping(timeoutMs);
        } catch {
          return false;
        }
      },
    } satisfies StoreAccess);
    app.addHook('onClose', async () => {
      closed = true;
      const pending = opening;
      opening = undefined;
      if (pending) await (await pending.catch(() => null))?.close();
    });
  },
  { name: 'wbs-store' },
);
