/**
 * The reporter's "who saw my identity" history: one row each time staff opened an identified case
 * with its identity fields, holding only the date and the reader's user type and role (never the
 * reader's name or id, never anything of the reporter).
 */
import { and, desc, eq } from './drizzle.ts';
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

export async function recordIdentityAccess(
  store: Store,
  ref: CaseRef,
  reader: { userType: number; role: number | null },
  kind: IdentityAccessRow['kind'],
): Promise<void> {
  await store.db
    .insert(identityAccess)
    .values({ ...ref, readerUserType: reader.userType, readerRole: reader.role, kind });
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
