/**
 * The PDF scrub against incremental updates: an earlier revision's Info dictionary, compressed inside
 * an object stream and no longer named by the trailer, must not survive; nor may any Info-like
 * dictionary still reachable. Generated revisions (several authors, with and without a new Info in
 * the update), run through the worker pool exactly as an upload is.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incrementalPdf, pdfText } from '../test/pdf-revisions.ts';
import { createScrubber, type Scrubber } from './scrub.ts';

let scrubber: Scrubber;
let dir: string;
const log = pino({ level: 'silent' });
beforeAll(async () => {
  scrubber = createScrubber({
    threads: 2,
    cpuMs: 10_000,
    timeoutMs: 120_000,
    memoryMb: 256,
    maxWaiting: 100,
  });
  dir = await mkdtemp(join(tmpdir(), 'wbs-pdf-test-'));
});
afterAll(async () => {
  await scrubber.close();
  await rm(dir, { recursive: true, force: true });
});

async function scrub(bytes: Buffer, name: string): Promise<Buffer> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const file = {
    field: 'evidence',
    name: 'a.pdf',
    ext: 'pdf' as const,
    detected: 'pdf',
    path,
    size: bytes.length,
    sha256: '',
  };
  const out = await scrubber.scrubFile(file, log);
  expect(out.path).not.toBe(path);
  return readFile(out.path);
}

describe('PDF scrub of incremental updates', () => {
  it('the generated file really hides the first Info inside a compressed object stream', async () => {
    const bytes = await incrementalPdf('Budi Santoso');
    expect(bytes.toString('latin1')).not.toContain('Budi Santoso');
    expect(pdfText(bytes)).toContain('Budi Santoso');
    expect(bytes.toString('latin1')).toContain('/Type /ObjStm');
  });

  it('removes every revision’s Info dictionary and keeps the pages', async () => {
    const authors = fc.stringMatching(/^[A-Z][a-z]{3,10} [A-Z][a-z]{3,10}$/);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(authors, fc.boolean(), fc.boolean(), async (author, infoInUpdate, titleOnly) => {
        run += 1;
        const original = await incrementalPdf(author, { infoInUpdate, titleOnly });
        const clean = await scrub(original, `rev-${run}.pdf`);
        const text = pdfText(clean);
        expect(text).not.toContain(author);
        expect(text).not.toContain('Kantor');
        expect(text).not.toMatch(/\/(Author|Creator|Producer|ModDate|CreationDate|Keywords)\b/);
        const reread = await PDFDocument.load(clean, { updateMetadata: false });
        expect(reread.getPageCount()).toBe(1);
      }),
      { numRuns: 24 },
    );
  });
});
