/** What every fault scenario gets: the running system, its private folders, Redis and the report. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, type Server, Socket } from 'node:net';
import { sleep } from '../support/http.ts';
import type { SuiteReport } from '../support/suite-report.ts';
import type { RunningSystem } from '../system.ts';

export type TrackedCase = { number: string; password: string };

export type FaultContext = {
  report: SuiteReport;
  system: RunningSystem;
  baseUrl: string;
  simUrl: string;
  simDataDir: string;
  /** The gateway's TMPDIR: its upload spools live here and nowhere else. */
  gatewayTmp: string;
  redis: RedisControl;
  runId: string;
  categoryId: number;
  /** Cases filed by earlier scenarios, with their passwords (tracked by later ones). */
  filed: TrackedCase[];
  /** A distinct client address per simulated reporter (the gateway runs with TRUST_PROXY=127.0.0.1). */
  clientAddress(index: number): string;
};

/**
 * A Redis the suite can stop: a private `redis-server` child (no persistence) when the binary is
 * installed, else a TCP proxy in front of the machine's Redis (127.0.0.1:6379) whose connections the
 * suite cuts. Either way the gateway's REDIS_URL points at `port`.
 */
export class RedisControl {
  readonly port: number;
  readonly kind: 'redis-server' | 'proxy';
  #child: ChildProcess | undefined;
  #proxy: Server | undefined;
  readonly #sockets = new Set<Socket>();

  constructor(port: number) {
    this.port = port;
    this.kind = RedisControl.#hasServer() ? 'redis-server' : 'proxy';
  }

  static #hasServer(): boolean {
    try {
      execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  async start(): Promise<void> {
    if (this.kind === 'redis-server') {
      this.#child = spawn(
        'redis-server',
        ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
    } else {
      this.#proxy = createServer((client) => {
        const upstream = new Socket();
        upstream.connect(6379, '127.0.0.1');
        for (const s of [client, upstream]) {
          this.#sockets.add(s);
          s.on('close', () => this.#sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => this.#proxy?.listen(this.port, '127.0.0.1', resolve));
    }
    for (let i = 0; i < 50; i++) {
      if (this.ping()) return;
      await sleep(100);
    }
    throw new Error(`redis on port ${this.port} did not come up`);
  }

  /** Stops Redis hard (SIGKILL of the server, or every proxied connection cut and the port closed). */
  async kill(): Promise<void> {
    if (this.#child) {
      const child = this.#child;
      this.#child = undefined;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
      return;
    }
    const proxy = this.#proxy;
    this.#proxy = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  }

  ping(): boolean {
    try {
      return (
        execFileSync('redis-cli', ['-p', String(this.port), 'PING'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim() === 'PONG'
      );
    } catch {
      return false;
    }
  }

  /** How many keys under `prefix` the gateway has written. */
  keyCount(prefix: string): number {
    const out = execFileSync('redis-cli', ['-p', String(this.port), '--scan', '--pattern', `${prefix}*`], {
      encoding: 'utf8',
    });
    return out.split('\n').filter((line) => line.trim()).length;
  }
}
