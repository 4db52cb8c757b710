/**
 * `pnpm second-factor:reset <username>`: how an operator lets a locked-out account in again when no
 * manager can (the administrator, type 1, whom nobody in the product manages). It removes the
 * account's factors in the store directly and writes the reset into the audit trail with the
 * operator as actor (user id 0); the user enrols again at the next sign-in. It does not end the
 * account's sessions (a locked-out account has none; docs/deploy.md#second-factor says what to do
 * when it may be in someone else's hands).
 */
import { appendAudit } from '../audit/store.ts';
import { withCommandLineStore } from '../store/command-line.ts';
import { resetFactors, userIdOfUsername } from './reset.ts';

export async function runSecondFactorReset(
  env: NodeJS.ProcessEnv,
  username: string | undefined,
  print: (line: string) => void,
): Promise<number> {
  const name = username?.trim();
  if (!name) {
    print('Pemakaian: pnpm second-factor:reset <username>');
    return 2;
  }
  return withCommandLineStore(env, print, async ({ db }, where) => {
    const userId = await userIdOfUsername(db, name);
    if (userId === null) {
      print(`Akun ${name} tidak memiliki faktor kedua di ${where}: tidak ada yang direset.`);
      return 1;
    }
    const removed = await resetFactors(db, userId);
    await appendAudit(db, {
      event: 'second-factor-reset',
      actor: { userId: 0, userType: 0, role: null, companyId: null, partnerId: null },
      method: 'CLI',
      route: null,
      fields: { targetUserId: userId, removed, by: 'operator' },
    });
    print(`Faktor kedua akun ${name} direset (${removed} data dihapus); tercatat di jejak audit.`);
    return 0;
  });
}
