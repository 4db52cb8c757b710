/**
 * Starts the whole system as separate processes: legacy-sim (unless a real legacy API is given), the
 * development mail sink (when asked for), then the gateway serving the built web app. Used by
 * `pnpm start` and by the suites.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
  /** Extra environment for the gateway only (e.g. REDIS_URL, LEGACY_TIMEOUT_MS). */
  gatewayEnv?: Record<string, string>;
  stdio?: 'inherit' | 'ignore';
  /** When set, each process's output is read and handed over line by line instead of `stdio`. */
  onOutput?: (name: string, line: string) => void;
  /**
   * Called when a process stops unexpectedly after the system is up. A process that stops while the
   * system is still starting makes `startSystem` stop the others and reject instead.
   */
  onUnexpectedExit?: (name: string, code: number | null) => void;
  /** Called with each process's id as soon as it is spawned (pnpm start records them). */
  onSpawn?: (name: string, pid: number) => void;
  /**
   * Outgoing mail. `sink`: start the development mail sink (scripts/mail-sink) on these loopback
   * ports and point the gateway's SMTP_URL at it; `smtpUrl`: the gateway sends to this server (e.g. a
   * sink a suite started itself: scripts/support/mail.ts). Absent: no SMTP_URL is given from here, so
   * the environment decides (without one the gateway sends no mail).
   */
  mail?: { sink: { smtpPort: number; httpPort: number } } | { smtpUrl: string };
  /** The gateway's PUBLIC_URL, the base of the links in mails; default: the address the system is served at. */
  publicUrl?: string;
};

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export type RunningSystem = {
  url: string;
  simUrl: string | null;
  /** The mail sink this start runs (its page and API, and the SMTP_URL the gateway got), if any. */
  mailSink: { url: string; smtpUrl: string } | null;
  stop(): Promise<void>;
  /** The running gateway process's id (fault tests). */
  gatewayPid(): number | undefined;
  /** Sends `signal` to the gateway and resolves with its exit status (not an unexpected exit). */
  stopGateway(signal: 'SIGTERM' | 'SIGKILL'): Promise<ExitStatus>;
  /** Starts the gateway again after `stopGateway` with the same settings (plus `env`), waits until up. */
  restartGateway(env?: Record<string, string>): Promise<void>;
};

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

/** Thrown when a port the system needs is taken (e.g. by a process left from an earlier start). */
export class PortInUseError extends Error {
  readonly service: string;
  readonly port: number;
  constructor(service: string, port: number) {
    super(`port ${port} (${service}) is already in use by another process`);
    this.name = 'PortInUseError';
    this.service = service;
    this.port = port;
  }
}

/** Resolves when nothing listens on `port` on loopback; rejects with PortInUseError otherwise. */
export async function assertPortFree(port: number, service: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(service, port) : error),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/** Polls `url` until it answers below 500; gives up early when `failed()` names a reason. */
async function waitFor(url: string, failed: () => Error | undefined, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw failure;
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
  const children: { name: string; child: ChildProcess; expectedExit?: boolean }[] = [];
  let stopping = false;
  let starting = true;
  // A process that stops while starting: reported by the wait instead of a 30 s timeout.
  let startFailure: Error | undefined;
  const failedWhileStarting = () => startFailure;

  const run = (name: string, script: string, env: Record<string, string>) => {
    const { onOutput } = options;
    const child = spawn(process.execPath, [join(repoRoot, script)], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env, ...env },
      stdio: onOutput ? ['ignore', 'pipe', 'pipe'] : (options.stdio ?? 'inherit'),
    });
    if (onOutput) {
      for (const stream of [child.stdout, child.stderr]) {
        if (stream) createInterface({ input: stream }).on('line', (line) => onOutput(name, line));
      }
    }
    const entry: (typeof children)[number] = { name, child };
    if (child.pid !== undefined) options.onSpawn?.(name, child.pid);
    child.on('exit', (code, signal) => {
      if (stopping || entry.expectedExit) return;
      if (starting) {
        startFailure ??= new Error(
          `${name} stopped while starting (${signal ? `signal ${signal}` : `exit ${code}`})`,
        );
        return;
      }
      options.onUnexpectedExit?.(name, code);
    });
    children.push(entry);
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

  // Before anything starts: a stale process on a port would answer the readiness wait in our place.
  if (!options.legacyApiUrl) await assertPortFree(options.simPort, 'legacy-sim');
  const sinkPorts = options.mail && 'sink' in options.mail ? options.mail.sink : null;
  if (sinkPorts) {
    await assertPortFree(sinkPorts.smtpPort, 'mail sink SMTP');
    await assertPortFree(sinkPorts.httpPort, 'mail sink page');
  }
  await assertPortFree(options.gatewayPort, 'gateway');

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
      await waitFor(`${legacyApiUrl}/channel`, failedWhileStarting);
    }
    let mailSink: RunningSystem['mailSink'] = null;
    if (sinkPorts) {
      mailSink = {
        url: `http://127.0.0.1:${sinkPorts.httpPort}`,
        smtpUrl: `smtp://127.0.0.1:${sinkPorts.smtpPort}`,
      };
      run('mail-sink', 'scripts/mail-sink/main.ts', {
        MAIL_SINK_SMTP_PORT: String(sinkPorts.smtpPort),
        MAIL_SINK_PORT: String(sinkPorts.httpPort),
      });
      await waitFor(`${mailSink.url}/api/knobs`, failedWhileStarting);
    }
    const smtpUrl =
      mailSink?.smtpUrl ?? (options.mail && 'smtpUrl' in options.mail ? options.mail.smtpUrl : null);
    const gatewayEnv = {
      PORT: String(options.gatewayPort),
      LEGACY_API_URL: legacyApiUrl,
      SESSION_SECRET: options.sessionSecret,
      SESSION_ENCRYPTION_KEY: options.sessionEncryptionKey,
      WEB_DIST_DIR: options.webDistDir,
      PUBLIC_URL: options.publicUrl ?? `http://localhost:${options.gatewayPort}`,
      ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
      // The tracker's Tambah Bukti needs a legacy token (legacy/service-account.ts); against the
      // bundled legacy-sim a seeded account plays the gateway's service account.
      ...(simUrl && !process.env.LEGACY_SERVICE_USERNAME
        ? { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: 'Admin#2026!' }
        : {}),
      ...options.gatewayEnv,
    };
    const startGateway = async (env: Record<string, string> = {}) => {
      starting = true;
      startFailure = undefined;
      run('gateway', 'gateway/src/server.ts', { ...gatewayEnv, ...env });
      await waitFor(`http://127.0.0.1:${options.gatewayPort}/healthz`, failedWhileStarting);
      starting = false;
    };
    const gateway = () => children.findLast((entry) => entry.name === 'gateway');
    await startGateway();
    return {
      url: `http://localhost:${options.gatewayPort}`,
      simUrl,
      mailSink,
      stop,
      gatewayPid: () => gateway()?.child.pid,
      stopGateway: (signal) => {
        const entry = gateway();
        if (!entry) throw new Error('no gateway was started');
        entry.expectedExit = true;
        const { child } = entry;
        return new Promise<ExitStatus>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null)
            return resolve({ code: child.exitCode, signal: child.signalCode });
          child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }));
          child.kill(signal);
        });
      },
      restartGateway: startGateway,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
