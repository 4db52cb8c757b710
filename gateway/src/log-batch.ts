/**
 * The gateway's standard output, written in batches of about 4 KB instead of one write per line: one
 * system call per line was 5–9% of a busy worker's CPU (docs/adr/0030-log-redaction-and-batched-output.md).
 * A line waits at most
 * `LOG_FLUSH_MS`; pino writes what is left when the process exits, after a crash too (not after
 * SIGKILL). Tests and benchmarks that read the log allow for that wait.
 */
import pino from 'pino';

export const LOG_FLUSH_MS = 500;
const LOG_BATCH_BYTES = 4096;

export function batchedStdout(): pino.DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // Destroyed while the process exits: pino has written what was left.
    }
  }, LOG_FLUSH_MS).unref();
  return stream;
}
