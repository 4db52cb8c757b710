/**
 * One writer at a time per draft (docs/adr/0075-one-writer-per-draft.md). A draft's limits (its
 * form's file count, the count per field, its byte bound) are checked against the files it holds and
 * the new file is recorded in the same step; two creations checking at once would both see room for
 * one more. So every change of a draft's file list runs under this lock:
 * - in this process, a queue per draft: the requests of a burst wait their turn in memory, and hold
 *   at most one database connection per draft while they do;
 * - across processes, when the store is a PostgreSQL server (the only store several gateway processes
 *   can share, docs/deploy.md): a transaction-scoped advisory lock on the draft, taken by whichever
 *   process is first. A process that dies holding it ends its connection, and the lock goes with it.
 * With the embedded store the gateway is one process, and the queue alone is the lock.
 */
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { ApiProblem } from '../errors.ts';
import { sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';

/** Advisory lock namespace of draft writers (any constant; the key is the draft id's hash). */
const DRAFT_LOCK = 0x5752_4e40;

/** Runs `work` while no other writer of the same draft runs; answers what `work` answers. */
export type DraftLock = <T>(draftId: string, work: () => Promise<T>) => Promise<T>;

/** A queue per key in this process: each `work` starts when the one before it on that key ended. */
export function processLock(): DraftLock {
  const tails = new Map<string, Promise<void>>();
  return async (key, work) => {
    const before = tails.get(key) ?? Promise.resolve();
    let done = () => {};
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

/**
 * The process's queue, then `shared` (the lock every process sees, null when this process is the only
 * one): `shared` is entered by one request per draft at a time, and runs `work` while it holds it.
 */
export function draftLock(shared: DraftLock | null): DraftLock {
  const local = processLock();
  if (!shared) return local;
  return (draftId, work) => local(draftId, () => shared(draftId, work));
}

/**
 * The advisory lock of a PostgreSQL store, held for the length of `work` (its transaction does nothing
 * else). A store that cannot be reached refuses the change as the store's 503: without the lock the
 * draft's limits could not be kept.
 */
export function storeDraftLock(open: () => Promise<Store>): DraftLock {
  return async (draftId, work) => {
    let locked = false;
    try {
      const store = await open();
      return await store.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${DRAFT_LOCK}::int, hashtext(${draftId}))`);
        locked = true;
        return work();
      });
    } catch (error) {
      if (locked || error instanceof ApiProblem) throw error;
      throw new ApiProblem('store-unavailable', {
        detail: PROBLEM_MESSAGES.uploadsUnavailable,
        cause: error,
      });
    }
  };
}
