/**
 * Recovery codes: ten per account, each 10 characters of the base32 alphabet (50 bits), shown once as
 * `xxxxx-xxxxx` and kept only as keyed HMACs (store.ts). Typed back in any case, with or without the
 * dash or spaces (the request schema brings them to the canonical form).
 */
import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@wbs/shared/api/second-factor';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function newRecoveryCodes(): { canonical: string[]; shown: string[] } {
  const canonical = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return { canonical, shown: canonical.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`) };
}
