/**
 * Resets of an account's second factors (a manager's, or an operator's from the command line): by
 * legacy user id, whatever username the rows carry, since the account is reset as the legacy knows
 * it now. Only the database is needed (no key ring), so the operator's command can run it.
 */

import type { StoreDb } from '../store/database.ts';
import { eq, sql } from '../store/drizzle.ts';
import {
  secondFactorFailure,
  secondFactorPasskey,
  secondFactorRecovery,
  secondFactorTotp,
} from '../store/schema.ts';

/** Advisory lock namespace of one user's factors (any constant): resets and removals take it. */
export const USER_LOCK = 0x5752_4e10;

/**
 * Removes every factor and recovery code of a legacy user id, and the count of its refused codes;
 * returns how many factor and code rows went.
 */
export async function resetFactors(db: StoreDb, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${USER_LOCK}::int, ${userId}::int)`);
    const totp = await tx.delete(secondFactorTotp).where(eq(secondFactorTotp.userId, userId)).returning();
    const passkeys = await tx
      .delete(secondFactorPasskey)
      .where(eq(secondFactorPasskey.userId, userId))
      .returning();
    const codes = await tx
      .delete(secondFactorRecovery)
      .where(eq(secondFactorRecovery.userId, userId))
      .returning();
    // The user starts again with nothing counted against the step: a reset is how a locked account gets in.
    await tx.delete(secondFactorFailure).where(eq(secondFactorFailure.userId, userId));
    return totp.length + passkeys.length + codes.length;
  });
}

/** The user id behind a username in the store, when it has any factor. */
export async function userIdOfUsername(db: StoreDb, username: string): Promise<number | null> {
  const name = username.trim().toLowerCase();
  const [totp] = await db
    .select({ userId: secondFactorTotp.userId })
    .from(secondFactorTotp)
    .where(eq(secondFactorTotp.username, name));
  if (totp) return totp.userId;
  const [passkey] = await db
    .select({ userId: secondFactorPasskey.userId })
    .from(secondFactorPasskey)
    .where(eq(secondFactorPasskey.username, name));
  return passkey?.userId ?? null;
}
