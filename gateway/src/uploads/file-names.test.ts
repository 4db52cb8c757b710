/**
 * File names between the browser, the gateway and the legacy (docs/adr/0048-form-data-file-names.md): a
 * part's `filename` is
 * written in the HTML form-data encoding (`"` → `%22`, CR → `%0D`, LF → `%0A`, nothing else), by
 * browsers and by undici alike; the gateway reads it back to the real name, shows stored names the
 * same way, and writes Content-Disposition safely (RFC 6266 with RFC 5987 `filename*`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../routes/cases/files.ts';
import { cleanFileName, formDataFileName, shownFileName } from './policy.ts';

/** The form-data encoding of a `filename`, as the WHATWG HTML standard (and undici) write it. */
async function writtenByFormData(name: string): Promise<string> {
  const form = new FormData();
  form.append('f', new Blob(['x']), name);
  const body = await new Response(form).text();
  const match = /filename="([^"]*)"/.exec(body);
  if (!match?.[1] && match?.[1] !== '') throw new Error(`no filename in ${body.slice(0, 200)}`);
  return match[1];
}

describe('file names in form data', () => {
  it('reads back the name a browser wrote, quotes included', async () => {
    expect(await writtenByFormData('bukti "final".pdf')).toBe('bukti %22final%22.pdf');
    expect(formDataFileName('bukti %22final%22.pdf')).toBe('bukti "final".pdf');
    // `%` is not escaped by the encoding, so other percent texts are the name's own.
    expect(formDataFileName('laporan 100% %41 %2522.pdf')).toBe('laporan 100% %41 %2522.pdf');
    expect(formDataFileName('a%0d%0a.png')).toBe('a%0d%0a.png');
  });

  it('the real name survives the round trip for any name without the text %22, %0D or %0A', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((n) => !/%22|%0D|%0A/.test(n)),
        async (name) => {
          const written = await writtenByFormData(name);
          expect(written).not.toContain('"');
          expect(cleanFileName(formDataFileName(written))).toBe(cleanFileName(name));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shows a stored name as its real name, without control characters or path', () => {
    expect(shownFileName('bukti %22final%22.png')).toBe('bukti "final".png');
    expect(shownFileName('bukti%0D%0ASet-Cookie: x=1.png')).toBe('buktiSet-Cookie: x=1.png');
    expect(shownFileName('C:\\fakepath\\surat %22rahasia%22.pdf')).toBe('surat "rahasia".pdf');
    expect(shownFileName('  ')).toBeNull();
    expect(shownFileName(null)).toBeNull();
  });

  it('keeps Content-Disposition safe for a name with quotes, backslashes, CR/LF and non-ASCII', () => {
    expect(contentDisposition('bukti "final".png')).toBe(
      `attachment; filename="bukti _final_.png"; filename*=UTF-8''bukti%20%22final%22.png`,
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (name) => {
        const header = contentDisposition(name);
        // One header line, one quoted fallback of printable ASCII without quote, backslash or %.
        expect(header).toMatch(
          /^attachment; filename="[\x20\x21\x23-\x24\x26-\x5b\x5d-\x7e]*"; filename\*=UTF-8''\S+$/,
        );
        const star = header.split("filename*=UTF-8''")[1] ?? '';
        expect(star).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/);
      }),
      { numRuns: 500 },
    );
  });
});
