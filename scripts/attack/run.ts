/**
 * `pnpm test:attack`: the black-box attack suite. Starts the real system (legacy-sim with fresh
 * seed data, the gateway with its stdout captured) on free loopback ports and runs every case over
 * HTTP: one line per case, then `N passed, N failed`; exits 1 when a case failed. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG_FLUSH_MS } from '../../gateway/src/log-batch.ts';
import { SuiteReport } from '../support/suite-report.ts';
import { freePort, type RunningSystem, startSystem } from '../system.ts';
import { accessCases } from './cases/access.ts';
import { anonymityCases } from './cases/anonymity.ts';
import { csrfCases } from './cases/csrf.ts';
import { disclosureCases } from './cases/disclosure.ts';
import { formulaCases } from './cases/formula.ts';
import { headerCases } from './cases/headers.ts';
import { idorCases, idTrickCases } from './cases/idor.ts';
import { injectionCases } from './cases/injection.ts';
import { inputCases } from './cases/inputs.ts';
import { insightsCases } from './cases/insights.ts';
import { limitCases } from './cases/limits.ts';
import { logCases } from './cases/logs.ts';
import { messageCases } from './cases/messages.ts';
import { noticeCases } from './cases/notices.ts';
import { reporterNoticeCases } from './cases/reporter-notices.ts';
import { resumableUploadCases } from './cases/resumable-uploads.ts';
import { retentionCases } from './cases/retention.ts';
import { secondFactorCases } from './cases/second-factor.ts';
import { sessionCases } from './cases/sessions.ts';
import { trackingCases } from './cases/tracking.ts';
import { uploadCases } from './cases/uploads.ts';
import { findFixtures } from './fixtures.ts';
import { type AttackCase, Failure, Tools } from './support.ts';

const CASE_LIMIT_MS = 30_000;
const SUITE_LIMIT_MS = 4 * 60_000;

const workDir = mkdtempSync(join(tmpdir(), 'wbs-attack-'));
/** Set when the gateway process ended during a case (a crash the case provoked). */
let gatewayDied = false;
const logs: string[] = [];
let system: RunningSystem | undefined;
const watchdog = setTimeout(() => {
  console.error(`attack suite: over its ${SUITE_LIMIT_MS / 1000} s limit; stopping`);
  void cleanUp().then(() => process.exit(1));
}, SUITE_LIMIT_MS);

async function cleanUp() {
  await system?.stop();
  rmSync(workDir, { recursive: true, force: true });
}

async function runCase(report: SuiteReport, t: Tools, c: AttackCase): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      c.run(t),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Failure(`no answer within ${CASE_LIMIT_MS / 1000} s`)),
          CASE_LIMIT_MS,
        );
      }),
    ]);
    return report.check(c.area, c.name, true);
  } catch (error) {
    const message =
      error instanceof Failure
        ? error.message
        : `threw ${error instanceof Error ? error.message : String(error)}`;
    return report.check(c.area, c.name, false, message);
  } finally {
    clearTimeout(timer);
  }
}

const sessionSecret = randomBytes(48).toString('base64url');
let exitCode = 1;
try {
  system = await startSystem({
    gatewayPort: await freePort(),
    simPort: await freePort(),
    simDataDir: join(workDir, 'legacy-sim'),
    simJwtSecret: randomBytes(32).toString('base64url'),
    sessionSecret,
    sessionEncryptionKey: randomBytes(32).toString('base64'),
    webDistDir: join(workDir, 'no-web'),
    env: { LEGACY_SIM_TEST_KNOBS: '1' },
    // The mails the gateway sends are part of what an attacker can cause (cases/notices.ts).
    mail: { sink: { smtpPort: await freePort(), httpPort: await freePort() } },
    gatewayEnv: {
      METRICS_PORT: '0',
      // The suite's own store, removed with its work folder: never the developer's `.data/store`,
      // whose key came from another run's SESSION_ENCRYPTION_KEY.
      STORE_DATA_DIR: join(workDir, 'store'),
      // Debug is the most a production log could carry: the log checks hold at every level.
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '127.0.0.1',
      TRACKING_FAILURE_FLOOR_MS: '300',
      // A 1 s back-off base lets the suite watch the wait grow (1 → 2 → 4 s) in seconds, not hours.
      TRACKING_BACKOFF_BASE_SECONDS: '1',
      RATE_LIMIT_NAMESPACE: `attack-${randomBytes(4).toString('hex')}`,
    },
    onOutput: (name, line) => {
      if (name === 'gateway') logs.push(line);
    },
    onUnexpectedExit: (name) => {
      if (name === 'gateway') gatewayDied = true;
    },
  });
  const baseUrl = `http://127.0.0.1:${new URL(system.url).port}`;
  const t = new Tools(baseUrl, system.simUrl ?? '', logs, system.url);
  t.sessionSecret = sessionSecret;
  t.mailSinkUrl = system.mailSink?.url ?? '';
  await t.signInAll();
  t.fixtures = await findFixtures(t);
  console.log(`attack suite: gateway ${baseUrl}\n`);

  const cases: AttackCase[] = [
    ...accessCases,
    ...idorCases,
    ...idTrickCases,
    ...sessionCases,
    ...secondFactorCases,
    ...csrfCases,
    ...trackingCases,
    ...uploadCases,
    ...resumableUploadCases,
    ...injectionCases,
    ...inputCases,
    ...formulaCases,
    ...disclosureCases,
    ...anonymityCases,
    ...messageCases,
    ...reporterNoticeCases,
    ...noticeCases,
    ...retentionCases,
    ...insightsCases,
    ...limitCases,
    ...headerCases,
  ];
  // Cases that change what others rely on (passwords, roles, sessions, a number's back-off) come after
  // them; the log checks look at everything the other cases made the gateway write: they run last.
  const ordered = [...cases.filter((c) => !c.last), ...cases.filter((c) => c.last), ...logCases];
  const report = new SuiteReport();
  for (const c of ordered) {
    // The gateway writes its log in batches: what the cases before made it write is out by then.
    if (c === logCases[0]) await new Promise((resolve) => setTimeout(resolve, 2 * LOG_FLUSH_MS));
    const ok = await runCase(report, t, c);
    if (!ok) await new Promise((resolve) => setTimeout(resolve, 200));
    if (gatewayDied) {
      // A crash fails its case, and the gateway is started again so the other cases still run.
      report.check(c.area, `${c.name}: the gateway survives it`, false, 'the gateway process ended');
      gatewayDied = false;
      await system.restartGateway();
    }
  }
  exitCode = report.finish('attack suite');
} catch (error) {
  console.error(error);
} finally {
  clearTimeout(watchdog);
  await cleanUp();
}
process.exit(exitCode);
