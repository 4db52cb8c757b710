/**
 * The store as an operator's command opens it (`pnpm audit:verify`, `pnpm second-factor:reset`): the
 * one the gateway uses (`DATABASE_URL`, else the embedded database in `STORE_DATA_DIR` or .data/store),
 * closed again afterwards. Exit code 2 when it cannot be opened. The embedded database is one process's
 * at a time: the gateway must be stopped first.
 */
import { DEFAULT_STORE_DATA_DIR } from '../config.ts';
import { type Database, openEmbedded, openPostgres } from './database.ts';

export async function withCommandLineStore(
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
  work: (database: Database, where: string) => Promise<number>,
): Promise<number> {
  const where = env.DATABASE_URL
    ? 'PostgreSQL (DATABASE_URL)'
    : (env.STORE_DATA_DIR ?? DEFAULT_STORE_DATA_DIR);
  let database: Database;
  try {
    database = env.DATABASE_URL
      ? await openPostgres(env.DATABASE_URL, () => {})
      : await openEmbedded(env.STORE_DATA_DIR ?? DEFAULT_STORE_DATA_DIR);
  } catch (error) {
    print(`Penyimpanan tidak dapat dibuka (${where}): ${(error as Error).message}`);
    return 2;
  }
  try {
    return await work(database, where);
  } finally {
    await database.close();
  }
}
