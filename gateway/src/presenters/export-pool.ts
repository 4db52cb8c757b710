/**
 * The case export's rewrite (export-workbook.ts) in a worker thread of its own (export-worker.ts), with
 * a small heap: the rewrite makes a few hundred bytes of garbage per cell, and on the main thread V8
 * let that garbage stand, growing the gateway's memory by 100–300 MB for a 55,000-row export and keeping
 * exceljs loaded for good (gateway/bench/HISTORY.md). In a worker whose young generation is capped,
 * the garbage is collected as it is made, and the growth stays near 100–125 MB (the worker itself, the
 * shared strings, zlib's buffers; the allocator keeps that memory for the process when the thread ends
 * 30 s after the last export). The main thread's event loop, which answers everyone else, does none of
 * it.
 *
 * - `threads` exports at once per process (default 1); more waiting than `maxWaiting` → 503 `busy`.
 * - A workbook whose rewrite outgrows the heap is refused as unreadable (a legacy export is not that
 *   big; a bomb is), as is one the rewrite cannot read: `UnreadableWorkbook`.
 */
import { Piscina } from 'piscina';
import { ApiProblem } from '../errors.ts';
import { type ExportSummary, UnreadableWorkbook } from './export-workbook.ts';
import type { ExportOutcome, ExportTask } from './export-worker.ts';

export type ExportRewriter = {
  /** Rewrites the legacy's workbook at `legacyPath` into `exportPath`. */
  rewrite(task: ExportTask): Promise<ExportSummary>;
  close(): Promise<void>;
};

export type ExportPoolSettings = {
  threads: number;
  maxWaiting: number;
  /** The worker's heap, and its module (tests give their own). */
  heap?: { oldMb: number; youngMb: number };
  worker?: URL;
};

const WORKER = new URL('./export-worker.ts', import.meta.url);

/**
 * The heap of an export worker. The old generation holds what the rewrite keeps (the workbook's
 * shared strings: ~35 MB for 55,000 rows) with room for EXPORT_LIMITS' rows; the young generation is
 * where the garbage is made, and its size is what the process's memory grows by.
 */
export const EXPORT_HEAP = { oldMb: 256, youngMb: 12 } as const;

export function createExportRewriter(
  settings: ExportPoolSettings = { threads: 1, maxWaiting: 8 },
): ExportRewriter {
  const pool = new Piscina({
    filename: (settings.worker ?? WORKER).href,
    // No thread until the first export (a worker with exceljs loaded holds ~20 MB).
    minThreads: 0,
    maxThreads: settings.threads,
    maxQueue: settings.maxWaiting,
    idleTimeout: 30_000,
    atomics: 'disabled',
    resourceLimits: {
      maxOldGenerationSizeMb: EXPORT_HEAP.oldMb,
      maxYoungGenerationSizeMb: EXPORT_HEAP.youngMb,
    },
  });
  return {
    async rewrite(task) {
      let outcome: ExportOutcome;
      try {
        outcome = await pool.run(task);
      } catch (error) {
        const code = (error as { code?: string })?.code;
        if (code === 'ERR_WORKER_OUT_OF_MEMORY') throw new UnreadableWorkbook('over the export heap');
        // piscina's own error when `maxWaiting` exports already wait.
        if ((error as Error)?.message === 'Task queue is at limit')
          throw new ApiProblem('busy', { retryAfter: 10 });
        throw error;
      }
      if (!outcome.ok) throw new UnreadableWorkbook(outcome.reason);
      return outcome.summary;
    },
    close: () => pool.destroy(),
  };
}
