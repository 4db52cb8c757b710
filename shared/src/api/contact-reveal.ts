/**
 * POST /api/v1/cases/{id}/contact-reveal: a handler allowed to write activity logs states why it
 * needs a hidden reporter's e-mail and phone and gets them in clear (docs/product/privacy.md#contact-reveal).
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { nullableString } from './common.ts';

export const REVEAL_REASON_MIN = 10;
export const REVEAL_REASON_MAX = 500;
/** What a reason must hold once invisible characters are gone (docs/adr/0050-reveal-reasons-must-hold-words.md). */
export const REVEAL_REASON_MIN_WORDS = 2;
export const REVEAL_REASON_MIN_LETTERS = 10;

/**
 * Characters that show nothing: format characters (zero-width space and joiners, bidi marks, soft
 * hyphen, tags…), controls other than the whitespace ones, and every default-ignorable code point
 * (Hangul fillers are letters that render blank, variation selectors are marks).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]|(?![\t\n\v\f\r])\p{Cc}/gu;
/** A word: at least two letters in a row, each with its combining marks (accents, vowel signs). */
const WORD = /(?:\p{L}\p{M}*){2,}/gu;
const LETTER = /\p{L}/gu;

/**
 * The words of a reason as a reader sees them: NFKC (full-width and styled letters become plain
 * ones), invisible characters removed (so a zero-width space neither counts nor splits a word), and
 * anything that is not a letter (spaces of any kind, digits, punctuation, symbols, emoji) between words.
 */
export function reasonWords(reason: string): { words: number; letters: number; visible: string } {
  const visible = reason.normalize('NFKC').replace(INVISIBLE, '').trim();
  const words = visible.match(WORD) ?? [];
  let letters = 0;
  for (const word of words) letters += word.match(LETTER)?.length ?? 0;
  return { words: words.length, letters, visible };
}

const hasWords = (reason: string) => {
  const { words, letters } = reasonWords(reason);
  return words >= REVEAL_REASON_MIN_WORDS && letters >= REVEAL_REASON_MIN_LETTERS;
};

export const contactRevealRequest = v.object({
  reason: v.optional(
    v.pipe(
      v.string(M.revealReasonRequired),
      v.trim(),
      v.nonEmpty(M.revealReasonRequired),
      // Only invisible characters: as empty as it looks.
      v.check((reason) => reasonWords(reason).visible !== '', M.revealReasonRequired),
      v.minLength(REVEAL_REASON_MIN, M.revealReasonMin),
      v.maxLength(REVEAL_REASON_MAX, M.max500),
      v.check(hasWords, M.revealReasonWords),
    ),
    '',
  ),
});
export type ContactRevealRequest = v.InferOutput<typeof contactRevealRequest>;

export const contactRevealReply = v.object({ email: nullableString, phone: nullableString });
export type ContactRevealReply = v.InferOutput<typeof contactRevealReply>;
