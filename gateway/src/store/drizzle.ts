/**
 * drizzle-orm for the whole gateway, loaded from its CommonJS build. Why not `import`: Node 24
 * loading drizzle's ES modules (hundreds of small files tied by cycles and `export *` chains) made
 * ~150 MB of short-lived garbage and took 0.7–1.8 s; the heap it grew stayed reserved, about 130 MB
 * of every idle gateway process's RSS. The CommonJS build of the same version loads in ~0.3 s with
 * ~10 MB. Every use of drizzle goes through here (tests too), so there is one copy of its classes.
 * Types still come from the package's own declarations.
 */
import { createRequire } from 'node:module';
import type { SQL } from 'drizzle-orm';

const require = createRequire(import.meta.url);

const orm = require('drizzle-orm') as typeof import('drizzle-orm');
export const { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql } = orm;
export type { SQL, SQLWrapper } from 'drizzle-orm';

const pgCore = require('drizzle-orm/pg-core') as typeof import('drizzle-orm/pg-core');
export const {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} = pgCore;
export type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * The rows of a raw statement (`sql`…``): both drivers, node-postgres and PGlite, answer `execute` with
 * `{ rows }`, which drizzle's types do not say. Works on a database and inside a transaction alike.
 */
export async function rowsOf<T>(db: { execute(query: SQL): PromiseLike<unknown> }, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** The PostgreSQL server driver and its migrator. */
export function nodePostgresDriver() {
  return {
    drizzle: (require('drizzle-orm/node-postgres') as typeof import('drizzle-orm/node-postgres')).drizzle,
    migrate: (
      require('drizzle-orm/node-postgres/migrator') as typeof import('drizzle-orm/node-postgres/migrator')
    ).migrate,
  };
}

/** The embedded PGlite driver and its migrator: loaded only by a gateway that runs the embedded store. */
export function pgliteDriver() {
  return {
    PGlite: (require('@electric-sql/pglite') as typeof import('@electric-sql/pglite')).PGlite,
    drizzle: (require('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite')).drizzle,
    migrate: (require('drizzle-orm/pglite/migrator') as typeof import('drizzle-orm/pglite/migrator')).migrate,
  };
}
