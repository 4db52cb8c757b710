/**
 * User text as the browser's PDFs can show it. The bundled Roboto (the only font, so no third-party
 * request) has glyphs for Latin, Greek, Cyrillic and Vietnamese; pdfmake neither falls back to another
 * font nor lays out right-to-left scripts. A character without a glyph would print as an empty box and
 * be lost, so it is written as its code point instead (`[U+1F600]`): the copy stays complete and a
 * reader can tell what was there. Invisible direction and control characters are written the same way,
 * so no hidden character can reorder or hide what the PDF shows.
 */

/** Code point ranges with a glyph in all four Roboto files (checked against the fonts by pdfText.test.ts). */
// biome-ignore format: a table, kept compact
export const ROBOTO_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], [0xa0, 0x17f], [0x18f, 0x18f], [0x192, 0x192], [0x1a0, 0x1a1], [0x1af, 0x1b0],
  [0x1f0, 0x1f0], [0x1fa, 0x1ff], [0x218, 0x21b], [0x237, 0x237], [0x259, 0x259], [0x2bc, 0x2bc],
  [0x2c6, 0x2c7], [0x2c9, 0x2c9], [0x2d8, 0x2dd], [0x2f3, 0x2f3], [0x300, 0x301], [0x303, 0x303],
  [0x309, 0x309], [0x30f, 0x30f], [0x323, 0x323], [0x384, 0x38a], [0x38c, 0x38c], [0x38e, 0x3a1],
  [0x3a3, 0x3ce], [0x3d1, 0x3d2], [0x3d6, 0x3d6], [0x400, 0x486], [0x488, 0x513], [0x1e00, 0x1e01],
  [0x1e3e, 0x1e3f], [0x1e80, 0x1e85], [0x1e9e, 0x1e9e], [0x1ea0, 0x1ef9], [0x1f4d, 0x1f4d], [0x2000, 0x200b],
  [0x2010, 0x2011], [0x2013, 0x2015], [0x2017, 0x201e], [0x2020, 0x2022], [0x2025, 0x2027], [0x2030, 0x2030],
  [0x2032, 0x2033], [0x2039, 0x203a], [0x203c, 0x203c], [0x2044, 0x2044], [0x2070, 0x2070], [0x2074, 0x208e],
  [0x20a3, 0x20a4], [0x20a6, 0x20ac], [0x20b1, 0x20b1], [0x20b9, 0x20ba], [0x20bc, 0x20bd], [0x20c1, 0x20c1],
  [0x2105, 0x2105], [0x2113, 0x2113], [0x2116, 0x2116], [0x2122, 0x2122], [0x2126, 0x2126], [0x212e, 0x212e],
  [0x215b, 0x215e], [0x2202, 0x2202], [0x2206, 0x2206], [0x220f, 0x220f], [0x2211, 0x2212], [0x221a, 0x221a],
  [0x221e, 0x221e], [0x222b, 0x222b], [0x2248, 0x2248], [0x2260, 0x2260], [0x2264, 0x2265], [0x25a0, 0x25a0],
  [0x25ca, 0x25cb], [0x25cf, 0x25cf], [0xfb01, 0xfb04], [0xfffd, 0xfffd],
];

export function hasRobotoGlyph(codePoint: number): boolean {
  let lo = 0;
  let hi = ROBOTO_RANGES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = ROBOTO_RANGES[mid] as readonly [number, number];
    if (codePoint < from) hi = mid - 1;
    else if (codePoint > to) lo = mid + 1;
    else return true;
  }
  return false;
}

/** How a character the font cannot show is written: `[U+1F600]`. */
export const codePointMark = (codePoint: number) =>
  `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`;

const ZERO_WIDTH_SPACE = '\u200b';
/** pdfmake never breaks inside a word: a longer run than this gets a break chance (a zero-width space). */
export const LONGEST_UNBROKEN = 40;

export type PdfText = { text: string; substituted: boolean };

/**
 * `input` as the PDF shows it: composed (NFC, so "e" + U+0301 is "é"), line breaks as "\n", a tab as
 * four spaces, every other character without a Roboto glyph as its code point, and a break chance
 * after every 40 characters of a run without spaces. `substituted` says whether a code point was
 * written.
 */
export function pdfText(input: string): PdfText {
  const normalised = input
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replaceAll('\t', '    ');
  let substituted = false;
  let text = '';
  let run = 0;
  const push = (piece: string, breaks: boolean) => {
    if (breaks) {
      run = 0;
      text += piece;
      return;
    }
    for (const ch of piece) {
      if (run === LONGEST_UNBROKEN) {
        text += ZERO_WIDTH_SPACE;
        run = 0;
      }
      text += ch;
      run += 1;
    }
  };
  for (const ch of normalised) {
    const codePoint = ch.codePointAt(0) ?? 0;
    if (ch === '\n' || ch === ' ') push(ch, true);
    else if (hasRobotoGlyph(codePoint)) push(ch, /\s/.test(ch) || ch === ZERO_WIDTH_SPACE);
    else {
      substituted = true;
      push(codePointMark(codePoint), false);
    }
  }
  return { text, substituted };
}
