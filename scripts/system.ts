/**
 * Starts the whole system as separate processes: legacy-sim (unless a real legacy API is given),
 * then the gateway serving the built web app. Used by `pnpm start` and by the browser journeys.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..');

export type SystemOptions = {
  gatewayPort: number;
  simPort: number;
  /** When set, no legacy-sim is started and the gateway talks to this API base (…/api). */
  legacyApiUrl?: string;
  simDataDir: string;
  simJwtSecret: string;
  sessionSecret: string;
  sessionEncryptionKey: string;
  webDistDir: string;
  /** Extra environment for both processes (e.g. LEGACY_SIM_TEST_KNOBS, LOG_LEVEL). */
  env?: Record<string, string>;
  stdio?: 'inherit' | 'ignore';
  /** Called when a process stops unexpectedly. */
  onUnexpectedExit?: (name: string, code: number | null) => void;
};

export type RunningSystem = { url: string; simUrl: string | null; stop(): Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const reply = await fetch(url);
      if (reply.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const children: { name: string; child: ChildProcess }[] = [];
  let stopping = false;

  const run = (name: string, script: string, env: Record<string, string>) => {
    const child = spawn(process.execPath, [join(repoRoot, script)], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env, ...env },
      stdio: options.stdio ?? 'inherit',
    });
    child.on('exit', (code) => {
      if (!stopping) options.onUnexpectedExit?.(name, code);
    });
    children.push({ name, child });
  };

  const stop = async () => {
    stopping = true;
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    let legacyApiUrl = options.legacyApiUrl;
    let simUrl: string | null = null;
    if (!legacyApiUrl) {
      simUrl = `http://127.0.0.1:${options.simPort}`;
      legacyApiUrl = `${simUrl}/api`;
      run('legacy-sim', 'scripts/legacy-sim/src/main.ts', {
        LEGACY_SIM_PORT: String(options.simPort),
        LEGACY_SIM_DATA_DIR: options.simDataDir,
        LEGACY_SIM_JWT_SECRET: options.simJwtSecret,
      });
      await waitFor(`${legacyApiUrl}/channel`);
    }
    run('gateway', 'gateway/src/server.ts', {
      PORT: String(options.gatewayPort),
      LEGACY_API_URL: legacyApiUrl,
      SESSION_SECRET: options.sessionSecret,
      SESSION_ENCRYPTION_KEY: options.sessionEncryptionKey,
      WEB_DIST_DIR: options.webDistDir,
    });
    const url = `http://localhost:${options.gatewayPort}`;
    await waitFor(`http://127.0.0.1:${options.gatewayPort}/healthz`);
    return { url, simUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
