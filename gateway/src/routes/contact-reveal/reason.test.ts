/**
 * The reason of a contact reveal must hold words (docs/adr/0050-reveal-reasons-must-hold-words.md): after
 * NFKC and without invisible
 * characters, at least 2 words (runs of 2+ letters) and 10 letters in them. Generated inputs against
 * the shared schema (what the web form and the gateway both run) and against the route.
 */

import { latestIndonesianToday } from '@wbs/shared/api/cases';
import {
  contactRevealRequest,
  REVEAL_REASON_MAX,
  REVEAL_REASON_MIN,
  reasonWords,
} from '@wbs/shared/api/contact-reveal';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, buildTestApp, demoLogins, type TestApp } from '../../test/helpers.ts';

/** Characters that show nothing: format, controls, default-ignorable letters and marks. */
const INVISIBLES = [
  '\u200B', // zero-width space
  '\u200C', // zero-width non-joiner
  '\u200D', // zero-width joiner
  '\u2060', // word joiner
  '\uFEFF', // byte order mark
  '\u00AD', // soft hyphen
  '\u200E', // left-to-right mark
  '\u200F', // right-to-left mark
  '\u202E', // right-to-left override
  '\u2066', // left-to-right isolate
  '\u180E', // Mongolian vowel separator
  '\u034F', // combining grapheme joiner
  '\uFE0F', // variation selector 16
  '\u3164', // Hangul filler (a letter that renders blank)
  '\u115F', // Hangul choseong filler
  '\u1160', // Hangul jungseong filler
  '\uFFA0', // half-width Hangul filler
  '\u{E0041}', // tag letter A
  '\u0000',
  '\u0007',
  '\u001B',
  '\u007F',
];
/** Every kind of space and line break: they separate words, never make them. */
const SPACES = [
  ' ',
  '\u00A0',
  '\u2002',
  '\u2003',
  '\u2009',
  '\u202F',
  '\u3000',
  '\t',
  '\n',
  '\u2028',
  '\u2029',
];
/** Visible, but not letters. */
const NOT_LETTERS = [
  '0',
  '7',
  '٣',
  '!',
  '?',
  '.',
  '-',
  '_',
  '*',
  '#',
  '@',
  '/',
  '★',
  '→',
  '😀',
  '🙈',
  '\u2800', // braille blank
  '\u0301', // a combining accent on nothing
  '１',
];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéñüçßąłøåæ'];

const charsOf = (pool: string[], minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...pool), { minLength, maxLength }).map((chars) => chars.join(''));

/** Inserts invisible characters at generated places of `text` (between any two characters). */
const sprinkled = (text: string) =>
  fc
    .array(fc.tuple(fc.nat({ max: text.length }), fc.constantFrom(...INVISIBLES)), { maxLength: 20 })
    .map((inserts) => {
      const chars = [...text];
      for (const [at, ch] of inserts.sort(([a], [b]) => b - a))
        chars.splice(Math.min(at, chars.length), 0, ch);
      return chars.join('');
    });

const word = (minLength: number) => charsOf(LETTERS, minLength, 14);

/** A reason as a handler writes it: 2–8 words, at least 10 letters, any separators. */
const realReason = fc
  .tuple(
    fc.array(word(2), { minLength: 2, maxLength: 8 }),
    fc.array(fc.constantFrom(...SPACES, ', ', ' - ', ': ', ' (', ') '), { minLength: 8, maxLength: 8 }),
  )
  .map(([words, separators]) => words.map((w, i) => (i === 0 ? w : `${separators[i]}${w}`)).join(''))
  .filter((text) => reasonWords(text).letters >= 10 && text.trim().length >= REVEAL_REASON_MIN);

const check = (reason: string) => v.safeParse(contactRevealRequest, { reason });
const firstMessage = (reason: string) => {
  const result = check(reason);
  return result.success ? null : result.issues[0]?.message;
};
const REFUSALS = [
  FIELD_MESSAGES.revealReasonRequired,
  FIELD_MESSAGES.revealReasonMin,
  FIELD_MESSAGES.revealReasonWords,
];

describe('the reveal reason rule (shared schema)', () => {
  it('refuses every reason without a letter: invisible, spaces, digits, symbols, emoji', () => {
    fc.assert(
      fc.property(charsOf([...INVISIBLES, ...SPACES, ...NOT_LETTERS], 1, 120), (reason) => {
        expect(check(reason).success).toBe(false);
        expect(REFUSALS).toContain(firstMessage(reason));
      }),
      { numRuns: 2_000 },
    );
  });

  it('says "wajib diisi" of a reason made only of invisible characters and spaces', () => {
    fc.assert(
      fc.property(charsOf([...INVISIBLES, ...SPACES], 1, 60), (reason) => {
        expect(firstMessage(reason)).toBe(FIELD_MESSAGES.revealReasonRequired);
      }),
    );
  });

  it('refuses ten characters or more of symbols with the words message', () => {
    fc.assert(
      fc.property(charsOf(NOT_LETTERS, 10, 60), (reason) => {
        fc.pre(reason.trim().length >= REVEAL_REASON_MIN);
        expect(firstMessage(reason)).toBe(FIELD_MESSAGES.revealReasonWords);
      }),
    );
  });

  it('refuses one long word, however many invisible characters try to split it', () => {
    fc.assert(
      fc.property(word(10).chain(sprinkled), (reason) => {
        expect(check(reason).success).toBe(false);
      }),
    );
  });

  it('refuses letters that never stand two in a row (no words)', () => {
    // Not the combining accent: after a letter it is that letter's accent ("a\u0301a" reads "áa", two
    // letters in a row), so it joins letters instead of parting them.
    const parting = [...SPACES, ...NOT_LETTERS].filter((c) => !/\p{M}/u.test(c));
    expect(reasonWords('a\u0301a b\u0301b').words).toBe(2);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...LETTERS), fc.constantFrom(...parting)), {
          minLength: 10,
          maxLength: 80,
        }),
        (pairs) => {
          expect(check(pairs.map(([l, s]) => l + s).join('')).success).toBe(false);
        },
      ),
    );
  });

  it('refuses two short words below ten letters', () => {
    fc.assert(
      fc.property(word(2), word(2), fc.constantFrom(...SPACES), (a, b, space) => {
        fc.pre(a.length + b.length < 10);
        expect(check(`${a}${space}${b}!!!!!!!!!!`).success).toBe(false);
      }),
    );
  });

  it('accepts real reasons, also with invisible characters sprinkled in and in full-width letters', () => {
    fc.assert(
      fc.property(realReason.chain(sprinkled), fc.boolean(), (reason, fullWidth) => {
        const text = fullWidth
          ? reason.replace(/[a-zA-Z]/g, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))
          : reason;
        fc.pre(text.trim().length <= REVEAL_REASON_MAX);
        const result = check(text);
        expect(result.success, JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('counts the same words with or without invisible characters', () => {
    const mixed = charsOf([...LETTERS, ...SPACES, ...NOT_LETTERS], 0, 80);
    fc.assert(
      fc.property(
        mixed.chain((text) => fc.tuple(fc.constant(text), sprinkled(text))),
        ([plain, hidden]) => {
          const a = reasonWords(plain);
          const b = reasonWords(hidden);
          expect([b.words, b.letters]).toEqual([a.words, a.letters]);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('POST /cases/{id}/contact-reveal refuses reasons without words', () => {
  let t: TestApp;
  const login = demoLogins(() => t.app);
  let caseId: number;
  const reveal = async (reason: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${caseId}/contact-reveal`,
      headers: browser(await login('admin.kahuripan')),
      payload: { reason },
    });

  beforeAll(async () => {
    t = await buildTestApp();
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: browser(await login('admin.kahuripan')),
      payload: { from: '2020-01-01', to: latestIndonesianToday(), pageSize: 1 },
    });
    expect(list.statusCode, list.body).toBe(200);
    caseId = (list.json() as { items: { id: number }[] }).items[0]!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 400 with the Indonesian message, and reveals nothing', async () => {
    const fixed = [
      '\u200B'.repeat(12),
      '\u3164'.repeat(10),
      '!!!!!!!!!!!!',
      '..........',
      '😀😀😀😀😀😀😀😀😀😀',
      'Klarifikasi\u200Bbukti',
      'a b c d e f g h i j',
      '1234567890',
    ];
    const generated = fc.sample(charsOf([...INVISIBLES, ...SPACES, ...NOT_LETTERS], 10, 60), {
      numRuns: 25,
      seed: 176,
    });
    for (const reason of [...fixed, ...generated]) {
      const res = await reveal(reason);
      expect(res.statusCode, JSON.stringify(reason)).toBe(400);
      expect(REFUSALS).toContain(res.json().errors.reason);
      expect(res.body).not.toContain('@');
    }
    expect((await reveal('!!!!!!!!!!!!')).json().errors).toEqual({
      reason: 'Alasan harus berisi minimal 2 kata dengan total minimal 10 huruf',
    });
    // Nothing refused reached the handler: no reveal was written to the audit.
    expect(t.logs.some((l) => l.event === 'contact-revealed')).toBe(false);
  });

  it('accepts a real reason with invisible characters in it', async () => {
    const res = await reveal('Perlu\u200B menghubungi\u00A0pelapor\u200D untuk klarifikasi');
    expect(res.statusCode, res.body).toBe(200);
  });
});
