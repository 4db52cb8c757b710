/**
 * `pnpm test:fault`: the load and fault suite. Starts the real processes (legacy-sim with its test
 * knobs, the gateway with a private Redis and a private TMPDIR) on free loopback ports and runs the
 * scenarios one after the other, printing one line per check, the figures measured, and a final
 * `N passed, N failed` line; exits 1 when a check failed. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestCategoryId } from '../support/report-form.ts';
import { guarded, SuiteReport } from '../support/suite-report.ts';
import { freePort, type RunningSystem, startSystem } from '../system.ts';
import { type FaultContext, RedisControl } from './context.ts';
import { killMidUpload } from './scenarios/kill-mid-upload.ts';
import { legacyFaults } from './scenarios/legacy-faults.ts';
import { redisDown } from './scenarios/redis-down.ts';
import { sigtermDrain } from './scenarios/sigterm.ts';
import { concurrentSubmissions } from './scenarios/submissions.ts';

const SUITE_LIMIT_MS = 4 * 60_000;

const report = new SuiteReport();
const workDir = mkdtempSync(join(tmpdir(), 'wbs-fault-'));
const simDataDir = join(workDir, 'legacy-sim');
const gatewayTmp = join(workDir, 'gateway-tmp');
mkdirSync(gatewayTmp);
const runId = randomBytes(4).toString('hex');
const redis = new RedisControl(await freePort());
const gatewayErrors: string[] = [];
let system: RunningSystem | undefined;

const watchdog = setTimeout(() => {
  console.error(`fault suite: over its ${SUITE_LIMIT_MS / 1000} s limit; stopping`);
  void cleanUp().then(() => process.exit(1));
}, SUITE_LIMIT_MS);

async function cleanUp() {
  await system?.stop();
  await redis.kill().catch(() => {});
  rmSync(workDir, { recursive: true, force: true });
}

let exitCode = 1;
try {
  const started = performance.now();
  await redis.start();
  system = await startSystem({
    gatewayPort: await freePort(),
    simPort: await freePort(),
    simDataDir,
    simJwtSecret: randomBytes(32).toString('base64url'),
    sessionSecret: randomBytes(48).toString('base64url'),
    sessionEncryptionKey: randomBytes(32).toString('base64'),
    webDistDir: join(workDir, 'no-web'),
    env: { LEGACY_SIM_TEST_KNOBS: '1' },
    gatewayEnv: {
      METRICS_PORT: '0',
      // A store of the suite's own: never the checkout's .data/store (a `pnpm start` of its own keys).
      STORE_DATA_DIR: join(workDir, 'store'),
      LOG_LEVEL: 'warn',
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      RATE_LIMIT_NAMESPACE: `fault-${runId}`,
      // Each simulated reporter has its own address: X-Forwarded-For from the loopback "proxy".
      // (An address, not a hop count: Fastify 5.12 ignores X-Forwarded-For for a hop count.)
      TRUST_PROXY: '127.0.0.1',
      // legacy-sim hashes every case password (scrypt); 200 at once on a busy 2-core box queue past
      // the default 10 s, and a legacy call that times out after the report was sent cannot be told
      // from one that failed (docs/adr/0006-idempotent-submissions.md). The legacy-faults scenario runs with a 2 s bound.
      LEGACY_TIMEOUT_MS: '30000',
      // The 200 submissions are the load under test here, not a flood: the global submission cap
      // (docs/adr/0014-flood-limits.md) is the attack suite's subject.
      CASE_SUBMISSIONS_MAX_GLOBAL: '100000',
      // Copies sent at once and their retries after 503 `busy` come from one reporter's address.
      CASE_SUBMISSIONS_MAX_PER_CLIENT: '100000',
      TMPDIR: gatewayTmp,
    },
    onOutput: (name, line) => {
      if (name !== 'gateway') return;
      const level = (() => {
        try {
          return (JSON.parse(line) as { level?: number }).level ?? 0;
        } catch {
          return 60;
        }
      })();
      if (level >= 50) gatewayErrors.push(line);
    },
    onUnexpectedExit: (name, code) => report.check('system', `${name} keeps running`, false, `exit ${code}`),
  });
  const baseUrl = `http://127.0.0.1:${new URL(system.url).port}`;
  const ctx: FaultContext = {
    report,
    system,
    baseUrl,
    simUrl: system.simUrl ?? '',
    simDataDir,
    gatewayTmp,
    redis,
    runId,
    categoryId: await guestCategoryId(baseUrl),
    filed: [],
    clientAddress: (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  };
  console.log(
    `fault suite ${runId}: gateway ${baseUrl}, legacy-sim ${ctx.simUrl}, Redis ${redis.kind} :${redis.port}\n`,
  );
  const scenarios: [string, (ctx: FaultContext) => Promise<void>][] = [
    ['submissions', concurrentSubmissions],
    ['sigterm', sigtermDrain],
    ['legacy-faults', legacyFaults],
    ['redis-down', redisDown],
    ['kill-9', killMidUpload],
  ];
  for (const [name, scenario] of scenarios) {
    const scenarioStarted = performance.now();
    console.log(`\n== ${name}`);
    await guarded(report, name, 'scenario ran to its end', () => scenario(ctx));
    report.figure(`${name} took`, `${((performance.now() - scenarioStarted) / 1000).toFixed(1)} s`);
  }
  report.figure('gateway error lines (the provoked legacy faults log some)', gatewayErrors.length);
  report.figure('suite took', `${((performance.now() - started) / 1000).toFixed(1)} s`);
  exitCode = report.finish('fault suite');
} catch (error) {
  console.error(error);
  report.finish('fault suite');
} finally {
  clearTimeout(watchdog);
  await cleanUp();
}
process.exit(exitCode);
