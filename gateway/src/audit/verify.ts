/**
 * `pnpm audit:verify`: opens the store the gateway uses (`DATABASE_URL`, else the embedded database
 * in `STORE_DATA_DIR` or .data/store) and checks the audit chain from the first record to the head.
 * Exit 0 when intact; 1 naming the first broken link; 2 when the store cannot be opened.
 *
 * The embedded database is one process's at a time: stop the gateway before checking it.
 */
import { DEFAULT_STORE_DATA_DIR } from '../config.ts';
import { type Database, openEmbedded, openPostgres } from '../store/database.ts';
import { verifyAuditChain } from './store.ts';

export async function runAuditVerify(env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  let database: Database;
  const where = env.DATABASE_URL
    ? 'PostgreSQL (DATABASE_URL)'
    : (env.STORE_DATA_DIR ?? DEFAULT_STORE_DATA_DIR);
  try {
    database = env.DATABASE_URL
      ? await openPostgres(env.DATABASE_URL, () => {})
      : await openEmbedded(env.STORE_DATA_DIR ?? DEFAULT_STORE_DATA_DIR);
  } catch (error) {
    print(`Penyimpanan tidak dapat dibuka (${where}): ${(error as Error).message}`);
    return 2;
  }
  try {
    const verdict = await verifyAuditChain(database.db);
    if (verdict.ok) {
      print(`Rantai jejak audit utuh: ${verdict.records} catatan diperiksa (${where}).`);
      return 0;
    }
    print(
      `Rantai jejak audit RUSAK pada catatan #${verdict.broken.seq}: ${verdict.broken.reason} ` +
        `(${verdict.records} catatan sebelumnya utuh; ${where}).`,
    );
    return 1;
  } finally {
    await database.close();
  }
}
