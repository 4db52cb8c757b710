/**
 * A system of a journey's own (legacy-sim with fresh data, a gateway on the embedded store in memory,
 * fresh secrets), for a journey that needs what the shared system must not do: another store engine,
 * another setting, or clocks moved forward. `clock: 'gateway'` loads ../clock-shift.ts into the
 * gateway, `'both'` into legacy-sim too (the gateway checks the legacy's tokens against its own time);
 * `shiftClockTo(seconds)` moves it to that many seconds past the real time and waits until it has.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort, type RunningSystem, repoRoot, startSystem } from '../../system.ts';
import { STEP_TIMEOUT_MS } from './support.ts';

export type OwnSystem = {
  /** The gateway's origin, without a trailing slash. */
  url: string;
  /** Moves the shifted clocks to `seconds` past the real time (only with `clock`). */
  shiftClockTo(seconds: number): Promise<void>;
  stop(): Promise<void>;
};

export async function startOwnSystem(options: {
  /** Names the work folder (wbs-e2e-{name}-…). */
  name: string;
  clock?: 'gateway' | 'both';
  /** Environment of every process (legacy-sim and gateway). */
  env?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
}): Promise<OwnSystem> {
  const workDir = mkdtempSync(join(tmpdir(), `wbs-e2e-${options.name}-`));
  const control = join(workDir, 'clock-shift');
  const clockShift = {
    NODE_OPTIONS: `--import=${join(import.meta.dirname, '..', 'clock-shift.ts')}`,
    CLOCK_SHIFT_FILE: control,
  };
  let system: RunningSystem | undefined;
  try {
    system = await startSystem({
      gatewayPort: await freePort(),
      simPort: await freePort(),
      simDataDir: join(workDir, 'legacy-sim'),
      simJwtSecret: randomBytes(32).toString('base64url'),
      sessionSecret: randomBytes(48).toString('base64url'),
      sessionEncryptionKey: randomBytes(32).toString('base64'),
      webDistDir: join(repoRoot, 'web', 'dist'),
      env: { LOG_LEVEL: 'warn', ...(options.clock === 'both' ? clockShift : {}), ...options.env },
      gatewayEnv: {
        ...(options.clock === 'gateway' ? clockShift : {}),
        STORE_DATA_DIR: 'memory://',
        METRICS_PORT: '0',
        ...options.gatewayEnv,
      },
      stdio: 'inherit',
    });
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  const running = system;
  return {
    url: running.url.replace(/\/$/, ''),
    async shiftClockTo(seconds) {
      if (!options.clock) throw new Error('this system was started without a shifted clock');
      writeFileSync(control, String(seconds));
      await expect
        .poll(() => (existsSync(`${control}.ack`) ? Number(readFileSync(`${control}.ack`, 'utf8')) : 0), {
          timeout: STEP_TIMEOUT_MS,
        })
        .toBe(seconds);
    },
    async stop() {
      await running.stop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
