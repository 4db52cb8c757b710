/** Attachment bytes: files under dataDir/files (written atomically), or Buffers in memory mode. */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTemps, writeFileAtomic } from './atomic.ts';

export type FileStore = {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  clear(): Promise<void>;
};

const SAFE_KEY = /^[a-zA-Z0-9._-]+$/;

export function memoryFiles(): FileStore {
  const files = new Map<string, Buffer>();
  return {
    async put(key, bytes) {
      files.set(key, bytes);
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async clear() {
      files.clear();
    },
  };
}

export async function diskFiles(dir: string): Promise<FileStore> {
  await mkdir(dir, { recursive: true });
  await removeStaleTemps(dir);
  return {
    async put(key, bytes) {
      if (!SAFE_KEY.test(key)) throw new Error('unsafe file key');
      await writeFileAtomic(join(dir, key), bytes);
    },
    async get(key) {
      if (!SAFE_KEY.test(key)) return null;
      try {
        return await readFile(join(dir, key));
      } catch {
        return null;
      }
    },
    async clear() {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
    },
  };
}
