/**
 * Starting a full garbage collection where V8 alone would start it too late
 * (docs/adr/0042-upload-memory-given-back-early.md). Upload
 * bytes pass through short-lived Buffers (each socket read of a body, each 64 KB read of a file sent
 * on, pdf-lib's copies of a file): their memory is outside the JavaScript heap and is given back only
 * when the tiny objects holding it are collected. The heap hardly grows meanwhile, so V8 collects
 * only once such memory is ~64 MB above its last level, and that garbage is resident memory: under 20
 * concurrent uploads it was most of the gateway's peak. The collection runs concurrently
 * (`execution: 'async'`): nobody waits for it.
 *
 * `gc` exists only in a context made while `--expose-gc` is on; the flag is switched off again at
 * once, so no other context of the process ever sees a `gc` global. Plain code only: the scrub worker
 * loads this file too.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'major'; execution: 'async' }) => void;

let gc: Gc | null = null;

function exposedGc(): Gc {
  if (typeof globalThis.gc === 'function') return globalThis.gc as unknown as Gc;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Starts a concurrent full collection of this thread's heap and returns at once. */
export function startGarbageCollection(): void {
  gc ??= exposedGc();
  gc({ type: 'major', execution: 'async' });
}
