/**
 * Masking of a hidden reporter's e-mail and phone for handlers (docs/product/privacy.md#contact-masking):
 * enough for a handler to recognise the channel (which mail provider, which kind of number), never
 * enough to reach or identify the reporter. Fixed-width masks (`***`, `** ****`) so the mask tells
 * nothing of the hidden length either. Characters are counted as code points, never halves of a
 * surrogate pair, so non-ASCII addresses mask cleanly.
 *
 * E-mail `local@domain`: `{l}***@{d}***{.tld}`
 * - `{l}` / `{d}`: the first character of the local part / of the domain, shown only when that part
 *   has at least 3 characters (a 1- or 2-character part would be half revealed);
 * - `{.tld}`: the domain's last label, when the domain has a dot and that label is 2–24 letters;
 * - anything not of the form `x@y` (no `@`, empty parts) is `***`.
 *   `rina.w@gmail.com` → `r***@g***.com`; `ab@x.id` → `***@***.id`.
 *
 * Phone (only its ASCII digits count; spaces, dashes, brackets are ignored):
 * - Indonesian (`+62…`, `62…`, `0…`): `+62 {first}** **** *{last 3}` of the national number,
 *   `+6281234567789` and `081234567789` → `+62 8** **** *789`;
 * - other international (`+…`): `+{first}** **** *{last 3}`;
 * - otherwise: `*** **** *{last 3}`;
 * - fewer than 8 digits in the part shown from (short or odd numbers): `***` with nothing revealed,
 *   so at most 4 digits of a number ever show and at least 4 always stay hidden.
 */

export const MASK = '***';
/** Shortest number (after the country code) of which first and last digits may be shown. */
const MIN_DIGITS_SHOWN = 8;

const chars = (value: string): string[] => Array.from(value);

/** The first character of a part, only if the part is long enough for that to say little. */
const lead = (part: string): string => {
  const list = chars(part);
  return list.length >= 3 ? (list[0] ?? '') : '';
};

export function maskEmail(email: string): string {
  const value = email.trim();
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return MASK;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot + 1) : '';
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const suffix = /^\p{L}{2,24}$/u.test(tld) ? `.${tld}` : '';
  return `${lead(local)}${MASK}@${lead(host)}${MASK}${suffix}`;
}

export function maskPhone(phone: string): string {
  const value = phone.trim();
  const digits = value.replace(/[^0-9]/g, '');
  const international = value.startsWith('+');
  let prefix: string;
  let national: string;
  if (digits.startsWith('62')) {
    prefix = '+62 ';
    national = digits.slice(2);
  } else if (!international && digits.startsWith('0')) {
    prefix = '+62 ';
    national = digits.slice(1);
  } else if (international) {
    prefix = '+';
    national = digits;
  } else {
    prefix = '';
    national = digits;
  }
  if (national.length < MIN_DIGITS_SHOWN) return prefix === '+62 ' ? `+62 ${MASK}` : MASK;
  const first = prefix === '' ? '*' : national.slice(0, 1);
  return `${prefix}${first}** **** *${national.slice(-3)}`;
}
