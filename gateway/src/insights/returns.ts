/**
 * "Came back": the reporter returned to the case after filing, by a successful tracking proof or a
 * message of theirs (Statistik's `returned`, docs/product/insights.md). One row per case incarnation,
 * when it first happened; never an IP, a user agent or how often.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LegacyCase } from '../legacy/case-schemas.ts';
import type { StoreAccess } from '../store/plugin.ts';
import { caseReturn } from '../store/schema.ts';

/**
 * Records the return of `found`'s reporter. The tracker's request already did its work: a failing
 * store must not fail it, so the failure is logged (ids only) and the figure misses this return.
 */
export async function noteReturn(
  store: StoreAccess,
  log: FastifyBaseLogger,
  found: LegacyCase,
): Promise<void> {
  try {
    const opened = await store.open();
    const ref = opened.cases.bind(found);
    await opened.db
      .insert(caseReturn)
      .values({ companyId: ref.companyId, caseId: ref.caseId, caseBinding: ref.binding })
      .onConflictDoNothing();
  } catch (error) {
    log.error(
      { err: { message: (error as Error).message }, caseId: found.caseId },
      'insights: return not recorded',
    );
  }
}
