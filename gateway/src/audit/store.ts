/**
 * The audit trail in the gateway's store: appending a record under the chain head's row lock, checking
 * the whole chain, and reading a period of it for the CSV export.
 *
 * Appends from parallel requests and from several replicas cannot fork the chain: each run of appends
 * is one transaction that first locks the single chain-head row (`SELECT … FOR UPDATE`), so the next
 * run waits until this one commits and then sees its hash. Within a process, appends are grouped into
 * runs (`AuditAppender`). A process that wrote the chain's last record chains its next run after it
 * in one statement that moves the head only if it is still there (docs/adr/0035-audit-group-commit.md); else
 * the lock as
 * above. (PGlite runs one transaction at a time anyway.)
 */
import type { StoreDb } from '../store/database.ts';
import { and, asc, eq, gt, gte, lt, lte, type SQL, sql } from '../store/drizzle.ts';
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

export type AppendedLink = { seq: number; hash: string };

type ChainedRun = {
  /** Column names as in the table: json_populate_recordset reads them by name. */
  rows: Record<string, string | number | null>[];
  links: AppendedLink[];
  tail: AppendedLink;
};

/** Chains `entries` after `head`: each record's hash covers the one before it. */
function chainRun(entries: readonly AuditEntry[], head: AppendedLink, now: Date): ChainedRun {
  let tail = head;
  const links: AppendedLink[] = [];
  const rows: ChainedRun['rows'] = [];
  for (const entry of entries) {
    const seq = tail.seq + 1;
    const at = (entry.at ?? now).toISOString();
    const body = canonicalBody({ ...entry, seq, at });
    const hash = linkHash(tail.hash, body);
    const actor: AuditActor = entry.actor;
    rows.push({
      seq,
      at,
      actor_user_id: actor.userId,
      actor_user_type: actor.userType,
      actor_company_id: actor.companyId,
      actor_partner_id: actor.partnerId,
      event: entry.event,
      body,
      prev_hash: tail.hash,
      hash,
    });
    tail = { seq, hash };
    links.push(tail);
  }
  return { rows, links, tail };
}

/** The run's records as one SELECT over ONE json parameter: one round trip whatever the run's length. */
const recordsOf = (run: ChainedRun) => sql`
  select seq, at, actor_user_id, actor_user_type, actor_company_id,
         actor_partner_id, event, body, prev_hash, hash
    from json_populate_recordset(null::audit_record, ${JSON.stringify(run.rows)}::json)`;

const AUDIT_COLUMNS = sql.raw(
  'seq, at, actor_user_id, actor_user_type, actor_company_id, actor_partner_id, event, body, prev_hash, hash',
);

/**
 * Appends `entries` in their order as one transaction: under the head's row lock each record is
 * chained to the one before it, all are inserted with one statement, and the head moves to the last.
 * Either every record of the run is committed or none is (the chain is never left half-extended).
 */
export async function appendAuditRun(db: StoreDb, entries: readonly AuditEntry[]): Promise<AppendedLink[]> {
  if (entries.length === 0) return [];
  return db.transaction((tx) => appendAuditRunIn(tx, entries));
}

/** A transaction of the store's database. */
export type StoreTx = Parameters<Parameters<StoreDb['transaction']>[0]>[0];

/**
 * appendAuditRun inside the caller's own transaction: the records commit (or roll back) with the
 * caller's other writes, e.g. a retention purge and its record (retention/scan.ts).
 */
export async function appendAuditRunIn(tx: StoreTx, entries: readonly AuditEntry[]): Promise<AppendedLink[]> {
  if (entries.length === 0) return [];
  const [head] = await tx.select().from(auditChainHead).where(eq(auditChainHead.id, 1)).for('update');
  if (!head) throw new Error('audit chain head missing');
  // Taken under the lock, so times follow the sequence across replicas as they did one by one.
  const run = chainRun(entries, { seq: head.seq, hash: head.hash }, new Date());
  // The head moves in the same statement. Built by drizzle column by column, a run of 50 records
  // (500 parameters) cost about a tenth of a busy gateway's CPU on a case detail.
  await tx.execute(sql`
    with inserted as (insert into audit_record (${AUDIT_COLUMNS}) ${recordsOf(run)})
    update audit_chain_head set seq = ${run.tail.seq}, hash = ${run.tail.hash} where id = 1`);
  return run.links;
}

/**
 * Appends `entries` after `expectedHead`, where this process left the chain, as ONE statement (its
 * own transaction, one round trip instead of four): the head moves only if it is still exactly
 * there, and the records are inserted only if it moved. Null when another process appended in
 * between: nothing was written, and the run must be chained again under the lock (appendAuditRun).
 * All or nothing like appendAuditRun; a run that fails throws.
 */
export async function appendAfterHead(
  db: StoreDb,
  entries: readonly AuditEntry[],
  expectedHead: AppendedLink,
): Promise<AppendedLink[] | null> {
  if (entries.length === 0) return [];
  const run = chainRun(entries, expectedHead, new Date());
  // A concurrent run holding the head's row lock makes this update wait, then re-check its WHERE
  // against the committed head: it matches no row, and nothing is inserted.
  const result = (await db.execute(sql`
    with moved as (
      update audit_chain_head set seq = ${run.tail.seq}, hash = ${run.tail.hash}
       where id = 1 and seq = ${expectedHead.seq} and hash = ${expectedHead.hash}
      returning 1)
    insert into audit_record (${AUDIT_COLUMNS})
    ${recordsOf(run)} where exists (select 1 from moved)
    returning seq`)) as unknown as { rows: unknown[] };
  return result.rows.length === entries.length ? run.links : null;
}

/** Appends one record as its own transaction. */
export async function appendAudit(db: StoreDb, entry: AuditEntry): Promise<AppendedLink> {
  const [link] = await appendAuditRun(db, [entry]);
  return link!;
}

/** How long runs take the lock after another process was found to have appended in between. */
const OPTIMISM_BACKOFF_MS = 5_000;

/** Records per transaction at most: keeps one insert well under PostgreSQL's 65,535 parameters. */
const MAX_RUN = 500;

type Waiting = { entry: AuditEntry; resolve(link: AppendedLink): void; reject(error: unknown): void };

/**
 * Group commit of one process's appends. One chain transaction is in flight at a time; appends that
 * arrive meanwhile wait and go together, in arrival order, into the next one. Each caller's promise
 * settles only when the transaction holding its record has committed (or failed: then every record of
 * that transaction is refused and the chain is as it was before it). Replicas each batch their own
 * appends; the head's row lock still orders their transactions, so the chain stays one line.
 *
 * What it saves: one lock wait, round trips and a commit per record. Serialised per record, every
 * staff read queued behind the one before it on the head row.
 */
export class AuditAppender {
  readonly #db: StoreDb;
  #queue: Waiting[] = [];
  #inFlight: Promise<void> | null = null;
  /** Where this process left the chain; null until its first run and after a failed one. */
  #head: AppendedLink | null = null;
  /** After another process appended in between, runs take the lock until then (ms since epoch). */
  #lockedUntil = 0;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  append(entry: AuditEntry): Promise<AppendedLink> {
    return new Promise<AppendedLink>((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      this.#inFlight ??= this.#drain();
    });
  }

  async #drain(): Promise<void> {
    // Started from append(): let the appends of the same tick join the first run.
    await Promise.resolve();
    while (this.#queue.length > 0) {
      const run = this.#queue.splice(0, MAX_RUN);
      let links: AppendedLink[];
      try {
        links = await this.#appendRun(run.map((waiting) => waiting.entry));
      } catch (error) {
        this.#head = null;
        for (const waiting of run) waiting.reject(error);
        continue;
      }
      this.#head = links.at(-1) ?? this.#head;
      for (const [i, waiting] of run.entries()) waiting.resolve(links[i]!);
    }
    this.#inFlight = null;
  }

  /**
   * One round trip while this process is the chain's only writer. Replicas under load append in
   * between all the time; there each attempt would cost one round trip more, so after a miss the
   * runs take the lock for a while before trying again.
   */
  async #appendRun(entries: readonly AuditEntry[]): Promise<AppendedLink[]> {
    if (this.#head && Date.now() >= this.#lockedUntil) {
      const links = await appendAfterHead(this.#db, entries, this.#head);
      if (links) return links;
      this.#lockedUntil = Date.now() + OPTIMISM_BACKOFF_MS;
    }
    return appendAuditRun(this.#db, entries);
  }
}

export type ChainVerdict = { ok: true; records: number } | { ok: false; records: number; broken: BrokenLink };

const BATCH = 2_000;

/**
 * Walks the chain in sequence order up to the head as read first (records appended meanwhile are
 * left for the next check) and checks that the last record is the head. The next batch is read
 * while this one is checked, so the database's time and the hashing overlap: linear in the chain's
 * length, its memory two batches whatever the length.
 */
export async function verifyAuditChain(db: StoreDb): Promise<ChainVerdict> {
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head) return { ok: false, records: 0, broken: { seq: 0, reason: 'kepala rantai hilang' } };
  const read = (after: number): Promise<StoredAuditRecord[]> =>
    db
      .select()
      .from(auditRecord)
      .where(and(gt(auditRecord.seq, after), lte(auditRecord.seq, head.seq)))
      .orderBy(asc(auditRecord.seq))
      .limit(BATCH);
  let tail = { seq: 0, hash: GENESIS_HASH };
  let checked = 0;
  let next = read(0);
  for (;;) {
    const rows = await next;
    const full = rows.length === BATCH;
    // Keyed on the last row read, not the last one checked: a broken run returns before it is used.
    if (full) {
      next = read(rows.at(-1)!.seq);
      next.catch(() => {});
    }
    const run = checkRun(rows, tail);
    if ('broken' in run) return { ok: false, records: checked, broken: run.broken };
    checked += rows.length;
    tail = run.tail;
    if (!full) break;
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
