/**
 * The notice address, by generated classes of input: what passes is one plain ASCII mailbox that no
 * mail header can read as anything more; line breaks, controls, unicode, lists and display names never
 * pass, wherever they sit; the limit's canonical form sees one mailbox through its spellings.
 */
import { isNoticeAddress, NOTICE_ADDRESS_MAX, reporterNoticeRequest } from '@wbs/shared/api/reporter-notices';
import { REPORTER_NOTICE_MESSAGES as M } from '@wbs/shared/messages';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { maskEmail } from '../presenters/contact-mask.ts';
import { addressHmac, canonicalAddress, newToken, tokenHash } from './address.ts';

const KEY = Buffer.alloc(32, 3);
const errorsOf = (email: unknown) => {
  const result = v.safeParse(reporterNoticeRequest, { email });
  return result.success ? null : [...new Set(result.issues.map((issue) => issue.message))];
};

/** A plain address as this product accepts it: letters, digits and . _ + - around an ASCII domain. */
const local = fc.stringMatching(/^[a-z0-9](?:[a-z0-9._+-]{0,20}[a-z0-9])?$/).filter((s) => !s.includes('..'));
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
const tld = fc.stringMatching(/^[a-z]{2,6}$/);
const plainAddress = fc
  .tuple(local, fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([l, labels, t]) => `${l}@${[...labels, t].join('.')}`);

/** What a header injection or a second recipient needs: a line break, a control, a separator. */
const breaking = fc.constantFrom(
  '\r',
  '\n',
  '\r\n',
  '\u0000',
  '\u0085',
  '\u2028',
  '\u2029',
  '\t',
  ' ',
  ',',
  ';',
  '<',
  '>',
  '"',
  '(',
  ')',
  '[',
  ']',
  ':',
  '\\',
  '@',
);
const nonAscii = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 3 })
  .filter((s) => [...s].some((c) => c.codePointAt(0)! > 0x7f));

const insertAt = (value: string, extra: string, at: number) => {
  const i = at % (value.length + 1);
  return `${value.slice(0, i)}${extra}${value.slice(i)}`;
};

describe('the notice address', () => {
  it('accepts generated plain addresses, and HTML’s own e-mail examples', () => {
    fc.assert(
      fc.property(plainAddress, (address) => {
        expect(isNoticeAddress(address)).toBe(true);
        expect(errorsOf(address)).toBeNull();
      }),
    );
    for (const ok of [
      'budi@contoh.co.id',
      "o'brien+wbs@mail.example.org",
      'x@xn--p1ai.xn--p1ai',
      'A.B@C.ID',
    ]) {
      expect(isNoticeAddress(ok), ok).toBe(true);
    }
  });

  it('refuses a line break, control, separator or bracket anywhere, with the one message', () => {
    fc.assert(
      fc.property(plainAddress, breaking, fc.nat(), (address, extra, at) => {
        const bad = insertAt(address, extra, at);
        // At the very ends a space or tab is only trimmed; anything else must fail.
        const trimmedAway = bad.trim() === address;
        expect(isNoticeAddress(bad)).toBe(false);
        if (!trimmedAway) expect(errorsOf(bad)).toEqual([M.emailInvalid]);
      }),
    );
  });

  it('refuses CR and LF even where a trim would have removed them', () => {
    fc.assert(
      fc.property(plainAddress, fc.constantFrom('\r', '\n', '\r\n', '\u2028'), (address, eol) => {
        expect(errorsOf(`${address}${eol}`)).toEqual([M.emailInvalid]);
        expect(errorsOf(`${eol}${address}`)).toEqual([M.emailInvalid]);
        expect(errorsOf(`${address}${eol}Bcc: korban@contoh.id`)).toEqual([M.emailInvalid]);
      }),
    );
  });

  it('refuses any non-ASCII character (unicode local parts and domains are not sent)', () => {
    fc.assert(
      fc.property(plainAddress, nonAscii, fc.nat(), (address, extra, at) => {
        expect(isNoticeAddress(insertAt(address, extra, at))).toBe(false);
      }),
    );
  });

  it('refuses anything longer than 254 characters, and any arbitrary string that is not one address', () => {
    const long = `${'a'.repeat(60)}@${Array.from({ length: 4 }, () => 'b'.repeat(60)).join('.')}.id`;
    expect(long.length).toBeGreaterThan(NOTICE_ADDRESS_MAX);
    expect(isNoticeAddress(long)).toBe(false);
    expect(errorsOf(long)).toEqual([M.emailInvalid]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        if (!isNoticeAddress(value)) return;
        // Whatever passes is ASCII, printable, one @, no separator, within the limit.
        expect(value.length).toBeLessThanOrEqual(NOTICE_ADDRESS_MAX);
        expect(value).toMatch(/^[\u0021-\u007e]+$/);
        expect(value.split('@')).toHaveLength(2);
        expect(value).not.toMatch(/[\s,;<>"()[\]\\:]/);
      }),
    );
    expect(errorsOf(undefined)).toEqual([M.emailRequired]);
    expect(errorsOf('   ')).toEqual([M.emailRequired]);
    expect(errorsOf(42)).toEqual([M.emailRequired]);
  });

  it('counts one mailbox however it is spelt: case, +tag, Gmail dots and googlemail.com', () => {
    const same = [
      'Budi.Santoso+wbs@GoogleMail.com',
      'budisantoso@gmail.com',
      'b.u.d.i.santoso+x+y@gmail.com',
    ];
    for (const spelling of same) expect(canonicalAddress(spelling)).toBe('budisantoso@gmail.com');
    // Outside Gmail the dots are the mailbox's own.
    expect(canonicalAddress('Budi.Santoso+wbs@Contoh.ID')).toBe('budi.santoso@contoh.id');
    expect(canonicalAddress('budi.santoso@contoh.id')).not.toBe(canonicalAddress('budisantoso@contoh.id'));
    fc.assert(
      fc.property(plainAddress, fc.stringMatching(/^[a-z0-9]{1,8}$/), (address, tag) => {
        const [l, d] = address.split('@') as [string, string];
        const canonical = canonicalAddress(address);
        expect(canonicalAddress(canonical)).toBe(canonical);
        expect(canonicalAddress(address.toUpperCase())).toBe(canonical);
        if (!l.includes('+')) {
          expect(canonicalAddress(`${l}+${tag}@${d}`)).toBe(canonical);
          expect(addressHmac(KEY, `${l}+${tag}@${d}`)).toBe(addressHmac(KEY, address));
        }
        // The HMAC names no part of the address, and another key gives another value.
        if (l.length >= 6) expect(addressHmac(KEY, address)).not.toContain(l);
        expect(addressHmac(Buffer.alloc(32, 4), address)).not.toBe(addressHmac(KEY, address));
      }),
    );
  });

  it('masks without showing the address, and makes tokens the routes accept and hashes that name nothing', () => {
    fc.assert(
      fc.property(plainAddress, (address) => {
        const masked = maskEmail(address);
        expect(masked).not.toBe(address);
        expect(masked).toContain('***');
        expect(masked.split('@')[0]!.replaceAll('*', '').length).toBeLessThanOrEqual(1);
      }),
    );
    const tokens = new Set(Array.from({ length: 200 }, newToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokenHash(token)).not.toContain(token.slice(0, 8));
    }
  });
});
