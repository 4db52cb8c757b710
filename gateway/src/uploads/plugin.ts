/**
 * The upload machinery of one gateway instance: the scrub worker pool, the count of live spools (the
 * process-wide cap) and the removal, at start, of spools a previous process left behind (killed with
 * SIGKILL or by the OOM killer mid-upload: nothing else would ever remove the reporter's files).
 */
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { UploadSettings } from '../config.ts';
import { createScrubber, type Scrubber } from './scrub.ts';

/** Spool folders are `wbs-upload-{pid}-XXXXXX` in the temp dir: the pid tells whose they are. */
export const SPOOL_PREFIX = 'wbs-upload-';
/** Whether this process has opened a spool (then spools with its pid are its own, never stale). */
let spooledHere = false;
export function spoolPrefix(): string {
  spooledHere = true;
  return join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`);
}

export type Uploads = {
  settings: UploadSettings;
  scrubber: Scrubber;
  /** Spools open right now in this instance. */
  spools: { active: number };
};

declare module 'fastify' {
  interface FastifyInstance {
    uploads: Uploads;
  }
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

export const uploadsPlugin = fp(
  async (app: FastifyInstance, opts: { settings: UploadSettings }) => {
    await removeStaleSpools(app.log);
    const scrubber = createScrubber(opts.settings.scrub);
    app.decorate('uploads', { settings: opts.settings, scrubber, spools: { active: 0 } });
    app.addHook('onClose', async () => scrubber.close());
  },
  { name: 'wbs-uploads' },
);
