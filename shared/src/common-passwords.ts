/**
 * The common-password check of NEW case passwords, against the maintained list of
 * @zxcvbn-ts/language-common (the most used passwords of public breach corpora). Kept out of
 * forms.ts because the list is large: the gateway imports it directly, the web loads it lazily.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const COMMON = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

/**
 * True when the password, ignoring case, is on the list, or is a listed password with only digits
 * and symbols added around it ("Password2026!", "#qwerty123").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return true;
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  return core.length >= 4 && core !== lower && COMMON.has(core);
}
