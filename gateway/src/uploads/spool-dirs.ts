/**
 * Where spools live and who owns them: folders named `wbs-upload-{pid}-XXXXXX` in the temp dir, and
 * the removal, at start, of the ones a previous process left behind (killed with SIGKILL or by the
 * OOM killer mid-upload: nothing else would ever remove the reporter's files).
 *
 * A module of its own because both ends need it: the spool (and the Excel export's scratch folder)
 * name their folders here, and the uploads plugin cleans up at start. Kept in the plugin, it closed
 * an import cycle plugin → scrub → spool → plugin.
 */
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/** Spool folders are `wbs-upload-{pid}-XXXXXX` in the temp dir: the pid tells whose they are. */
export const SPOOL_PREFIX = 'wbs-upload-';
/** Whether this process has opened a spool (then spools with its pid are its own, never stale). */
let spooledHere = false;
export function spoolPrefix(): string {
  spooledHere = true;
  return join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Removes the spools of processes that no longer run, and those carrying our own pid while this
 * process has opened none yet (a restarted container reuses its pid). Live processes' spools,
 * including other gateway instances on the same machine, are left alone.
 */
export async function removeStaleSpools(log: FastifyBaseLogger): Promise<number> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const pid = Number(/^wbs-upload-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isInteger(pid)) continue;
    if (pid === process.pid ? spooledHere : processAlive(pid)) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
    removed += 1;
  }
  if (removed > 0) log.warn({ removed }, 'stale upload spools removed');
  return removed;
}
