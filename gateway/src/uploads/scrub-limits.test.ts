/**
 * The scrub pool's limits: a file over the time or memory limit is refused with a field error (its
 * worker terminated, the pool carrying on with the next file), and more files waiting than the pool
 * takes is 503 `busy`. The hostile file is the "many tiny objects" PDF of the hostile-file corpus.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../errors.ts';
import { manyObjectsPdf } from '../test/pdf-revisions.ts';
import { pdfBytes } from '../test/uploads.ts';
import { createScrubber, type ScrubSettings } from './scrub.ts';
import type { SpooledFile } from './spool.ts';

const log = pino({ level: 'silent' });
let dir: string;
let hostile: SpooledFile;
let normal: SpooledFile;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wbs-scrub-limits-'));
  const spool = async (name: string, bytes: Uint8Array): Promise<SpooledFile> => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return { field: 'evidence', name, ext: 'pdf', detected: 'pdf', path, size: bytes.length, sha256: '' };
  };
  hostile = await spool('berat.pdf', await manyObjectsPdf(300_000));
  normal = await spool('biasa.pdf', await pdfBytes({ author: 'Budi' }));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function withScrubber<T>(
  settings: ScrubSettings,
  use: (s: ReturnType<typeof createScrubber>) => Promise<T>,
) {
  const scrubber = createScrubber(settings);
  try {
    return await use(scrubber);
  } finally {
    await scrubber.close();
  }
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiProblem);
  return error as ApiProblem;
};

describe('scrub limits', () => {
  it('refuses a file over the time limit, then scrubs the next file normally', async () => {
    // 300 ms: far below what 300,000 objects take on any machine, far above a one-page PDF's scrub.
    await withScrubber({ threads: 1, timeoutMs: 300, memoryMb: 512, maxWaiting: 10 }, async (scrubber) => {
      const problem = await refusal(scrubber.scrubFile(hostile, log));
      expect(problem.type).toBe('validation');
      expect(problem.extras.errors).toEqual({
        evidence:
          'File berat.pdf terlalu berat untuk dibersihkan dari metadata; simpan ulang dengan ukuran lebih kecil atau kirim tanpa file ini',
      });
      const next = await scrubber.scrubFile(normal, log);
      expect(next.path).toBe(`${normal.path}.scrubbed`);
    });
  }, 30_000);

  it('refuses a file over the memory limit', async () => {
    await withScrubber({ threads: 1, timeoutMs: 60_000, memoryMb: 24, maxWaiting: 10 }, async (scrubber) => {
      const problem = await refusal(scrubber.scrubFile(hostile, log));
      expect(problem.extras.errors?.evidence).toMatch(/^File berat\.pdf terlalu berat/);
      expect((await scrubber.scrubFile(normal, log)).path).toBe(`${normal.path}.scrubbed`);
    });
  }, 60_000);

  it('keeps a thread for small files, and answers 503 busy when more files wait than the pool takes', async () => {
    await withScrubber({ threads: 1, timeoutMs: 300, memoryMb: 256, maxWaiting: 1 }, async (scrubber) => {
      const first = scrubber.scrubFile(hostile, log).catch(() => 'refused');
      // The heavy file holds the one general thread: a small file still runs at once, on its own thread.
      const small = scrubber.scrubFile(normal, log);
      const second = scrubber.scrubFile(hostile, log).catch(() => 'refused');
      const problem = await refusal(scrubber.scrubFile(normal, log));
      expect(problem.type).toBe('busy');
      expect(problem.status).toBe(503);
      expect(problem.extras.retryAfter).toBeGreaterThan(0);
      expect((await small).path).toBe(`${normal.path}.scrubbed`);
      expect(await first).toBe('refused');
      expect(await second).toBe('refused');
    });
  }, 30_000);
});
