/** The receipt POST /cases returns with the complaint number (signed by the newest key). */
import type { Receipt } from '@wbs/shared/api/case-create';
import type { ReceiptKey } from './keys.ts';
import { signReceipt } from './receipt.ts';

export function issueReceipt(
  keys: ReceiptKey[],
  caseNumber: string,
  digest: string,
  now = new Date(),
): Receipt {
  const key = keys.at(-1);
  if (!key) throw new Error('no receipt signing key');
  // Whole seconds: the time a person reads on the receipt is the time that was signed.
  const filedAt = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString();
  return {
    code: signReceipt(key, { caseNumber, filedAt, digest }),
    keyId: key.id,
    caseNumber,
    filedAt,
    digest,
  };
}
