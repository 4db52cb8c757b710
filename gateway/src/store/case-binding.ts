/**
 * Binds every store row about a legacy case to ONE incarnation of that case. The legacy names a case
 * by company id and case id, and those can be issued twice: a restored legacy backup, a legacy reset,
 * or any id the legacy reuses. Keyed by the ids alone, a new reporter's case would inherit the old
 * one's conversation, identity-access history and clock (docs/adr/0047-case-binding.md).
 *
 * The binding is an HMAC of the company id, case id, complaint number and filing time under a key the
 * store keeps for itself (`store_secret`, sealed with the store key ring, re-sealed with the newest
 * key on each start so an old ring key can be dropped). Keyed, so a dump of the store gives no way to
 * guess complaint numbers back from it. Every write stores it; every read keeps only rows carrying
 * it. A row of another incarnation is never shown: it is logged (ids and table only) and counted.
 *
 * Rows written before bindings existed hold NULL. Each is bound on first read, by what can be proven
 * about it without the legacy:
 * - a message or an identity access made no earlier than the case's filing (minus a minute of clock
 *   skew between the legacy's server and the store's) belongs to it: the earlier incarnation's rows
 *   all precede the later one's filing;
 * - a clock row belongs to it when it holds the same filing time;
 * - the unread marks (case_conversation) are message ids, and ids only grow: an earlier
 *   incarnation's marks are below every message of a later one, so they mark nothing of it.
 * Anything else unbound is treated as another incarnation's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { normaliseWallTime } from '@wbs/shared/handling-clock';
import type { StoreDb } from './database.ts';
import { eq, type SQL, type SQLWrapper, sql } from './drizzle.ts';
import type { Sealer } from './keyring.ts';
import { storeSecret } from './schema.ts';

/** What names a legacy case incarnation: the case table row's own fields (never sent anywhere). */
export type CaseIdentity = {
  caseCompanyId: number;
  caseId: number;
  caseNumber: string;
  caseCreated: string;
};

/** A case as the store's rows name it. */
export type BoundCase = {
  companyId: number;
  caseId: number;
  binding: string;
  /** The filing time as a moment (ms), or null when the legacy wrote it unreadably. */
  filedMs: number | null;
  /** The filing time as WIB wall time 'YYYY-MM-DDTHH:mm:ss', or null (as above). */
  filedAt: string | null;
};

/** Clock skew allowed between the legacy's filing time and the store's own timestamps. */
export const UNBOUND_ROW_GRACE_MS = 60_000;

export type BindingTable = 'case_message' | 'identity_access' | 'case_conversation' | 'case_clock';

export type CaseBinder = {
  bind(c: CaseIdentity): BoundCase;
  /** Rows of another incarnation were found (and left out) while reading `ref`. */
  mismatch(table: BindingTable, ref: BoundCase, rows: number): void;
};

const SECRET_NAME = 'case-binding-key';
const secretContext = (name: string) => `store_secret|${name}`;

/**
 * The binding key: read from the store, or made by the first process to start (replicas starting
 * together agree on the first insert). Re-sealed with the ring's newest key when an older one sealed it.
 */
export async function loadBindingKey(db: StoreDb, sealer: Sealer): Promise<Buffer> {
  const fresh = sealer.seal(randomBytes(32).toString('base64'), secretContext(SECRET_NAME));
  await db
    .insert(storeSecret)
    .values({ name: SECRET_NAME, keyId: fresh.keyId, sealed: fresh.sealed })
    .onConflictDoNothing();
  const [row] = await db.select().from(storeSecret).where(eq(storeSecret.name, SECRET_NAME));
  if (!row) throw new Error('store secret missing after insert');
  let key: string;
  try {
    key = sealer.open({ keyId: row.keyId, sealed: row.sealed }, secretContext(SECRET_NAME));
  } catch (error) {
    // Without it no row of the store can be matched to its case: refuse to start, and say why.
    throw new Error(
      `STORE_ENCRYPTION_KEYS cannot open the store's case binding key (sealed with key ${row.keyId}): ` +
        'the key ring does not belong to this store, or a key it still uses was removed ' +
        '(docs/deploy.md, rotating the store keys)',
      { cause: error },
    );
  }
  if (row.keyId !== fresh.keyId) {
    const resealed = sealer.seal(key, secretContext(SECRET_NAME));
    // Only over the value read: a replica re-sealing at the same time writes the same secret.
    await db
      .update(storeSecret)
      .set({ keyId: resealed.keyId, sealed: resealed.sealed })
      .where(sql`${storeSecret.name} = ${SECRET_NAME} and ${storeSecret.sealed} = ${row.sealed}`);
  }
  return Buffer.from(key, 'base64');
}

/**
 * Bindings already computed: an HMAC costs microseconds, and a case list binds the same rows on every
 * request. A plain Map cleared when full, not an LRU: a key's binding never changes, so recency buys
 * nothing, and the LRU's bookkeeping cost a list ~1.5 % of its CPU (25 lookups a page).
 */
const MEMO_MAX = 50_000;

export function caseBinder(
  key: Buffer,
  onMismatch: (table: BindingTable, ref: BoundCase, rows: number) => void,
): CaseBinder {
  const memo = new Map<string, BoundCase>();
  return {
    bind(c) {
      const number = c.caseNumber.trim();
      const filedAt = normaliseWallTime(c.caseCreated);
      const memoKey = `${c.caseCompanyId}|${c.caseId}|${number}|${filedAt ?? c.caseCreated.trim()}`;
      let bound = memo.get(memoKey);
      if (bound === undefined) {
        const binding = createHmac('sha256', key)
          .update(`wbs-case-binding|v1|${memoKey}`)
          .digest('base64url');
        const filedMs = filedAt === null ? null : Date.parse(`${filedAt}+07:00`);
        bound = Object.freeze({
          companyId: c.caseCompanyId,
          caseId: c.caseId,
          binding,
          filedAt,
          filedMs: filedMs === null || Number.isNaN(filedMs) ? null : filedMs,
        });
        if (memo.size >= MEMO_MAX) memo.clear();
        memo.set(memoKey, bound);
      }
      return bound;
    },
    mismatch: onMismatch,
  };
}

/** The earliest time an unbound row of `ref` can have been made (ISO), or null: none can be proven. */
export function unboundSince(ref: BoundCase): string | null {
  return ref.filedMs === null ? null : new Date(ref.filedMs - UNBOUND_ROW_GRACE_MS).toISOString();
}

/** Whether an unbound row made at `createdAt` may belong to `ref` (see the header). */
export function unboundRowBelongs(ref: BoundCase, createdAt: Date): boolean {
  return ref.filedMs !== null && createdAt.getTime() >= ref.filedMs - UNBOUND_ROW_GRACE_MS;
}

/**
 * SQL: a row of `ref`'s incarnation, by its binding column, or unbound and made no earlier than the
 * filing allows (`at`: the row's own timestamp column).
 */
export function ofThisCase(ref: BoundCase, binding: SQLWrapper, at: SQLWrapper): SQL {
  const since = unboundSince(ref);
  if (since === null) return sql`(${binding} is not distinct from ${ref.binding})`;
  return sql`(${binding} is not distinct from ${ref.binding} or (${binding} is null and ${at} >= ${since}::timestamptz))`;
}
