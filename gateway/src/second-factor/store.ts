/**
 * The second factors in the store (migration 0006, docs/adr/0062-second-factor.md). Every function
 * takes the store and a plain account ({ userId, username }) and reads or writes only that account's
 * rows: the legacy user id AND its username, so an id the legacy reissues to another person finds
 * nothing. Changes that could leave a required account without a factor run under a per-user advisory
 * lock, so two removals in parallel cannot both pass the "not the last one" check.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { SecondFactorMethod } from '@wbs/shared/api/second-factor';
import { and, asc, count, eq, isNull, lt, ne, or, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import {
  secondFactorFailure,
  secondFactorPasskey,
  secondFactorRecovery,
  secondFactorTotp,
} from '../store/schema.ts';
import { storeKey } from '../store/secrets.ts';
import { USER_LOCK } from './reset.ts';
import type { FactorSummary } from './state.ts';

export type Account = { userId: number; username: string };

export type Tx = Parameters<Parameters<Store['db']['transaction']>[0]>[0];
type Db = Store['db'] | Tx;

const canonical = (username: string) => username.trim().toLowerCase();
const totpContext = (account: Account) =>
  `second_factor_totp|${account.userId}|${canonical(account.username)}`;

const ofTotp = (a: Account) =>
  and(eq(secondFactorTotp.userId, a.userId), eq(secondFactorTotp.username, canonical(a.username)));
const ofPasskeys = (a: Account) =>
  and(eq(secondFactorPasskey.userId, a.userId), eq(secondFactorPasskey.username, canonical(a.username)));
const ofRecovery = (a: Account) =>
  and(eq(secondFactorRecovery.userId, a.userId), eq(secondFactorRecovery.username, canonical(a.username)));

/** Runs `work` in a transaction holding the user's lock. */
export function withAccountLock<T>(store: Store, account: Account, work: (tx: Tx) => Promise<T>): Promise<T> {
  return store.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${USER_LOCK}::int, ${account.userId}::int)`);
    return work(tx);
  });
}

export async function summaryOf(db: Db, account: Account): Promise<FactorSummary> {
  const [totp] = await db
    .select({ confirmedAt: secondFactorTotp.confirmedAt })
    .from(secondFactorTotp)
    .where(ofTotp(account));
  const [passkeys] = await db.select({ n: count() }).from(secondFactorPasskey).where(ofPasskeys(account));
  return summarise(totp?.confirmedAt ?? null, passkeys?.n ?? 0, await recoveryCodesLeft(db, account));
}

/**
 * The methods the account has now, in one query: what step-up decides by, whatever the session's
 * cookie listed when it was signed (docs/adr/0073-step-up-decided-from-the-store.md).
 */
export async function methodsOf(db: Db, account: Account): Promise<SecondFactorMethod[]> {
  const { rows } = (await db.execute(
    sql`select exists (select 1 from ${secondFactorTotp} where ${ofTotp(account)} and ${secondFactorTotp.confirmedAt} is not null) as totp,
               exists (select 1 from ${secondFactorPasskey} where ${ofPasskeys(account)}) as passkey`,
  )) as unknown as { rows: { totp: boolean; passkey: boolean }[] };
  const [row] = rows;
  const methods: SecondFactorMethod[] = [];
  if (row?.totp) methods.push('totp');
  if (row?.passkey) methods.push('passkey');
  return methods;
}

/** What Keamanan Akun lists: the summary, since when TOTP is on, the passkeys; no secret is opened. */
export async function factorsOf(
  db: Db,
  account: Account,
): Promise<{ summary: FactorSummary; totpSince: Date | null; passkeys: PasskeyRow[] }> {
  const [totp] = await db
    .select({ confirmedAt: secondFactorTotp.confirmedAt })
    .from(secondFactorTotp)
    .where(ofTotp(account));
  const totpSince = totp?.confirmedAt ?? null;
  const passkeys = await passkeysOf(db, account);
  const summary = summarise(totpSince, passkeys.length, await recoveryCodesLeft(db, account));
  return { summary, totpSince, passkeys };
}

async function recoveryCodesLeft(db: Db, account: Account): Promise<number> {
  const [codes] = await db
    .select({ n: count() })
    .from(secondFactorRecovery)
    .where(and(ofRecovery(account), isNull(secondFactorRecovery.usedAt)));
  return codes?.n ?? 0;
}

function summarise(totpConfirmedAt: Date | null, passkeys: number, codesLeft: number): FactorSummary {
  const methods: SecondFactorMethod[] = [];
  if (totpConfirmedAt) methods.push('totp');
  if (passkeys > 0) methods.push('passkey');
  // Recovery codes count only beside a factor (a reset or a removal leaves none behind anyway).
  return { methods, recoveryCodesLeft: methods.length > 0 ? codesLeft : 0 };
}

// ── TOTP ────────────────────────────────────────────────────────────────────────────────────────

export type TotpRow = { secret: string; confirmed: boolean; lastStep: number | null; createdAt: Date };

export async function totpOf(db: Db, store: Store, account: Account): Promise<TotpRow | null> {
  const [row] = await db.select().from(secondFactorTotp).where(ofTotp(account));
  if (!row) return null;
  return {
    secret: store.sealer.open({ keyId: row.keyId, sealed: row.sealed }, totpContext(account)),
    confirmed: row.confirmedAt !== null,
    lastStep: row.lastStep,
    createdAt: row.confirmedAt ?? row.createdAt,
  };
}

/**
 * Keeps a new secret waiting for its first code; false when the account has a confirmed one (it is
 * removed first). A row of the same user id under another username (a reissued id) is replaced.
 */
export async function startTotp(store: Store, account: Account, secret: string): Promise<boolean> {
  return withAccountLock(store, account, async (tx) => {
    const [row] = await tx
      .select({ username: secondFactorTotp.username, confirmedAt: secondFactorTotp.confirmedAt })
      .from(secondFactorTotp)
      .where(eq(secondFactorTotp.userId, account.userId));
    if (row && row.username === canonical(account.username) && row.confirmedAt !== null) return false;
    await writeTotp(tx, store, account, secret, null);
    return true;
  });
}

/** The account's one TOTP row, sealed; whatever row its user id had before goes. */
async function writeTotp(tx: Tx, store: Store, account: Account, secret: string, confirmedAt: Date | null) {
  const sealed = store.sealer.seal(secret, totpContext(account));
  await tx.delete(secondFactorTotp).where(eq(secondFactorTotp.userId, account.userId));
  await tx.insert(secondFactorTotp).values({
    userId: account.userId,
    username: canonical(account.username),
    keyId: sealed.keyId,
    sealed: sealed.sealed,
    confirmedAt,
  });
}

/**
 * Development only (DEMO_TOTP_SECRET): gives an account without any factor a confirmed secret, so a
 * demo account signs in with codes of the printed secret. Nothing happens when it has a factor.
 */
export async function giveDemoTotp(store: Store, account: Account, secret: string): Promise<void> {
  await withAccountLock(store, account, async (tx) => {
    if ((await summaryOf(tx, account)).methods.length > 0) return;
    await writeTotp(tx, store, account, secret, new Date());
  });
}

/** Confirms the waiting secret with the step of its first code; false when none waits. */
export async function confirmTotp(store: Store, account: Account, step: number): Promise<boolean> {
  const rows = await store.db
    .update(secondFactorTotp)
    .set({ confirmedAt: new Date(), lastStep: step })
    .where(and(ofTotp(account), isNull(secondFactorTotp.confirmedAt)))
    .returning({ userId: secondFactorTotp.userId });
  return rows.length > 0;
}

/**
 * Takes a code's time step, once: true only when no code of this step or a later one was accepted
 * before (one atomic update, so two replicas given the same code accept it once).
 */
export async function takeTotpStep(store: Store, account: Account, step: number): Promise<boolean> {
  const rows = await store.db
    .update(secondFactorTotp)
    .set({ lastStep: step })
    .where(
      and(
        ofTotp(account),
        sql`${secondFactorTotp.confirmedAt} is not null`,
        or(isNull(secondFactorTotp.lastStep), lt(secondFactorTotp.lastStep, step)),
      ),
    )
    .returning({ userId: secondFactorTotp.userId });
  return rows.length > 0;
}

export async function removeTotp(tx: Tx, account: Account): Promise<boolean> {
  const rows = await tx
    .delete(secondFactorTotp)
    .where(ofTotp(account))
    .returning({ userId: secondFactorTotp.userId });
  return rows.length > 0;
}

// ── Passkeys ────────────────────────────────────────────────────────────────────────────────────

export type PasskeyRow = typeof secondFactorPasskey.$inferSelect;

export async function passkeysOf(db: Db, account: Account): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(secondFactorPasskey)
    .where(ofPasskeys(account))
    .orderBy(asc(secondFactorPasskey.createdAt));
}

export type NewPasskey = {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
};

/** Adds a passkey; null when that credential is registered already (to anyone). */
export async function addPasskey(tx: Tx, account: Account, passkey: NewPasskey): Promise<PasskeyRow | null> {
  // Stale rows of a reissued user id go first: they would never match this account again.
  await tx
    .delete(secondFactorPasskey)
    .where(
      and(
        eq(secondFactorPasskey.userId, account.userId),
        ne(secondFactorPasskey.username, canonical(account.username)),
      ),
    );
  const rows = await tx
    .insert(secondFactorPasskey)
    .values({ id: randomUUID(), userId: account.userId, username: canonical(account.username), ...passkey })
    .onConflictDoNothing()
    .returning();
  return rows[0] ?? null;
}

/**
 * Records a passkey's use with its new signature counter, only over the counter read: two parallel
 * uses of one assertion cannot both pass.
 */
export async function usePasskey(store: Store, row: PasskeyRow, newCounter: number): Promise<boolean> {
  const rows = await store.db
    .update(secondFactorPasskey)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(and(eq(secondFactorPasskey.id, row.id), eq(secondFactorPasskey.counter, row.counter)))
    .returning({ id: secondFactorPasskey.id });
  return rows.length > 0;
}

export async function renamePasskey(
  store: Store,
  account: Account,
  id: string,
  name: string,
): Promise<PasskeyRow | null> {
  const rows = await store.db
    .update(secondFactorPasskey)
    .set({ name })
    .where(and(ofPasskeys(account), eq(secondFactorPasskey.id, id)))
    .returning();
  return rows[0] ?? null;
}

export async function removePasskey(tx: Tx, account: Account, id: string): Promise<boolean> {
  const rows = await tx
    .delete(secondFactorPasskey)
    .where(and(ofPasskeys(account), eq(secondFactorPasskey.id, id)))
    .returning({ id: secondFactorPasskey.id });
  return rows.length > 0;
}

// ── Recovery codes ──────────────────────────────────────────────────────────────────────────────

/**
 * The key of the recovery-code HMACs. Read before a transaction that needs it: on the embedded
 * database a transaction holds the one connection, and loading the key inside it would wait forever.
 */
export const recoveryKey = (store: Store) => storeKey(store, 'second-factor-recovery-key');

const recoveryHmac = (key: Buffer, account: Account, code: string) =>
  createHmac('sha256', key)
    .update(`${account.userId}|${canonical(account.username)}|${code}`)
    .digest('base64url');

/** Replaces every recovery code of the account with `codes` (canonical form: 10 letters and digits). */
export async function replaceRecoveryCodes(
  tx: Tx,
  key: Buffer,
  account: Account,
  codes: string[],
): Promise<void> {
  await tx.delete(secondFactorRecovery).where(eq(secondFactorRecovery.userId, account.userId));
  if (codes.length === 0) return;
  await tx.insert(secondFactorRecovery).values(
    codes.map((code) => ({
      userId: account.userId,
      username: canonical(account.username),
      codeHmac: recoveryHmac(key, account, code),
    })),
  );
}

/** Uses a recovery code, once (one atomic update): false when it is unknown or used. */
export async function useRecoveryCode(store: Store, account: Account, code: string): Promise<boolean> {
  const codeHmac = recoveryHmac(await recoveryKey(store), account, code);
  const rows = await store.db
    .update(secondFactorRecovery)
    .set({ usedAt: new Date() })
    .where(
      and(
        ofRecovery(account),
        eq(secondFactorRecovery.codeHmac, codeHmac),
        isNull(secondFactorRecovery.usedAt),
      ),
    )
    .returning({ userId: secondFactorRecovery.userId });
  return rows.length > 0;
}

// ── Consecutive refused codes ───────────────────────────────────────────────────────────────────

/**
 * Counts one typed code (authenticator or recovery) against the account BEFORE it is checked, in
 * one atomic step, and answers the count with it: parallel guesses each see their own number, so no
 * more than the cap are ever checked. A code that is accepted sets the count back (clearFailures).
 * A row of the same user id under another username (a reissued id) starts again from one.
 */
export async function countFailure(store: Store, account: Account): Promise<number> {
  const [row] = await store.db
    .insert(secondFactorFailure)
    .values({ userId: account.userId, username: canonical(account.username), failures: 1 })
    .onConflictDoUpdate({
      target: secondFactorFailure.userId,
      set: {
        failures: sql`case when ${secondFactorFailure.username} = excluded.username then ${secondFactorFailure.failures} + 1 else 1 end`,
        username: sql`excluded.username`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ failures: secondFactorFailure.failures });
  return row?.failures ?? 1;
}

/** A factor was accepted: the account's run of refused codes is over. */
export async function clearFailures(store: Store, account: Account): Promise<void> {
  await store.db.delete(secondFactorFailure).where(eq(secondFactorFailure.userId, account.userId));
}
