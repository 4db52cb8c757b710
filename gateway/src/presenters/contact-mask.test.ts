import { describe, expect, it } from 'vitest';
import { MASK, maskEmail, maskPhone } from './contact-mask.ts';

/** A small seeded generator (mulberry32), so a failing case can be reproduced from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T;
  return { int, pick };
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz0123456789._-+',
  'ÀÉÎÕÜçñßøåæ',
  'пример',
  '例子测试',
  '😀🎉✨', // astral code points: two UTF-16 units each
  'ḍāṛī',
];
const TLDS = ['com', 'id', 'co.id', 'org', 'xn--p1ai', 'рф', 'technology', 'a', '123', ''];

function generatedEmail(r: ReturnType<typeof random>): { email: string; local: string; domain: string } {
  const word = (min: number, max: number) => {
    const alphabet = Array.from(r.pick(ALPHABETS));
    return Array.from({ length: r.int(min, max) }, () => r.pick(alphabet)).join('');
  };
  const local = word(1, 40);
  const tld = r.pick(TLDS);
  const host = word(1, 30);
  const domain = tld ? `${host}.${tld}` : host;
  return { email: `${local}@${domain}`, local, domain };
}

const codePoints = (s: string) => Array.from(s);

describe('maskEmail', () => {
  it('masks the examples of the decision', () => {
    expect(maskEmail('rina.wulandari@gmail.com')).toBe('r***@g***.com');
    expect(maskEmail('  budi@pdam.co.id ')).toBe('b***@p***.id');
    expect(maskEmail('ab@x.id')).toBe('***@***.id');
    expect(maskEmail('a@b')).toBe('***@***');
    expect(maskEmail('ñandú@córreo.es')).toBe('ñ***@c***.es');
    expect(maskEmail('😀😀😀@例子测试.中国')).toBe('😀***@例***.中国');
  });

  it('answers *** for whatever is not x@y', () => {
    for (const odd of ['', ' ', '@', 'no-at-sign', '@domain.com', 'local@', 'a@@', '   @   ']) {
      expect(maskEmail(odd)).toBe(MASK);
    }
  });

  it('over 5,000 generated addresses: fixed shape, at most the first character of each part, never a surrogate half', () => {
    const r = random(20261123);
    for (let i = 0; i < 5_000; i++) {
      const { email, local, domain } = generatedEmail(r);
      const masked = maskEmail(email);
      const context = `${email} → ${masked}`;
      expect(masked, context).toMatch(/^(\P{Cs}?)\*\*\*@(\P{Cs}?)\*\*\*(\.\p{L}{2,24})?$/u);
      // No lone surrogate (half of an astral character) in the mask.
      expect(masked, context).not.toMatch(/\p{Cs}/u);
      const [shownLocal, shownDomain] = masked.split('@') as [string, string];
      // A part shorter than 3 characters shows nothing; a longer one only its first character.
      const localLead = shownLocal.replace(MASK, '');
      expect(localLead, context).toBe(codePoints(local).length >= 3 ? (codePoints(local)[0] ?? '') : '');
      const host = domain.includes('.') ? domain.slice(0, domain.lastIndexOf('.')) : domain;
      const hostLead = shownDomain.slice(0, shownDomain.indexOf(MASK));
      expect(hostLead, context).toBe(codePoints(host).length >= 3 ? (codePoints(host)[0] ?? '') : '');
      // The hidden parts never appear: same mask whatever their length.
      if (codePoints(local).length >= 3) expect(masked, context).not.toContain(local);
    }
  });

  it('gives two addresses differing only after the first character the same mask', () => {
    expect(maskEmail('rahmat@gmail.com')).toBe(maskEmail('rina.w.1990@gmail.com'));
    expect(maskEmail('rahmat@gmail.com')).toBe(maskEmail('rahmat@gojek-mail.com'));
  });
});

describe('maskPhone', () => {
  it('masks the examples of the decision', () => {
    expect(maskPhone('+6281234567789')).toBe('+62 8** **** *789');
    expect(maskPhone('081234567789')).toBe('+62 8** **** *789');
    expect(maskPhone('62 812-3456-7789')).toBe('+62 8** **** *789');
    expect(maskPhone('(021) 5551234')).toBe('+62 2** **** *234');
    expect(maskPhone('+4915112345678')).toBe('+4** **** *678');
    expect(maskPhone('12345678')).toBe('*** **** *678');
  });

  it('reveals nothing of short or odd numbers', () => {
    for (const odd of [
      '',
      '+',
      '123',
      '0812',
      '+62 812 345',
      '+1234567',
      'tidak ada',
      '٠٨١٢٣٤٥٦٧٨٩',
      '++--  ',
    ]) {
      expect(maskPhone(odd), odd).toMatch(/^(\+62 )?\*\*\*$/);
    }
  });

  it('over 5,000 generated numbers: at most 4 digits shown, at least 4 hidden, the shown ones true', () => {
    const r = random(8);
    const separators = ['', ' ', '-', '.', '(', ')', ' '];
    for (let i = 0; i < 5_000; i++) {
      const prefix = r.pick(['+62', '62', '0', '+', '+1', '+44', '', '+62 0']);
      const digits = Array.from({ length: r.int(0, 18) }, () => String(r.int(0, 9))).join('');
      const phone = `${prefix}${Array.from(digits)
        .map((d) => d + (r.int(0, 4) === 0 ? r.pick(separators) : ''))
        .join('')}`;
      const masked = maskPhone(phone);
      const context = `${phone} → ${masked}`;
      expect(masked, context).toMatch(/^(\+62 \*\*\*|\*\*\*|(\+62 |\+)?[0-9*]\*\* \*\*\*\* \*[0-9]{3})$/);
      const all = phone.replace(/[^0-9]/g, '');
      const shown = masked
        .replace(/^\+62 /, '')
        .replace(/^\+/, '')
        .replace(/[^0-9]/g, '');
      expect(shown.length, context).toBeLessThanOrEqual(4);
      if (shown.length > 0) expect(all.length - shown.length, context).toBeGreaterThanOrEqual(4);
      if (shown.length > 0) expect(all.endsWith(shown.slice(-3)), context).toBe(true);
    }
  });
});
