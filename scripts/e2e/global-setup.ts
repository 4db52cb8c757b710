/** Starts legacy-sim (fresh data) and the gateway with the built web app once for all journeys. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, type RunningSystem, repoRoot, startSystem } from '../system.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    simUrl: string;
    downloadsDir: string;
  }
}

let system: RunningSystem | undefined;
let workDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  workDir = mkdtempSync(join(tmpdir(), 'wbs-e2e-'));
  system = await startSystem({
    gatewayPort: await freePort(),
    simPort: await freePort(),
    simDataDir: join(workDir, 'legacy-sim'),
    simJwtSecret: randomBytes(32).toString('base64url'),
    sessionSecret: randomBytes(48).toString('base64url'),
    sessionEncryptionKey: randomBytes(32).toString('base64'),
    webDistDir: join(repoRoot, 'web', 'dist'),
    env: {
      LOG_LEVEL: 'warn',
      LEGACY_SIM_TEST_KNOBS: '1',
      // Every journey tracks from the same address (127.0.0.1), and the workflow journey tracks one
      // report at each of its 12 stages: the limits themselves are tested in the gateway's tests.
      TRACKING_MAX_PER_NUMBER: '30',
      TRACKING_MAX_PER_CLIENT: '300',
      // Likewise every guest report of the journeys comes from that one address; the flood limits
      // (decision 81) are tested in the gateway's tests and the attack suite.
      CASE_SUBMISSIONS_MAX_PER_CLIENT: '1000',
    },
    // The embedded store of this run only, in memory (a kept folder would hold rows sealed with another
    // run's key; a fresh folder costs an initdb that a loaded machine may not finish before the timeout).
    gatewayEnv: { STORE_DATA_DIR: 'memory://' },
    stdio: 'inherit',
  });
  project.provide('baseUrl', system.url);
  project.provide('simUrl', system.simUrl ?? '');
  project.provide('downloadsDir', join(workDir, 'downloads'));
}

export async function teardown(): Promise<void> {
  await system?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}
