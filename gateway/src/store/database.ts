/**
 * Opens the store's database and brings its schema up to date (drizzle's migrator over the SQL files
 * in migrations/, one dialect for both engines):
 * - `DATABASE_URL` set: a node-postgres pool on that server. Migrations run under a PostgreSQL
 *   advisory lock, so replicas starting together migrate once.
 * - otherwise the embedded PostgreSQL (PGlite, in WASM) in `STORE_DATA_DIR`, or in memory for
 *   `memory://`. In-memory databases start from a migrated template made once per process (an
 *   initdb costs seconds; loading the template a fraction of that), which keeps tests quick.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { nodePostgresDriver, type PgDatabase, type PgQueryResultHKT, pgliteDriver, sql } from './drizzle.ts';
import * as schema from './schema.ts';

export type StoreDb = PgDatabase<PgQueryResultHKT, typeof schema>;
type PGlite = InstanceType<ReturnType<typeof pgliteDriver>['PGlite']>;

export type Database = {
  db: StoreDb;
  engine: 'postgresql' | 'pglite';
  /**
   * The embedded database's one connection, for the job queue (jobs/plugin.ts), which keeps its own
   * tables beside the store's; null on a server, where the queue opens its own small pool.
   */
  embedded: PGlite | null;
  /** Answers whether the database takes a query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

export const MEMORY_DATA_DIR = 'memory://';
const MIGRATIONS = { migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)) };
/** Any constant: the advisory lock id every replica takes while migrating. */
const MIGRATION_LOCK_ID = 0x57_42_53_01;

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const pingOf = (db: StoreDb) => async (timeoutMs: number) => {
  try {
    return (await withTimeout(db.execute(sql`select 1`), timeoutMs)) !== 'timeout';
  } catch {
    return false;
  }
};

export async function openPostgres(url: string, onPoolError: (error: Error) => void): Promise<Database> {
  const { drizzle: drizzleNodePg, migrate: migrateNodePg } = nodePostgresDriver();
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A stuck statement must not hold a request (or a shutdown) forever.
    statement_timeout: 10_000,
    application_name: 'wbs-gateway',
    // No JIT compilation (docs/adr/0070-store-queries-without-jit.md): the store's statements read at
    // most a company's reports, where compiling cost more than it saved (60 ms of the overdue filter's
    // 200 at 100,000 reports).
    options: '-c jit=off',
  });
  // An idle client losing its server emits on the pool; unhandled, that would end the process.
  pool.on('error', onPoolError);
  // A checked-out client (inside a transaction, between its statements) emits on itself instead, and
  // nothing else listens there: a server restart or a killed connection ended the whole process (and
  // every request in it), and made a draining worker exit 1. Its pending or next query fails anyway
  // (that request answers 503), and the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await migrateNodePg(drizzleNodePg({ client, schema }), MIGRATIONS);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const db = drizzleNodePg({ client: pool, schema });
  return { db, engine: 'postgresql', embedded: null, ping: pingOf(db), close: () => pool.end() };
}

let memoryTemplate: Promise<Blob> | undefined;

/** Names the template after the migrations it holds, so a new migration makes a new template. */
function templateFile(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS.migrationsFolder).sort()) {
    if (name.endsWith('.sql'))
      hash.update(name).update(readFileSync(join(MIGRATIONS.migrationsFolder, name)));
  }
  hash.update(readFileSync(join(MIGRATIONS.migrationsFolder, 'meta', '_journal.json')));
  return join(tmpdir(), `wbs-store-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * A migrated empty database for every in-memory store to start from: made once (an initdb), kept
 * in the system's temp folder for later processes (test workers), and in memory for this one.
 */
function migratedTemplate(): Promise<Blob> {
  memoryTemplate ??= (async () => {
    const file = templateFile();
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not made yet (or unreadable): make it.
    }
    const { PGlite, drizzle: drizzlePglite, migrate: migratePglite } = pgliteDriver();
    const client = await PGlite.create();
    try {
      await migratePglite(drizzlePglite({ client, schema }), MIGRATIONS);
      const dump = await client.dumpDataDir('none');
      // Written aside and renamed: a parallel process never reads half a template.
      const partial = `${file}.${randomUUID()}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    } finally {
      await client.close();
    }
  })();
  memoryTemplate.catch(() => {
    memoryTemplate = undefined;
  });
  return memoryTemplate;
}

export async function openEmbedded(dataDir: string): Promise<Database> {
  const { PGlite, drizzle: drizzlePglite, migrate: migratePglite } = pgliteDriver();
  let client: InstanceType<typeof PGlite>;
  if (dataDir === MEMORY_DATA_DIR) {
    client = await PGlite.create({ loadDataDir: await migratedTemplate() });
  } else {
    mkdirSync(dataDir, { recursive: true });
    client = await PGlite.create({ dataDir });
  }
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, MIGRATIONS);
    return { db, engine: 'pglite', embedded: client, ping: pingOf(db), close: () => client.close() };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
