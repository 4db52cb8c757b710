/**
 * The reporter's "who saw my identity" history: one row each time staff opened an identified case
 * with its identity fields, holding only the date and the reader's user type and role (never the
 * reader's name or id, never anything of the reporter).
 */
import type { StoreDb } from './database.ts';
import { and, desc, eq } from './drizzle.ts';
import { GroupCommit } from './group-commit.ts';
import type { CaseRef } from './messages.ts';
import type { Store } from './plugin.ts';
import { identityAccess } from './schema.ts';

/** The reporter sees the latest accesses; older ones stay stored. */
export const IDENTITY_ACCESS_SHOWN = 100;

export type IdentityAccessRow = {
  accessedAt: Date;
  readerUserType: number;
  readerRole: number | null;
  kind: 'case-read' | 'contact-reveal';
};

type NewAccess = typeof identityAccess.$inferInsert;

/** Rows per insert at most (7 parameters each, well under PostgreSQL's 65,535). */
const MAX_RUN = 500;
/** One writer per opened database: reads of parallel requests go in one multi-row insert. */
const writers = new WeakMap<StoreDb, GroupCommit<NewAccess, void>>();

function writerOf(db: StoreDb): GroupCommit<NewAccess, void> {
  let writer = writers.get(db);
  if (!writer) {
    writer = new GroupCommit(async (rows) => {
      await db.insert(identityAccess).values(rows);
      return rows.map(() => undefined);
    }, MAX_RUN);
    writers.set(db, writer);
  }
  return writer;
}

/** Resolves once the row is committed (grouped with parallel reads: store/group-commit.ts). */
export async function recordIdentityAccess(
  store: Store,
  ref: CaseRef,
  reader: { userType: number; role: number | null },
  kind: IdentityAccessRow['kind'],
): Promise<void> {
  await writerOf(store.db).submit({ ...ref, readerUserType: reader.userType, readerRole: reader.role, kind });
}

export async function listIdentityAccess(store: Store, ref: CaseRef): Promise<IdentityAccessRow[]> {
  return store.db
    .select({
      accessedAt: identityAccess.accessedAt,
      readerUserType: identityAccess.readerUserType,
      readerRole: identityAccess.readerRole,
      kind: identityAccess.kind,
    })
    .from(identityAccess)
    .where(and(eq(identityAccess.companyId, ref.companyId), eq(identityAccess.caseId, ref.caseId)))
    .orderBy(desc(identityAccess.accessedAt), desc(identityAccess.id))
    .limit(IDENTITY_ACCESS_SHOWN);
}
