/**
 * Test databases on the machine's PostgreSQL (127.0.0.1:5432, trust auth; `TEST_POSTGRES_URL`
 * overrides): each test run gets a database of its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDatabase = { url: string; drop(): Promise<void> };

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `wbs_store_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/** Both engines the store runs on, for `describe.each`. */
export const ENGINES = [{ engine: 'postgresql' as const }, { engine: 'pglite' as const }];

/** Runs one statement on a test database (e2e journeys that must alter the store behind the gateway). */
export async function queryTestDatabase<T extends Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The environment of a test app on `engine`: for PostgreSQL a database of its own (dropped by
 * `drop`) and a fresh store key; for PGlite the in-memory default.
 */
export async function storeTestEnv(
  engine: (typeof ENGINES)[number]['engine'],
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (engine === 'pglite') return { env: {}, drop: async () => {} };
  const database = await createTestDatabase();
  return {
    env: { DATABASE_URL: database.url, STORE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` },
    drop: () => database.drop(),
  };
}
