import { describe, expect, it } from 'vitest';
import { codeInBytes, codeInFile, MAX_RECEIPT_PDF_BYTES } from './extractCode.ts';

const code = `WBSR1.${'eyJ2IjoxLCJraWQiOiJkZXYxIn0'.repeat(3)}.${'A'.repeat(86)}`;

describe('receipt code in a PDF', () => {
  it('finds the code among binary bytes, and nothing in a file without one', async () => {
    const bytes = new Uint8Array([
      0x25,
      0x50,
      0x44,
      0x46,
      0xff,
      0x00,
      ...new TextEncoder().encode(`/Keywords (${code})`),
      0x9c,
    ]);
    expect(codeInBytes(bytes)).toBe(code);
    expect(codeInBytes(new TextEncoder().encode('%PDF-1.7 tanpa kode'))).toBeNull();
    expect(await codeInFile(new Blob([bytes]))).toBe(code);
    expect(await codeInFile(new Blob([new Uint8Array(MAX_RECEIPT_PDF_BYTES + 1)]))).toBeNull();
  });
});
