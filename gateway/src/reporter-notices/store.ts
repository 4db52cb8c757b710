/**
 * The reporter's notice subscriptions in the store (docs/adr/0061-reporter-mail-notices.md).
 *
 * - One case has at most one `pending` address (waiting for its confirmation link) and one
 *   `confirmed` one (the notices go there); a confirmed new address replaces the old one.
 * - The address is sealed with the store key ring (with the opt-out token its mails carry), under a
 *   context naming the case incarnation: a sealed value copied to another case's row does not open.
 * - Link tokens are kept only as hashes; the confirmation token is made when its mail is made.
 * - Confirmation mails are counted per case and per address (a keyed HMAC, address.ts) in
 *   `reporter_confirmation_send`, under advisory locks, so parallel requests cannot pass a limit
 *   together.
 * Every function takes a store and plain values; the routes check the proof before calling them.
 */
import { maskEmail } from '../presenters/contact-mask.ts';
import type { BoundCase } from '../store/case-binding.ts';
import { and, count, eq, gt, isNull, lte, or, type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { type ReporterAudience, reporterConfirmationSend, reporterSubscription } from '../store/schema.ts';
import { storeKey } from '../store/secrets.ts';
import { addressHmac, newToken, tokenHash } from './address.ts';

const HOUR_MS = 60 * 60 * 1000;

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 48 * HOUR_MS;
/** At most one notice per case in this time; later replies are covered by the first mail. */
export const NOTICE_GAP_MS = HOUR_MS;
/** Confirmation mails: at most `max` per case per `windowMs`, and per address. */
export const CONFIRMATIONS_PER_CASE = { max: 1, windowMs: HOUR_MS };
export const CONFIRMATIONS_PER_ADDRESS = { max: 1, windowMs: 24 * HOUR_MS };
/** A subscription goes this long after its case was first seen in a final status. */
export const KEEP_AFTER_FINAL_MS = 30 * 24 * HOUR_MS;

type Tx = Parameters<Parameters<Store['db']['transaction']>[0]>[0];

const t = reporterSubscription;
const sends = reporterConfirmationSend;

/** The sealed value's context: the table and the case incarnation. */
const contextOf = (row: { companyId: number; caseId: number; caseBinding: string }) =>
  `reporter_subscription|${row.companyId}|${row.caseId}|${row.caseBinding}`;

type Sealed = { address: string; optOut: string };

const openRow = (store: Store, row: typeof t.$inferSelect): Sealed =>
  JSON.parse(store.sealer.open({ keyId: row.keyId, sealed: row.sealed }, contextOf(row))) as Sealed;

// Advisory lock namespaces (any constants): one per case, one per address HMAC.
const CASE_LOCK = 0x5752_4e01;
const ADDRESS_LOCK = 0x5752_4e02;

/** Serialises the writes of one case (and of one address): a limit is checked and used at once. */
async function lock(tx: Tx, space: number, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${space}::int, hashtext(${key}))`);
}
const lockCase = (tx: Tx, companyId: number, caseId: number) => lock(tx, CASE_LOCK, `${companyId}|${caseId}`);

const ofCase = (ref: { companyId: number; caseId: number }) =>
  and(eq(t.companyId, ref.companyId), eq(t.caseId, ref.caseId));
const ofIncarnation = (ref: BoundCase) => and(ofCase(ref), eq(t.caseBinding, ref.binding));

/** The key of the address HMACs (store/secrets.ts). */
const addressKey = (store: Store) => storeKey(store, 'reporter-address-key');

const since = (now: Date, ms: number) => new Date(now.getTime() - ms);

export type PendingRequest = {
  address: string;
  audience: ReporterAudience;
  now: Date;
};

export type PendingOutcome = { outcome: 'created'; id: number; sendId: number } | { outcome: 'limited' };

/**
 * A new pending address for the case, when both limits allow another confirmation mail: it
 * replaces the case's earlier pending one (and any row of another incarnation of the case). The
 * confirmed address, if any, keeps its notices until the new one is confirmed.
 */
export async function createPending(
  store: Store,
  ref: BoundCase,
  request: PendingRequest,
): Promise<PendingOutcome> {
  const hmac = addressHmac(await addressKey(store), request.address);
  return store.db.transaction(async (tx) => {
    await lockCase(tx, ref.companyId, ref.caseId);
    await lock(tx, ADDRESS_LOCK, hmac);
    const [perCase] = await tx
      .select({ n: count() })
      .from(sends)
      .where(
        and(
          eq(sends.companyId, ref.companyId),
          eq(sends.caseId, ref.caseId),
          gt(sends.sentAt, since(request.now, CONFIRMATIONS_PER_CASE.windowMs)),
        ),
      );
    const [perAddress] = await tx
      .select({ n: count() })
      .from(sends)
      .where(
        and(
          eq(sends.addressHmac, hmac),
          gt(sends.sentAt, since(request.now, CONFIRMATIONS_PER_ADDRESS.windowMs)),
        ),
      );
    if (
      (perCase?.n ?? 0) >= CONFIRMATIONS_PER_CASE.max ||
      (perAddress?.n ?? 0) >= CONFIRMATIONS_PER_ADDRESS.max
    ) {
      return { outcome: 'limited' } as const;
    }
    await tx
      .delete(t)
      .where(and(ofCase(ref), or(eq(t.state, 'pending'), sql`${t.caseBinding} <> ${ref.binding}`)));
    const optOut = newToken();
    const sealed = store.sealer.seal(
      JSON.stringify({ address: request.address, optOut } satisfies Sealed),
      contextOf({ ...ref, caseBinding: ref.binding }),
    );
    const [row] = await tx
      .insert(t)
      .values({
        companyId: ref.companyId,
        caseId: ref.caseId,
        caseBinding: ref.binding,
        audience: request.audience,
        state: 'pending',
        keyId: sealed.keyId,
        sealed: sealed.sealed,
        addressHmac: hmac,
        optOutHash: tokenHash(optOut),
        createdAt: request.now,
      })
      .returning({ id: t.id });
    if (!row) throw new Error('pending subscription not inserted');
    const [sent] = await tx
      .insert(sends)
      .values({
        subscriptionId: row.id,
        companyId: ref.companyId,
        caseId: ref.caseId,
        addressHmac: hmac,
        sentAt: request.now,
      })
      .returning({ id: sends.id });
    if (!sent) throw new Error('confirmation send not recorded');
    return { outcome: 'created', id: row.id, sendId: sent.id } as const;
  });
}

/** Undoes `createPending` when its mail could not be queued: the limits must not count a mail never sent. */
export async function dropPending(store: Store, created: { id: number; sendId: number }): Promise<void> {
  await store.db.transaction(async (tx) => {
    await tx.delete(t).where(and(eq(t.id, created.id), eq(t.state, 'pending')));
    await tx.delete(sends).where(eq(sends.id, created.sendId));
  });
}

export type ConfirmationMail = { address: string; token: string };

/**
 * The confirmation mail's address and a fresh token (its hash stored, valid CONFIRM_TTL_MS from
 * `now`), or null when the pending row is gone (replaced, stopped). Made when the mail is made, so
 * the token itself is never stored anywhere: a retried mail carries a new one.
 */
export async function prepareConfirmation(
  store: Store,
  id: number,
  now: Date,
): Promise<ConfirmationMail | null> {
  const token = newToken();
  const [row] = await store.db
    .update(t)
    .set({ confirmHash: tokenHash(token), confirmExpiresAt: new Date(now.getTime() + CONFIRM_TTL_MS) })
    .where(and(eq(t.id, id), eq(t.state, 'pending')))
    .returning();
  if (!row) return null;
  return { address: openRow(store, row).address, token };
}

/**
 * Confirms the pending address whose link carries `token`: it becomes the case's confirmed address
 * (replacing an earlier one, whose coalescing it keeps). Null for an unknown, used, replaced or
 * expired token; an expired pending row is deleted.
 */
export async function confirmByToken(
  store: Store,
  token: string,
  now: Date,
): Promise<{ masked: string } | null> {
  const hash = tokenHash(token);
  const [found] = await store.db
    .select({ companyId: t.companyId, caseId: t.caseId })
    .from(t)
    .where(and(eq(t.confirmHash, hash), eq(t.state, 'pending')));
  if (!found) return null;
  return store.db.transaction(async (tx) => {
    // The case first, as createPending takes it: the row lock comes after, never before.
    await lockCase(tx, found.companyId, found.caseId);
    const [row] = await tx
      .select()
      .from(t)
      .where(and(eq(t.confirmHash, hash), eq(t.state, 'pending')))
      .for('update');
    if (!row) return null;
    if (!row.confirmExpiresAt || row.confirmExpiresAt.getTime() <= now.getTime()) {
      await tx.delete(t).where(eq(t.id, row.id));
      return null;
    }
    const [earlier] = await tx
      .select()
      .from(t)
      .where(and(ofCase(row), eq(t.state, 'confirmed')))
      .for('update');
    if (earlier) await tx.delete(t).where(eq(t.id, earlier.id));
    const sameCase = earlier?.caseBinding === row.caseBinding;
    await tx
      .update(t)
      .set({
        state: 'confirmed',
        confirmHash: null,
        confirmExpiresAt: null,
        confirmedAt: now,
        // The hour of the earlier address's last notice still holds: a new address is no new hour.
        lastNoticeAt: sameCase ? earlier.lastNoticeAt : null,
        lastMessageId: sameCase ? earlier.lastMessageId : null,
        finalStatusAt: sameCase ? earlier.finalStatusAt : row.finalStatusAt,
      })
      .where(eq(t.id, row.id));
    return { masked: maskEmail(openRow(store, row).address) };
  });
}

/** Deletes the subscription whose mails carry `token` (pending or confirmed); whether one was there. */
export async function optOutByToken(store: Store, token: string): Promise<boolean> {
  const gone = await store.db
    .delete(t)
    .where(eq(t.optOutHash, tokenHash(token)))
    .returning({ id: t.id });
  return gone.length > 0;
}

/** Deletes every address of the case (the reporter's "stop" button). */
export async function stopForCase(store: Store, ref: BoundCase): Promise<void> {
  await store.db.transaction(async (tx) => {
    await lockCase(tx, ref.companyId, ref.caseId);
    await tx.delete(t).where(ofCase(ref));
  });
}

export type SubscriptionStatus = { confirmed: string | null; pending: string | null };

/** The reporter's own view: the masked confirmed address and a pending one still waiting, if any. */
export async function subscriptionStatus(
  store: Store,
  ref: BoundCase,
  now: Date,
): Promise<SubscriptionStatus> {
  const rows = await store.db.select().from(t).where(ofIncarnation(ref));
  const status: SubscriptionStatus = { confirmed: null, pending: null };
  for (const row of rows) {
    if (row.state === 'confirmed') status.confirmed = maskEmail(openRow(store, row).address);
    else {
      const expires = row.confirmExpiresAt?.getTime() ?? row.createdAt.getTime() + CONFIRM_TTL_MS;
      if (expires > now.getTime()) status.pending = maskEmail(openRow(store, row).address);
    }
  }
  return status;
}

export type NoticeClaim = { id: number; claimedAt: Date; previous: Date | null };

/**
 * A handler's message `messageId` on the case: the confirmed subscription to notify now, or null
 * (none, the same message again, or a notice within the last NOTICE_GAP_MS already covers it).
 */
export async function claimNotice(
  store: Store,
  ref: BoundCase,
  messageId: number,
  now: Date,
): Promise<NoticeClaim | null> {
  return store.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: t.id, lastNoticeAt: t.lastNoticeAt, lastMessageId: t.lastMessageId })
      .from(t)
      .where(and(ofIncarnation(ref), eq(t.state, 'confirmed')))
      .for('update');
    if (!row) return null;
    // Message ids only grow: one not above the last seen is a retried post of a message already counted.
    if (row.lastMessageId !== null && messageId <= row.lastMessageId) return null;
    const due = row.lastNoticeAt === null || now.getTime() - row.lastNoticeAt.getTime() >= NOTICE_GAP_MS;
    await tx
      .update(t)
      .set({ lastMessageId: messageId, ...(due ? { lastNoticeAt: now } : {}) })
      .where(eq(t.id, row.id));
    return due ? { id: row.id, claimedAt: now, previous: row.lastNoticeAt } : null;
  });
}

/** Gives a claim back when its notice could not be queued: the next reply may try again. */
export async function releaseNotice(store: Store, claim: NoticeClaim): Promise<void> {
  await store.db
    .update(t)
    .set({ lastNoticeAt: claim.previous })
    .where(and(eq(t.id, claim.id), eq(t.lastNoticeAt, claim.claimedAt)));
}

export type NoticeMail = { address: string; optOut: string; audience: ReporterAudience };

/** The confirmed subscription's address and opt-out token, or null when it is gone. */
export async function noticeTarget(store: Store, id: number): Promise<NoticeMail | null> {
  const [row] = await store.db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.state, 'confirmed')));
  if (!row) return null;
  const { address, optOut } = openRow(store, row);
  return { address, optOut, audience: row.audience };
}

/**
 * What the gateway saw of the case's status (a tracker's or the pelapor's visit): the first time it
 * is final starts the 30 days, a case opened again stops them. Writes only when that changes.
 */
export async function observeCaseStatus(
  store: Store,
  ref: BoundCase,
  final: boolean,
  now: Date,
): Promise<void> {
  await store.db
    .update(t)
    .set({ finalStatusAt: final ? now : null })
    .where(and(ofIncarnation(ref), final ? isNull(t.finalStatusAt) : sql`${t.finalStatusAt} is not null`));
}

/** The final ids of the status table (`caseStatusTable`): those the legacy does not list as open. */
export function finalStatusIdsOf(table: readonly { id: number; open: boolean }[]): number[] {
  return table.filter((status) => !status.open).map((status) => status.id);
}

export type PurgeOptions = {
  /** The status ids that end a case (clocks: absent from the legacy's open-status list). */
  finalStatusIds: Iterable<number>;
  now?: Date;
};

export type PurgeResult = { finalised: number; reopened: number; deleted: number; sendsDeleted: number };

const rowsOf = (result: unknown): number => {
  const r = result as { rowCount?: number | null; affectedRows?: number; rows?: unknown[] };
  return r.rowCount ?? r.affectedRows ?? r.rows?.length ?? 0;
};

/**
 * The daily clean-up (the lead schedules it):
 * - a case the case index (the watcher's `case_index`, same incarnation) shows in a final status
 *   starts its 30 days, one shown open again stops them;
 * - subscriptions 30 days past their case's final status are deleted, and so are those of a case
 *   the index names with another incarnation (a reissued id), pending ones whose link expired, and
 *   pending ones whose mail was never made;
 * - confirmation records older than the longest limit window go.
 */
export async function purgeReporterSubscriptions(store: Store, options: PurgeOptions): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const finals = [...new Set(options.finalStatusIds)].filter(Number.isInteger);
  const nowIso = now.toISOString();
  let finalised = 0;
  let reopened = 0;
  if (finals.length > 0) {
    const list = sql.join(
      finals.map((id) => sql`${id}`),
      sql`, `,
    );
    finalised = rowsOf(
      await store.db.execute(sql`
        update reporter_subscription s set final_status_at = ${nowIso}::timestamptz
          from case_index c
         where c.company_id = s.company_id and c.case_id = s.case_id and c.case_binding = s.case_binding
           and c.status_id in (${list}) and s.final_status_at is null`),
    );
    reopened = rowsOf(
      await store.db.execute(sql`
        update reporter_subscription s set final_status_at = null
          from case_index c
         where c.company_id = s.company_id and c.case_id = s.case_id and c.case_binding = s.case_binding
           and c.status_id is not null and c.status_id not in (${list}) and s.final_status_at is not null`),
    );
  }
  const expired: SQL = and(
    eq(t.state, 'pending'),
    or(
      lte(t.confirmExpiresAt, now),
      and(isNull(t.confirmHash), lte(t.createdAt, since(now, CONFIRM_TTL_MS))),
    ),
  ) as SQL;
  const deleted = await store.db
    .delete(t)
    .where(
      or(
        lte(t.finalStatusAt, since(now, KEEP_AFTER_FINAL_MS)),
        expired,
        sql`exists (select 1 from case_index c where c.company_id = ${t.companyId} and c.case_id = ${t.caseId}
                     and c.case_binding <> ${t.caseBinding})`,
      ),
    )
    .returning({ id: t.id });
  const sendsDeleted = await store.db
    .delete(sends)
    .where(
      lte(
        sends.sentAt,
        since(now, Math.max(CONFIRMATIONS_PER_CASE.windowMs, CONFIRMATIONS_PER_ADDRESS.windowMs)),
      ),
    )
    .returning({ id: sends.id });
  return { finalised, reopened, deleted: deleted.length, sendsDeleted: sendsDeleted.length };
}

/** The HMAC the per-address limit counts for `address` (tests look for it, and for no address). */
export async function addressHmacOf(store: Store, address: string): Promise<string> {
  return addressHmac(await addressKey(store), address);
}
