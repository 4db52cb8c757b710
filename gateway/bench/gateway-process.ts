/**
 * The gateway as a child process for benchmarks (`node src/server.ts`, on a free loopback port), so
 * its CPU and memory are its own and not the load generator's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { guestAnonymousFields } from '../src/test/uploads.ts';

const gatewayDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

export async function procStatus(pid: number): Promise<{ rssMb: number; hwmMb: number }> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      const res = await request(`${url}/healthz`);
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gateway did not start within 120 s');
}

/** Starts a gateway in front of `legacyApiUrl` with extra settings; resolves once it answers. */
export async function startGateway(
  legacyApiUrl: string,
  env: Record<string, string> = {},
  entry = 'src/server.ts',
): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [entry], {
    cwd: gatewayDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LEGACY_API_URL: legacyApiUrl,
      LEGACY_TIMEOUT_MS: '120000',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'error',
      REDIS_URL: '',
      // A store of its own in memory unless the bench gives a database: never the developer's
      // `.data/store`, sealed under another run's key (and a factor enrolled there would outlive the run).
      STORE_DATA_DIR: 'memory://',
      // Where the bench reaches it: the origin its passkeys answer to (scripts/support/http.ts signIn).
      PUBLIC_URL: url,
      ...env,
    },
  });
  try {
    await waitReady(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { url, child, stop: () => child.kill('SIGTERM') };
}

/** The text fields of a complete anonymous guest report (the tests' own, so they stay valid). */
export const BENCH_GUEST_FIELDS: Record<string, string> = guestAnonymousFields();
