/**
 * The store of a benchmark's gateway: PGlite in memory, or a database of its own on the PostgreSQL
 * server of BENCH_DATABASE_URL (made here, dropped by `drop`), with a fresh store key.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type BenchStore = {
  /** The gateway's environment for it. */
  env: Record<string, string>;
  engine: 'PGlite' | 'PostgreSQL';
  drop(): Promise<void>;
};

export async function benchStore(label: string): Promise<BenchStore> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) return { env: { STORE_DATA_DIR: 'memory://' }, engine: 'PGlite', drop: async () => {} };
  const name = `wbs_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    env: {
      DATABASE_URL: url.toString(),
      STORE_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    },
    engine: 'PostgreSQL',
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
