/** Starts legacy-sim (fresh data) and the gateway with the built web app once for all journeys. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, type TestDatabase } from '../../gateway/src/test/databases.ts';
import { freePort, type RunningSystem, repoRoot, startSystem } from '../system.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    simUrl: string;
    downloadsDir: string;
    /** The gateway store's PostgreSQL database (a fresh one per run; the audit-chain journey alters it). */
    storeUrl: string;
    /** The development mail sink every mail of the gateway goes to (its page and JSON API). */
    mailSinkUrl: string;
  }
}

let system: RunningSystem | undefined;
let workDir: string | undefined;
let storeDatabase: TestDatabase | undefined;

export async function setup(project: TestProject): Promise<void> {
  workDir = mkdtempSync(join(tmpdir(), 'wbs-e2e-'));
  // The gateway's store on the machine's PostgreSQL, a database of its own per run (never the
  // developer's .data/store): journeys may check and alter it while the gateway runs.
  storeDatabase = await createTestDatabase();
  system = await startSystem({
    gatewayPort: await freePort(),
    simPort: await freePort(),
    simDataDir: join(workDir, 'legacy-sim'),
    simJwtSecret: randomBytes(32).toString('base64url'),
    sessionSecret: randomBytes(48).toString('base64url'),
    sessionEncryptionKey: randomBytes(32).toString('base64'),
    webDistDir: join(repoRoot, 'web', 'dist'),
    mail: { sink: { smtpPort: await freePort(), httpPort: await freePort() } },
    env: {
      LOG_LEVEL: 'warn',
      LEGACY_SIM_TEST_KNOBS: '1',
      // Every journey tracks from the same address (127.0.0.1), and the workflow journey tracks one
      // report at each of its 12 stages: the limits themselves are tested in the gateway's tests.
      TRACKING_MAX_PER_NUMBER: '30',
      TRACKING_MAX_PER_CLIENT: '300',
      // Likewise every guest report of the journeys comes from that one address; the flood limits
      // (docs/adr/0014-flood-limits.md) are tested in the gateway's tests and the attack suite.
      CASE_SUBMISSIONS_MAX_PER_CLIENT: '1000',
    },
    gatewayEnv: {
      // Test systems may run beside `pnpm start` or each other: none holds the metrics port.
      METRICS_PORT: '0',
      // The journeys file reports minutes apart and one expects its own mail within 60 s: a mail of an
      // earlier journey must not hold it for the product's 15 minutes (notifications/mail-window.test.ts).
      NOTICE_MAIL_WINDOW_SECONDS: '5',
      DATABASE_URL: storeDatabase.url,
      STORE_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString('base64')}`,
    },
    stdio: 'inherit',
  });
  project.provide('baseUrl', system.url);
  project.provide('simUrl', system.simUrl ?? '');
  project.provide('downloadsDir', join(workDir, 'downloads'));
  project.provide('storeUrl', storeDatabase.url);
  project.provide('mailSinkUrl', system.mailSink?.url ?? '');
}

export async function teardown(): Promise<void> {
  await system?.stop();
  await storeDatabase?.drop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}
