/**
 * The reporter's "who saw my identity" history: one row each time staff opened an identified case
 * with its identity fields, holding only the date and the reader's user type and role (never the
 * reader's name or id, never anything of the reporter).
 */
import { ofThisCase } from './case-binding.ts';
import { and, desc, eq, isNull, sql } from './drizzle.ts';
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
  await store.db.insert(identityAccess).values({
    companyId: ref.companyId,
    caseId: ref.caseId,
    caseBinding: ref.binding,
    readerUserType: reader.userType,
    readerRole: reader.role,
    kind,
  });
}

/**
 * The latest accesses of this incarnation of the case. Rows of another incarnation are left out (and
 * reported); unbound rows proven to be this one's are bound now (case-binding.ts).
 */
export async function listIdentityAccess(store: Store, ref: CaseRef): Promise<IdentityAccessRow[]> {
  const ours = ofThisCase(ref, identityAccess.caseBinding, identityAccess.accessedAt);
  const rows = await store.db
    .select({
      accessedAt: identityAccess.accessedAt,
      readerUserType: identityAccess.readerUserType,
      readerRole: identityAccess.readerRole,
      kind: identityAccess.kind,
      ours: sql<boolean>`${ours}`.as('ours'),
      // Window counts are taken before the limit: over every row of the case.
      foreign: sql<number>`count(*) filter (where not ${ours}) over ()`.mapWith(Number),
      unbound:
        sql<number>`count(*) filter (where ${ours} and ${identityAccess.caseBinding} is null) over ()`.mapWith(
          Number,
        ),
    })
    .from(identityAccess)
    .where(and(eq(identityAccess.companyId, ref.companyId), eq(identityAccess.caseId, ref.caseId)))
    .orderBy(sql`${ours} desc`, desc(identityAccess.accessedAt), desc(identityAccess.id))
    .limit(IDENTITY_ACCESS_SHOWN);
  const first = rows[0];
  if (first && first.unbound > 0) {
    await store.db
      .update(identityAccess)
      .set({ caseBinding: ref.binding })
      .where(
        and(
          eq(identityAccess.companyId, ref.companyId),
          eq(identityAccess.caseId, ref.caseId),
          isNull(identityAccess.caseBinding),
          ours,
        ),
      );
  }
  if (first && first.foreign > 0) store.cases.mismatch('identity_access', ref, first.foreign);
  return rows
    .filter((row) => row.ours)
    .map(({ accessedAt, readerUserType, readerRole, kind }) => ({
      accessedAt,
      readerUserType,
      readerRole,
      kind,
    }));
}
