// @vitest-environment node
/**
 * User text in the browser's PDFs: the glyph table against the bundled Roboto files themselves, and
 * generated texts of every class a reporter can type (long, emoji, right-to-left, control and
 * invisible characters, decomposed accents): what comes out has a glyph for every character, breaks
 * long runs, and gives the input back once the code points are read back.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { codePointMark, hasRobotoGlyph, LONGEST_UNBROKEN, pdfText, ROBOTO_RANGES } from './pdfText.ts';

/** fontkit, through pdfmake's own pdfkit (the very copy that embeds the fonts), not a new dependency. */
function loadFontkit(): { create(buffer: Buffer): { characterSet: number[] } } {
  const web = createRequire(import.meta.url);
  const pdfkit = createRequire(createRequire(web.resolve('pdfmake')).resolve('pdfkit'));
  return pdfkit('fontkit');
}

const FONT_FILES = ['Regular', 'Medium', 'Italic', 'MediumItalic'].map((face) =>
  createRequire(import.meta.url).resolve(`pdfmake/build/fonts/Roboto/Roboto-${face}.ttf`),
);

/** A small deterministic generator, so a failure names a reproducible input. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const repeat = (rand: Rand, max: number, piece: () => string) =>
  Array.from({ length: 1 + Math.floor(rand() * max) }, piece).join('');

const WORDS = [
  'laporan',
  'dugaan',
  'suap',
  'pengadaan',
  'meter',
  'air',
  'Rp 50.000.000',
  'kantor',
  'ÉÑØ',
  'Ưu',
];
const EMOJI = ['😀', '👍🏽', '🇮🇩', '👨‍👩‍👧', '❤️', '🧾', '💸'];
const RTL = ['مرحبا بالعالم', 'שלום עולם', 'رشوة', '\u200f', '\u202e', '\u2066', '\u2069'];
const CONTROL = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\t',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
];
const INVISIBLE = ['\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
const OTHER = ['漢字', 'ไทย', 'ꦗꦮ', 'e\u0301', 'a\u0308', 'Ελληνικά', 'Кириллица', 'Tiếng Việt'];

/** One text of a class, as a reporter could type it (never literal "[U+" text, which reads back as a mark). */
const CLASSES: Record<string, (rand: Rand) => string> = {
  long: (rand) => repeat(rand, 3000, () => `${pick(rand, WORDS)} `),
  unbroken: (rand) => 'x'.repeat(1 + Math.floor(rand() * 5000)),
  emoji: (rand) => repeat(rand, 200, () => pick(rand, [...EMOJI, ' ', pick(rand, WORDS)])),
  rtl: (rand) => repeat(rand, 200, () => pick(rand, [...RTL, ' ', pick(rand, WORDS)])),
  control: (rand) => repeat(rand, 200, () => pick(rand, [...CONTROL, ...INVISIBLE, pick(rand, WORDS)])),
  mixed: (rand) =>
    repeat(rand, 300, () => pick(rand, [...WORDS, ...EMOJI, ...RTL, ...CONTROL, ...OTHER, '\n'])),
};

/** What `pdfText` promises to keep: composed, one kind of line break, tabs as four spaces. */
const expected = (input: string) =>
  input
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replaceAll('\t', '    ');

/** The output read back: inserted break chances dropped, code points turned back into characters. */
const readBack = (output: string) =>
  output
    .replaceAll('\u200b', '')
    .replace(/\[U\+([0-9A-F]{4,6})\]/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));

describe('the glyph table', () => {
  const fontkit = loadFontkit();
  const sets = FONT_FILES.map((file) => new Set(fontkit.create(readFileSync(file)).characterSet));

  it('claims no character one of the four Roboto files lacks', () => {
    for (const [from, to] of ROBOTO_RANGES) {
      for (let cp = from; cp <= to; cp++) {
        for (const [i, set] of sets.entries())
          expect(set.has(cp), `${codePointMark(cp)} in ${FONT_FILES[i]}`).toBe(true);
      }
    }
  });

  it('leaves out only controls, private-use and non-characters of the fonts', () => {
    const left = [...(sets[0] ?? [])].filter((cp) => !hasRobotoGlyph(cp)).sort((a, b) => a - b);
    expect(left.map(codePointMark)).toEqual(
      [0x0, 0x2, 0xd, 0xee01, 0xee02, 0xf6c3, 0xfeff, 0xfffc, 0xffff].map(codePointMark),
    );
  });

  it('answers like the ranges for every BMP and a sample of astral code points', () => {
    const inRanges = (cp: number) => ROBOTO_RANGES.some(([from, to]) => cp >= from && cp <= to);
    for (let cp = 0; cp <= 0xffff; cp++) expect(hasRobotoGlyph(cp)).toBe(inRanges(cp));
    for (const cp of [0x1f600, 0x10000, 0x10ffff]) expect(hasRobotoGlyph(cp)).toBe(false);
  });
});

describe('pdfText over generated texts', () => {
  for (const [name, make] of Object.entries(CLASSES)) {
    it(`${name}: every character has a glyph, runs break, and the text reads back whole`, () => {
      const rand = seeded(name.length * 7919);
      for (let n = 0; n < 40; n++) {
        const input = make(rand);
        const { text, substituted } = pdfText(input);
        const glyphless = [...text].filter((ch) => ch !== '\n' && !hasRobotoGlyph(ch.codePointAt(0) ?? 0));
        expect(
          glyphless.map((ch) => codePointMark(ch.codePointAt(0) ?? 0)),
          JSON.stringify(input),
        ).toEqual([]);
        const longest = Math.max(...text.split(/[\s\u200b]/).map((run) => run.length));
        expect(longest).toBeLessThanOrEqual(LONGEST_UNBROKEN);
        expect(readBack(text)).toBe(expected(input));
        expect(substituted).toBe(
          [...expected(input)].some((ch) => ch !== '\n' && !hasRobotoGlyph(ch.codePointAt(0) ?? 0)),
        );
      }
    });
  }

  it('writes what the font lacks as its code point and keeps what it has', () => {
    expect(pdfText('Halo 😀 dunia').text).toBe('Halo [U+1F600] dunia');
    expect(pdfText('a\u202eb').text).toBe('a[U+202E]b');
    expect(pdfText('bel\u0007').text).toBe('bel[U+0007]');
    expect(pdfText('Café e\u0301 Ελλάδα Москва Việt').text).toBe('Café é Ελλάδα Москва Việt');
    expect(pdfText('satu\r\ndua\rtiga\tempat')).toEqual({
      text: 'satu\ndua\ntiga    empat',
      substituted: false,
    });
  });
});
