/**
 * `pnpm audit:verify`: opens the store the gateway uses (`DATABASE_URL`, else the embedded database
 * in `STORE_DATA_DIR` or .data/store) and checks the audit chain from the first record to the head.
 * Exit 0 when intact; 1 naming the first broken link; 2 when the store cannot be opened.
 *
 * The embedded database is one process's at a time: stop the gateway before checking it.
 */
import { withCommandLineStore } from '../store/command-line.ts';
import { verifyAuditChain } from './store.ts';

export function runAuditVerify(env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  return withCommandLineStore(env, print, async (database, where) => {
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
  });
}
