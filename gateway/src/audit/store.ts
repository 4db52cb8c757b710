/**
 * The audit trail in the gateway's store: appending a record under the chain head's row lock, checking
 * the whole chain, and reading a period of it for the CSV export.
 *
 * Appends from parallel requests and from several replicas cannot fork the chain: each append is one
 * transaction that first locks the single chain-head row (`SELECT … FOR UPDATE`), so the next append
 * waits until this one commits and then sees its hash. (PGlite runs one transaction at a time anyway.)
 */
import { and, asc, eq, gt, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { StoreDb } from '../store/database.ts';
import { auditChainHead, auditRecord } from '../store/schema.ts';
import {
  type AuditActor,
  type AuditBody,
  type BrokenLink,
  canonicalBody,
  checkRun,
  GENESIS_HASH,
  linkHash,
  type StoredAuditRecord,
} from './chain.ts';

export type AuditEntry = Omit<AuditBody, 'seq' | 'at'> & { at?: Date };

export async function appendAudit(db: StoreDb, entry: AuditEntry): Promise<{ seq: number; hash: string }> {
  return db.transaction(async (tx) => {
    const [head] = await tx.select().from(auditChainHead).where(eq(auditChainHead.id, 1)).for('update');
    if (!head) throw new Error('audit chain head missing');
    const seq = head.seq + 1;
    const at = entry.at ?? new Date();
    const body = canonicalBody({ ...entry, seq, at: at.toISOString() });
    const hash = linkHash(head.hash, body);
    const actor: AuditActor = entry.actor;
    await tx.insert(auditRecord).values({
      seq,
      at,
      actorUserId: actor.userId,
      actorUserType: actor.userType,
      actorCompanyId: actor.companyId,
      actorPartnerId: actor.partnerId,
      event: entry.event,
      body,
      prevHash: head.hash,
      hash,
    });
    await tx.update(auditChainHead).set({ seq, hash }).where(eq(auditChainHead.id, 1));
    return { seq, hash };
  });
}

export type ChainVerdict = { ok: true; records: number } | { ok: false; records: number; broken: BrokenLink };

const BATCH = 2_000;

/**
 * Walks the chain in sequence order up to the head as read first (records appended meanwhile are
 * left for the next check) and checks that the last record is the head.
 */
export async function verifyAuditChain(db: StoreDb): Promise<ChainVerdict> {
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head) return { ok: false, records: 0, broken: { seq: 0, reason: 'kepala rantai hilang' } };
  let tail = { seq: 0, hash: GENESIS_HASH };
  let checked = 0;
  for (;;) {
    const rows: StoredAuditRecord[] = await db
      .select()
      .from(auditRecord)
      .where(and(gt(auditRecord.seq, tail.seq), lte(auditRecord.seq, head.seq)))
      .orderBy(asc(auditRecord.seq))
      .limit(BATCH);
    const run = checkRun(rows, tail);
    if ('broken' in run) return { ok: false, records: checked, broken: run.broken };
    checked += rows.length;
    tail = run.tail;
    if (rows.length < BATCH) break;
  }
  if (head.seq !== tail.seq || head.hash !== tail.hash) {
    return {
      ok: false,
      records: checked,
      broken: { seq: tail.seq + 1, reason: `catatan terakhir hilang (kepala rantai menunjuk #${head.seq})` },
    };
  }
  return { ok: true, records: checked };
}

/** Records of a period (`from` inclusive, `to` exclusive), optionally of one company's staff. */
export async function listAudit(
  db: StoreDb,
  period: { from: Date; to: Date },
  scope: { companyId: number } | 'all',
  limit: number,
): Promise<StoredAuditRecord[]> {
  const where: SQL[] = [gte(auditRecord.at, period.from), lt(auditRecord.at, period.to)];
  if (scope !== 'all') where.push(eq(auditRecord.actorCompanyId, scope.companyId));
  return db
    .select()
    .from(auditRecord)
    .where(and(...where))
    .orderBy(asc(auditRecord.seq))
    .limit(limit);
}
