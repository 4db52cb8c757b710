/**
 * The scrub pool's bounds: what a file asks of the scrubber decides its answer, the same on a quiet
 * machine and on one where every core is taken (objects for a PDF, the CPU time of its scrub thread,
 * its heap); a scrub starved past the wall bound is answered 503 `busy`, never a refusal of the file;
 * more files waiting than the pool takes is 503 `busy`. The heavy files are the "many tiny objects"
 * PDFs of the hostile-file corpus.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { manyObjectsInStreamsPdf, manyObjectsPdf } from '../test/pdf-revisions.ts';
import { pdfBytes } from '../test/uploads.ts';
import { createScrubber, type ScrubSettings } from './scrub.ts';
import { MAX_PDF_OBJECTS } from './scrub-worker.ts';
import type { SpooledFile } from './spool.ts';

const TOO_HEAVY =
  'File berat.pdf terlalu berat untuk dibersihkan dari metadata; simpan ulang dengan ukuran lebih kecil atau kirim tanpa file ini';
/** The product's own bounds (SCRUB_* unset). */
const DEFAULTS: ScrubSettings = loadConfig({
  SESSION_SECRET: 'x'.repeat(40),
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
}).uploads.scrub;

const log = pino({ level: 'silent' });
let dir: string;
/** 9.4 MB, 300,000 objects: heavy, but a valid PDF a reporter may send. */
let heavy: SpooledFile;
/** One object more than the scrubber parses, in one compressed object stream (refused up front). */
let tooMany: SpooledFile;
/** The same in object streams of 10,000 each (refused when the count is reached). */
let tooManyInParts: SpooledFile;
let normal: SpooledFile;
let photo: SpooledFile;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wbs-scrub-limits-'));
  const spool = async (name: string, bytes: Uint8Array): Promise<SpooledFile> => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return {
      field: 'evidence',
      name: 'berat.pdf',
      ext: 'pdf',
      detected: 'pdf',
      path,
      size: bytes.length,
      sha256: '',
    };
  };
  heavy = await spool('heavy.pdf', await manyObjectsPdf(300_000));
  tooMany = await spool(
    'too-many.pdf',
    await manyObjectsInStreamsPdf(MAX_PDF_OBJECTS + 1, MAX_PDF_OBJECTS + 1),
  );
  tooManyInParts = await spool('too-many-parts.pdf', await manyObjectsInStreamsPdf(MAX_PDF_OBJECTS + 1));
  normal = await spool('biasa.pdf', await pdfBytes({ author: 'Budi' }));
  // A 24-megapixel photo: its re-encoding takes far longer than the 1 ms wall bound below.
  const jpeg = await sharp({
    create: { width: 6000, height: 4000, channels: 3, background: { r: 90, g: 120, b: 60 } },
  })
    .jpeg()
    .toBuffer();
  photo = { ...(await spool('foto.jpg', jpeg)), ext: 'jpg', detected: 'jpg' };
}, 60_000);
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

/** What the reporter is answered for `file`: scrubbed, or the problem's status and field message. */
async function answerFor(scrubber: ReturnType<typeof createScrubber>, file: SpooledFile) {
  try {
    const out = await scrubber.scrubFile(file, log);
    return out.path === `${file.path}.scrubbed` ? 'scrubbed' : 'forwarded';
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    return `${error.status} ${error.extras.errors?.evidence ?? error.type}`;
  }
}

/**
 * Runs `work` while spinning threads take every core and one more: a scrub thread then gets well under
 * half a core, as on a server where others are uploading too. Short, so that test files running
 * beside this one are slowed for seconds only.
 */
async function onABusyMachine<T>(work: () => Promise<T>): Promise<T> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const burners = Array.from(
    { length: availableParallelism() + 1 },
    () =>
      new Worker(
        'const { workerData } = require("node:worker_threads"); let x = 0; while (Atomics.load(workerData, 0) === 0) x++;',
        { eval: true, workerData: stop },
      ),
  );
  await Promise.all(burners.map((burner) => new Promise((resolve) => burner.once('online', resolve))));
  try {
    return await work();
  } finally {
    Atomics.store(stop, 0, 1);
    await Promise.all(burners.map((burner) => burner.terminate()));
  }
}

describe('scrub limits', () => {
  it('gives a heavy PDF the same answer on a quiet server and on one where every core is busy', async () => {
    const quiet = await withScrubber(DEFAULTS, async (scrubber) => [
      await answerFor(scrubber, heavy),
      await answerFor(scrubber, tooMany),
    ]);
    expect(quiet).toEqual(['scrubbed', `400 ${TOO_HEAVY}`]);
    // Two gateway processes' pools scrubbing at once, beside the spinning threads.
    const busy = await onABusyMachine(() =>
      Promise.all([
        withScrubber(DEFAULTS, (scrubber) => answerFor(scrubber, heavy)),
        withScrubber(DEFAULTS, (scrubber) => answerFor(scrubber, tooMany)),
      ]),
    );
    expect(busy).toEqual(quiet);
  }, 240_000);

  it('refuses a PDF asking for more objects than the scrubber parses, however small the file', async () => {
    // No CPU or wall bound near: only the count can refuse it.
    await withScrubber({ ...DEFAULTS, cpuMs: 600_000, timeoutMs: 600_000 }, async (scrubber) => {
      expect(tooManyInParts.size).toBeLessThan(heavy.size / 2);
      expect(await answerFor(scrubber, tooManyInParts)).toBe(`400 ${TOO_HEAVY}`);
      expect(await answerFor(scrubber, tooMany)).toBe(`400 ${TOO_HEAVY}`);
      expect(await answerFor(scrubber, normal)).toBe('scrubbed');
    });
  }, 60_000);

  it("counts each PDF's objects on its own: two heavy files scrubbed at once both pass", async () => {
    // The main thread (the benchmark's baseline) scrubs two files at once, interleaved: 600,000
    // objects between them, 300,000 each.
    await withScrubber({ ...DEFAULTS, threads: 0 }, async (scrubber) => {
      expect(await Promise.all([answerFor(scrubber, heavy), answerFor(scrubber, heavy)])).toEqual([
        'scrubbed',
        'scrubbed',
      ]);
    });
  }, 120_000);

  it('refuses a file over the CPU time of its scrub thread, then scrubs the next file normally', async () => {
    // 300 ms of CPU: far below what 300,000 objects take on any machine, far above a one-page PDF's scrub.
    await withScrubber({ ...DEFAULTS, cpuMs: 300 }, async (scrubber) => {
      const problem = await refusal(scrubber.scrubFile(heavy, log));
      expect(problem.type).toBe('validation');
      expect(problem.extras.errors).toEqual({ evidence: TOO_HEAVY });
      const next = await scrubber.scrubFile(normal, log);
      expect(next.path).toBe(`${normal.path}.scrubbed`);
    });
  }, 30_000);

  it('answers 503 busy, not a refusal of the file, when an image outlasts the wall bound; a PDF has none', async () => {
    await withScrubber({ ...DEFAULTS, cpuMs: 600_000, timeoutMs: 1 }, async (scrubber) => {
      const problem = await refusal(scrubber.scrubFile(photo, log));
      expect(problem.type).toBe('busy');
      expect(problem.status).toBe(503);
      expect(problem.extras.errors).toBeUndefined();
      expect(problem.extras.retryAfter).toBeGreaterThan(0);
      // Its whole work is seen by the CPU bound: a PDF is never stopped by the clock on the wall.
      expect(await answerFor(scrubber, heavy)).toBe('scrubbed');
    });
  }, 60_000);

  it('refuses a file over the memory limit', async () => {
    await withScrubber({ ...DEFAULTS, memoryMb: 24 }, async (scrubber) => {
      const problem = await refusal(scrubber.scrubFile(heavy, log));
      expect(problem.extras.errors?.evidence).toBe(TOO_HEAVY);
      expect((await scrubber.scrubFile(normal, log)).path).toBe(`${normal.path}.scrubbed`);
    });
  }, 60_000);

  it('keeps a thread for small files, and answers 503 busy when more files wait than the pool takes', async () => {
    await withScrubber({ ...DEFAULTS, threads: 1, cpuMs: 300, maxWaiting: 1 }, async (scrubber) => {
      const first = scrubber.scrubFile(heavy, log).catch(() => 'refused');
      // The heavy file holds the one general thread: a small file still runs at once, on its own thread.
      const small = scrubber.scrubFile(normal, log);
      const second = scrubber.scrubFile(heavy, log).catch(() => 'refused');
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
