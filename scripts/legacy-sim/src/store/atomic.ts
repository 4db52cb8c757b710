/** Crash-safe file writes: temp file in the same directory, fsync, rename, fsync the directory. */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const TEMP_MARK = '.tmp-';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `${basename(path)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  }
}

/** Removes temp files left behind by an interrupted write. */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.filter((n) => n.includes(TEMP_MARK)).map((n) => rm(join(dir, n), { force: true })));
}
