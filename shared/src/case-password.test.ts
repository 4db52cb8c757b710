/** The NEW case-password policy, over generated classes of weak and strong passwords. */
import { dictionary } from '@zxcvbn-ts/language-common';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseCaseCreateFields } from './api/case-create.ts';
import { isCommonPassword } from './common-passwords.ts';
import {
  CASE_PASSWORD_MIN,
  casePasswordSchema,
  fieldErrors,
  isWebLink,
  trackingSchema,
  trivialPassword,
} from './forms.ts';
import { FIELD_MESSAGES as M } from './messages.ts';
import { generatePassphrase, PASSPHRASE_WORDS } from './passphrase.ts';

const errorsOf = (password: string, confirmPassword = password) => {
  const result = v.safeParse(casePasswordSchema, { password, confirmPassword });
  return result.success ? {} : fieldErrors(result.issues);
};

/** A small deterministic generator, so a failure names a reproducible input. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (bound: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % bound;
  };
}
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&*+-=?@_';

describe('trivial passwords (any length)', () => {
  const repeated: string[] = [];
  const sequences: string[] = [];
  const rand = seeded(7);
  for (let i = 0; i < 200; i++) {
    const unit = Array.from({ length: 1 + rand(4) }, () => ALPHABET[rand(ALPHABET.length)]).join('');
    repeated.push(
      unit
        .repeat(Math.ceil((CASE_PASSWORD_MIN + rand(20)) / unit.length))
        .slice(0, CASE_PASSWORD_MIN + rand(6)),
    );
  }
  for (const row of ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl']) {
    for (let start = 0; start + CASE_PASSWORD_MIN <= row.length; start++) {
      const run = row.slice(start, start + CASE_PASSWORD_MIN);
      sequences.push(run, [...run].reverse().join(''), run.toUpperCase());
    }
  }

  it.each(repeated)('refuses the repeated unit %s', (password) => {
    expect(trivialPassword(password)).toBe(true);
    expect(errorsOf(password).password).toBe(M.casePasswordTrivial);
  });

  it.each(sequences)('refuses the run %s', (password) => {
    expect(errorsOf(password).password).toBe(M.casePasswordTrivial);
  });
});

describe('common passwords from the maintained list', () => {
  const listed = dictionary['passwords-common'].filter(
    (word) => word.length >= CASE_PASSWORD_MIN && !trivialPassword(word),
  );
  const rand = seeded(11);
  const sample = Array.from({ length: 300 }, () => listed[rand(listed.length)] ?? '');
  const wordsOnly = dictionary['passwords-common'].slice(0, 3000).filter((word) => /^[a-z]{4,}$/.test(word));
  const decorated = Array.from({ length: 200 }, () => {
    const word = wordsOnly[rand(wordsOnly.length)] ?? 'password';
    const suffix = String(rand(10_000)) + '!#@'.charAt(rand(3));
    const cased = rand(2) ? word[0]?.toUpperCase() + word.slice(1) : word;
    return `${cased}${suffix}`.padEnd(CASE_PASSWORD_MIN, '1');
  });

  it('the list is the real one (tens of thousands of entries)', () => {
    expect(dictionary['passwords-common'].length).toBeGreaterThan(20_000);
  });

  it.each(sample)('refuses the listed %s', (password) => {
    expect(isCommonPassword(password)).toBe(true);
    expect(isCommonPassword(password.toUpperCase())).toBe(true);
  });

  it.each(decorated)('refuses the decorated %s', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each([
    '12345678',
    'password',
    'aaaaaaaa',
    'Rahasia#2026',
    'Password2026!',
    'indonesia123',
    'bismillah99',
  ])('refuses %s (weak and Indonesian favourites) one way or another', (password) => {
    const schemaErrors = errorsOf(password);
    expect(schemaErrors.password !== undefined || isCommonPassword(password)).toBe(true);
  });
});

describe('strong passwords', () => {
  const phrases = Array.from({ length: 300 }, generatePassphrase);
  const rand = seeded(23);
  const randoms = Array.from({ length: 300 }, () =>
    Array.from({ length: CASE_PASSWORD_MIN + rand(20) }, () => ALPHABET[rand(ALPHABET.length)]).join(''),
  );

  it.each([...phrases, ...randoms])('accepts %s', (password) => {
    expect(errorsOf(password)).toEqual({});
    expect(isCommonPassword(password)).toBe(false);
  });

  it('generates five list words and two digits from the whole list', () => {
    const words = new Set(PASSPHRASE_WORDS);
    const seen = new Set<string>();
    for (const phrase of phrases) {
      const parts = phrase.split('-');
      expect(parts).toHaveLength(6);
      for (const word of parts.slice(0, 5)) {
        expect(words.has(word as (typeof PASSPHRASE_WORDS)[number])).toBe(true);
        seen.add(word);
      }
      expect(parts[5]).toMatch(/^\d{2}$/);
    }
    // 1,500 draws from 256 words: a biased or constant generator would miss most of the list.
    expect(seen.size).toBeGreaterThan(230);
    expect(new Set(phrases).size).toBe(phrases.length);
  });
});

describe('length and confirmation', () => {
  it('asks for the new minimum and a matching confirmation', () => {
    expect(errorsOf('Kp#9x')).toEqual({ password: M.casePasswordMin });
    expect(errorsOf('kopi-pelangi-42', 'kopi-pelangi-43')).toEqual({
      confirmPassword: M.casePasswordMismatch,
    });
    expect(errorsOf('')).toMatchObject({ password: M.casePasswordRequired });
  });

  it('tracking still accepts an existing case password of the old policy', () => {
    expect(v.safeParse(trackingSchema, { caseNumber: 'WBS-00000001', password: '12345678' }).success).toBe(
      true,
    );
  });
});

describe('the gateway parse of POST /cases refuses weak passwords with the wizard messages', () => {
  const parts = (password: string) => ({ password, confirmPassword: password });
  it.each([
    ['password12345', M.casePasswordCommon],
    ['aaaaaaaaaaaa', M.casePasswordTrivial],
    ['Kp#9x', M.casePasswordMin],
  ])('%s → %s', (password, message) => {
    const result = parseCaseCreateFields(parts(password) as Record<string, string>, 'guest');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.password).toBe(message);
  });

  it('a generated passphrase has no password error', () => {
    const result = parseCaseCreateFields(parts(generatePassphrase()) as Record<string, string>, 'guest');
    if (!result.ok) expect(result.errors.password).toBeUndefined();
  });
});

describe('evidence link', () => {
  it.each([
    'https://drive.example.com/berkas/123',
    'http://intranet.perumda.co.id/a?b=c',
    'http://localhost:8080/x',
  ])('accepts %s', (link) => expect(isWebLink(link)).toBe(true));
  it.each([
    'lihat di drive saya',
    'javascript:alert(1)',
    'ftp://files.example.com/a',
    'https://',
    'www.example.com',
    'https://exa mple.com',
    'https://user:pw@example.com/',
    'data:text/html,hi',
    'https://intranet',
  ])('refuses %s', (link) => expect(isWebLink(link)).toBe(false));
});
