/**
 * Removes identifying metadata from uploaded files before they leave the gateway (what is and is not
 * scrubbed: scrub-worker.ts and docs/product/reporting.md#metadata-scrubbing). The work runs in a piscina
 * worker pool, never
 * on the main thread, with limits a hostile file cannot get past:
 * - at most `threads` files at once per process, plus one thread kept for files up to 2 MB (the
 *   rest wait, smallest first; more than `maxWaiting` waiting → 503 `busy` with Retry-After);
 * - what a file asks of the scrubber, so that the same file gets the same answer on a quiet and on a
 *   busy server (docs/adr/0078-scrub-bounded-by-its-work.md): `cpuMs` of CPU time of the thread that
 *   scrubs it (read from outside the thread, which is busy in the library; the worker is terminated),
 *   `memoryMb` of JavaScript heap (the worker dies, the pool starts a fresh one) and the workers' own
 *   counts (objects for PDFs, pixels for images, entries and inflated size for Office zips); any of
 *   them refuses the file with a field error;
 * - `timeoutMs` of wall time for images and Office files only, whose work runs in native code on
 *   threads of its own that the scrub thread's clock does not see (bounded by pixels and entries
 *   already): a scrub still running then is stopped and answered 503 `busy` (try again; the file is
 *   not judged), never a refusal of the reporter's evidence. A PDF's whole work is on the scrub
 *   thread, so its bounds are all counts of that work: however long a starved thread takes, it ends.
 *
 * A file the library cannot process: an image is REFUSED (photos are where location data hides, and a
 * reporter can re-save a picture); a document (encrypted or damaged PDF, odd zip) is forwarded
 * unchanged with an ops log line (docs/product/reporting.md#metadata-scrubbing). A file over a bound of
 * its work is refused.
 */
import { stat } from 'node:fs/promises';
import { MessageChannel } from 'node:worker_threads';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { FastifyBaseLogger } from 'fastify';
import { Piscina } from 'piscina';
import { ApiProblem } from '../errors.ts';
import type { ScrubResult, ScrubStarted, ScrubTask } from './scrub-worker.ts';
import type { SpooledFile } from './spool.ts';

export type ScrubSettings = {
  threads: number;
  /** CPU time of the scrub thread per file (SCRUB_CPU_MS); over it the file is refused. */
  cpuMs: number;
  /**
   * Wall time per image or Office file (SCRUB_TIMEOUT_MS); over it the scrub is stopped and answered
   * 503 `busy`. Not for PDFs: the CPU bound sees all of their work.
   */
  timeoutMs: number;
  memoryMb: number;
  maxWaiting: number;
};

export type ScrubKind = ScrubTask['kind'] | 'none';

export function scrubKindOf(detected: string): ScrubKind {
  if (detected === 'jpg' || detected === 'png' || detected === 'gif') return 'image';
  if (detected === 'pdf' || detected === 'ai') return 'pdf';
  if (detected === 'docx' || detected === 'xlsx' || detected === 'pptx') return 'office';
  return 'none';
}

/**
 * Why a task ended without a result: over a bound of its work (refused), starved of CPU (`busy`:
 * answered 503, the file not judged) or the file's own fault (an image refused, a document forwarded).
 */
type Outcome = { ok: true } | { ok: false; overLimit: boolean; busy?: boolean; reason: string };

/** The least wait between two reads of a scrub thread's CPU time. */
const CPU_CHECK_MIN_MS = 25;

export type Scrubber = {
  scrubFile(file: SpooledFile, log: FastifyBaseLogger): Promise<SpooledFile>;
  close(): Promise<void>;
};

const WORKER = new URL('./scrub-worker.ts', import.meta.url);
/** Files up to this size may use the thread kept for small files (a photo, a short PDF). */
const SMALL_FILE_BYTES = 2 * 1024 * 1024;
type Lane = 'general' | 'small';

/**
 * `threads: 0` scrubs on the main thread, two files at a time, without time or memory limits: how it
 * was before the worker pool, kept only as the benchmark's baseline (gateway/bench/hostile-uploads.ts).
 */
export function createScrubber(settings: ScrubSettings): Scrubber {
  if (settings.threads === 0) return createScrubberOnMainThread();
  const pool = new Piscina({
    filename: WORKER.href,
    // No thread until the first upload: a worker with pdf-lib and sharp loaded holds ~45 MB, in every
    // gateway process, most of which never scrub a file. Its start (~0.1–0.5 s) is not counted against
    // a file's time (the limit starts with the worker's `started` message) and a worker stays for
    // `idleTimeout` after its last file.
    minThreads: 0,
    // One more than the general slots: the thread kept for small files (see below).
    maxThreads: settings.threads + 1,
    // Workers are cheap to start again (~0.1 s) and a terminated one is replaced anyway.
    idleTimeout: 30_000,
    atomics: 'disabled',
    resourceLimits: {
      maxOldGenerationSizeMb: settings.memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(4, Math.floor(settings.memoryMb / 8))),
    },
  });
  // Our own slots, not piscina's queue: a file's time limit then counts its work, not its wait.
  // Waiting files start smallest first, and small files may also take one thread kept for them: an
  // ordinary upload takes milliseconds and should not wait behind heavy files, each of which may
  // hold a thread for the whole time limit.
  const busy = { general: 0, small: 0 };
  const waiting: { size: number; start: (lane: Lane) => void }[] = [];
  const take = (size: number): Lane | null => {
    if (busy.general < settings.threads) return 'general';
    if (size <= SMALL_FILE_BYTES && busy.small < 1) return 'small';
    return null;
  };
  const release = (lane: Lane) => {
    busy[lane] -= 1;
    waiting.sort((a, b) => a.size - b.size);
    for (
      let lane = take(waiting[0]?.size ?? 0);
      waiting.length > 0 && lane;
      lane = take(waiting[0]?.size ?? 0)
    ) {
      busy[lane] += 1;
      waiting.shift()?.start(lane);
    }
  };

  async function run(task: ScrubTask, size: number): Promise<Outcome> {
    let lane = take(size);
    if (lane) busy[lane] += 1;
    else {
      if (waiting.length >= settings.maxWaiting)
        throw new ApiProblem('busy', { retryAfter: retryAfter(settings) });
      lane = await new Promise<Lane>((start) => waiting.push({ size, start }));
    }
    // The limits start when the worker starts the file, not when it was handed over: starting a fresh
    // worker (after one was terminated) is not the file's fault.
    const abort = new AbortController();
    let stopped: 'cpu' | 'stalled' | null = null;
    const stop = (why: 'cpu' | 'stalled') => {
      stopped ??= why;
      abort.abort();
    };
    const { port1, port2 } = new MessageChannel();
    let wall: NodeJS.Timeout | undefined;
    let cpu: NodeJS.Timeout | undefined;
    let done = false;
    port1.once('message', (started: ScrubStarted) => {
      if (task.kind !== 'pdf') wall = setTimeout(() => stop('stalled'), settings.timeoutMs);
      const worker = pool.threads.find((thread) => thread.threadId === started.threadId);
      // A thread's CPU time never runs ahead of the wall clock: it cannot reach the bound before
      // `left` ms from now, so it is read no more often than that (a few reads per file).
      const check = (left: number) => {
        cpu = setTimeout(() => {
          worker
            ?.cpuUsage(started.cpu)
            .then(({ user, system }) => {
              if (done) return;
              const remaining = settings.cpuMs - (user + system) / 1000;
              if (remaining <= 0) stop('cpu');
              else check(Math.max(CPU_CHECK_MIN_MS, remaining));
            })
            // The thread ended (its file done, or terminated): nothing left to bound.
            .catch(() => {});
        }, left);
      };
      check(settings.cpuMs);
    });
    try {
      const result: ScrubResult = await pool.run(
        { ...task, started: port2 },
        { signal: abort.signal, transferList: [port2] },
      );
      if (result === 'too-many-objects') return { ok: false, overLimit: true, reason: result };
      return { ok: true };
    } catch (error) {
      const code = (error as { code?: string })?.code;
      if (stopped === 'cpu') return { ok: false, overLimit: true, reason: 'cpu' };
      if (stopped === 'stalled') return { ok: false, overLimit: false, busy: true, reason: 'stalled' };
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') return { ok: false, overLimit: true, reason: 'memory' };
      return { ok: false, overLimit: false, reason: (error as Error)?.name ?? 'unknown' };
    } finally {
      done = true;
      clearTimeout(wall);
      clearTimeout(cpu);
      port1.close();
      release(lane);
    }
  }

  return {
    scrubFile: (file, log) => scrubWith(run, file, log, retryAfter(settings)),
    close: () => pool.destroy(),
  };
}

/** How long a 503 `busy` asks to wait: about two heavy files' work. */
const retryAfter = (settings: ScrubSettings) => Math.ceil((settings.cpuMs * 2) / 1000);

function createScrubberOnMainThread(): Scrubber {
  const slots = 2;
  let running = 0;
  const waiting: (() => void)[] = [];
  const run = async (task: ScrubTask): Promise<Outcome> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      const { default: scrub } = await import('./scrub-worker.ts');
      if ((await scrub(task)) === 'too-many-objects') {
        return { ok: false, overLimit: true, reason: 'too-many-objects' };
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, overLimit: false, reason: (error as Error)?.name ?? 'unknown' };
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
  return { scrubFile: (file, log) => scrubWith(run, file, log, 10), close: async () => {} };
}

async function scrubWith(
  run: (task: ScrubTask, size: number) => Promise<Outcome>,
  file: SpooledFile,
  log: FastifyBaseLogger,
  retryAfterSeconds: number,
): Promise<SpooledFile> {
  const kind = scrubKindOf(file.detected);
  if (kind === 'none') return file;
  const out = `${file.path}.scrubbed`;
  const outcome = await run(
    { kind, detected: file.detected, path: file.path, out, size: file.size },
    file.size,
  );
  if (outcome.ok) {
    const { size } = await stat(out);
    return { ...file, path: out, size };
  }
  // Only the kind and the reason: never the file name (it may name the reporter).
  log.warn({ scrub: kind, detected: file.detected, reason: outcome.reason }, 'metadata not scrubbed');
  if (outcome.busy) throw new ApiProblem('busy', { retryAfter: retryAfterSeconds });
  if (outcome.overLimit) {
    throw new ApiProblem('validation', {
      errors: { [file.field]: format(TEMPLATE_MESSAGES.fileTooComplex, { name: file.name }) },
    });
  }
  if (kind === 'image') {
    throw new ApiProblem('validation', {
      errors: { [file.field]: format(TEMPLATE_MESSAGES.fileNotProcessable, { name: file.name }) },
    });
  }
  return file;
}

/** What scrubbing an upload's files works with: the app's pool, the request's log, the file counter. */
export type ScrubContext = {
  scrubber: Scrubber;
  log: FastifyBaseLogger;
  count(scrub: 'scrubbed' | 'not-scrubbed' | 'refused' | 'none'): void;
};

/** Every file of an upload, scrubbed one after the other (the pool's slots bound the whole process). */
export async function scrubFiles(ctx: ScrubContext, files: readonly SpooledFile[]): Promise<SpooledFile[]> {
  const scrubbed: SpooledFile[] = [];
  const { count } = ctx;
  for (const file of files) {
    if (scrubKindOf(file.detected) === 'none') count('none');
    let result: SpooledFile;
    try {
      result = await ctx.scrubber.scrubFile(file, ctx.log);
    } catch (error) {
      count('refused');
      throw error;
    }
    if (scrubKindOf(file.detected) !== 'none') count(result === file ? 'not-scrubbed' : 'scrubbed');
    scrubbed.push(result);
  }
  return scrubbed;
}
