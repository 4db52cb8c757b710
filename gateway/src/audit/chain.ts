/**
 * The audit trail's hash chain, free of any database: how a record's body is written (canonical
 * JSON, fixed key order) and hashed (SHA-256 over the previous hash, a newline and the body), and
 * how a run of stored records is checked link by link. `pnpm audit:verify` and the gateway share it.
 */
import { createHash } from 'node:crypto';

/** The hash the first record points back to. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditActor = {
  userId: number;
  userType: number;
  role: number | null;
  companyId: number | null;
  partnerId: number | null;
};

export type AuditBody = {
  seq: number;
  at: string;
  event: string;
  actor: AuditActor;
  method: string;
  route: string | null;
  fields: Record<string, string | number | boolean | null>;
};

/** A stored record as the checker sees it (columns beside the hashed body). */
export type StoredAuditRecord = {
  seq: number;
  at: Date;
  actorUserId: number | null;
  actorUserType: number | null;
  actorCompanyId: number | null;
  actorPartnerId: number | null;
  event: string;
  body: string;
  prevHash: string;
  hash: string;
};

export function canonicalBody(body: AuditBody): string {
  const fields = Object.fromEntries(Object.entries(body.fields).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify({
    seq: body.seq,
    at: body.at,
    event: body.event,
    actor: {
      userId: body.actor.userId,
      userType: body.actor.userType,
      role: body.actor.role,
      companyId: body.actor.companyId,
      partnerId: body.actor.partnerId,
    },
    method: body.method,
    route: body.route,
    fields,
  });
}

export function linkHash(prevHash: string, body: string): string {
  // One update of the joined text: the same bytes hashed, a third of the calls (audit:verify hashes
  // every record of the chain).
  return createHash('sha256').update(`${prevHash}\n${body}`).digest('hex');
}

export type BrokenLink = { seq: number; reason: string };

/**
 * Checks records in sequence order, continuing from `previous` (the last good record of the run
 * before, or the genesis). Returns the first broken link, or the new tail.
 */
export function checkRun(
  records: StoredAuditRecord[],
  previous: { seq: number; hash: string },
): { broken: BrokenLink } | { tail: { seq: number; hash: string } } {
  let tail = previous;
  for (const record of records) {
    const broken = (reason: string) => ({ broken: { seq: record.seq, reason } });
    if (record.seq !== tail.seq + 1) {
      return {
        broken: { seq: tail.seq + 1, reason: `catatan #${tail.seq + 1} hilang (berikutnya #${record.seq})` },
      };
    }
    if (record.prevHash !== tail.hash) return broken('hash sebelumnya tidak cocok dengan catatan sebelumnya');
    if (linkHash(record.prevHash, record.body) !== record.hash)
      return broken('isi catatan diubah (hash tidak cocok)');
    let body: AuditBody;
    try {
      body = JSON.parse(record.body) as AuditBody;
    } catch {
      return broken('isi catatan bukan JSON');
    }
    const columnsMatch =
      body.seq === record.seq &&
      body.at === record.at.toISOString() &&
      body.event === record.event &&
      body.actor?.userId === record.actorUserId &&
      body.actor?.userType === record.actorUserType &&
      body.actor?.companyId === record.actorCompanyId &&
      body.actor?.partnerId === record.actorPartnerId;
    if (!columnsMatch) return broken('kolom catatan tidak sesuai dengan isi yang di-hash');
    tail = { seq: record.seq, hash: record.hash };
  }
  return { tail };
}
