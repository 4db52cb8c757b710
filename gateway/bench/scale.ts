/**
 * `pnpm bench scale`: every staff screen's call on ten years of data (`pnpm seed:scale`) and on the demo
 * data, side by side in one run. Per call: p50 and p95 over its repetitions, the legacy's share of that
 * time (the gateway's own legacy-call histogram, read before and after each call: the part legacy-sim
 * answered in, so the table says where legacy-sim is the bottleneck) and the gateway's peak RSS growth
 * during the call (VmHWM reset before each call). Then `audit:verify` of the whole chain and one poll
 * of the case-index watcher.
 *
 * Each side runs legacy-sim and the gateway as processes of their own (the gateway with its job queue
 * off, so no background poll runs during a measurement), the store a PostgreSQL database:
 * the generator's for the scale side, a fresh one for the demo side.
 *
 *   BENCH_SCALE_REPS (7)   repetitions of each screen call (exports: 2)
 *   BENCH_SCALE_CALLS      only the calls whose names contain one of these words (comma list)
 *   BENCH_SCALE_TRACE      set: each repetition's time on stderr (a first, cold call is told from the rest)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { request } from 'undici';
import { percentile, signIn } from '../../scripts/support/http.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { freePort, procStatus, startGateway } from './gateway-process.ts';
import {
  SCALE_DATABASE_URL,
  SCALE_JWT_SECRET,
  SCALE_LEGACY_DIR,
  SCALE_SIZE,
  SCALE_STORE_KEYS,
} from './scale-data.ts';
import { benchStore } from './store-env.ts';

const root = join(import.meta.dirname, '..', '..');
const REPS = Number(process.env.BENCH_SCALE_REPS ?? 7);
const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: 'Admin#2026!' };
const STAFF = { username: 'admin.kahuripan', password: 'Perusahaan#2026!' };
process.env.BENCH_DATABASE_URL ??= new URL('/postgres', SCALE_DATABASE_URL).toString();

const wibToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
const yearsAgo = (years: number) =>
  new Date(Date.now() + 7 * 3_600_000 - years * 365.25 * 86_400_000).toISOString().slice(0, 10);

type Side = {
  label: string;
  env: Record<string, string>;
  legacyDir: string;
  drop: () => Promise<void>;
};

async function startSim(dataDir: string): Promise<{ apiUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'scripts/legacy-sim/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      LEGACY_SIM_PORT: String(port),
      LEGACY_SIM_DATA_DIR: dataDir,
      LEGACY_SIM_JWT_SECRET: SCALE_JWT_SECRET,
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`legacy-sim exited with ${code}`)));
  });
  child.stdout!.resume();
  return { apiUrl: `http://127.0.0.1:${port}/api`, child };
}

async function legacySeconds(metricsUrl: string): Promise<number> {
  const res = await request(metricsUrl);
  const text = await res.body.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('wbs_legacy_call_duration_seconds_sum')) sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

type Figure = {
  p50: number;
  p95: number;
  legacyP50: number;
  rssGrowthMb: number;
  status: number;
  detail: string;
};

type CallSpec = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  reps?: number;
  detail?: (text: string, bytes: number) => string;
};

async function measure(
  url: string,
  metricsUrl: string,
  pid: number,
  cookie: string,
  spec: CallSpec,
): Promise<Figure> {
  const times: number[] = [];
  const legacy: number[] = [];
  let growth = 0;
  let status = 0;
  let detail = '';
  for (let i = 0; i < (spec.reps ?? REPS); i++) {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const before = await procStatus(pid);
    const legacyBefore = await legacySeconds(metricsUrl);
    const started = performance.now();
    const res = await request(new URL(spec.path, url), {
      method: spec.method,
      headers: {
        cookie,
        origin: url,
        'sec-fetch-site': 'same-origin',
        ...(spec.json ? { 'content-type': 'application/json' } : {}),
      },
      ...(spec.json ? { body: JSON.stringify(spec.json) } : {}),
      headersTimeout: 300_000,
      bodyTimeout: 300_000,
    });
    let bytes = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      bytes += (chunk as Buffer).length;
      if (bytes < 2_000_000) chunks.push(chunk as Buffer);
    }
    times.push(performance.now() - started);
    if (process.env.BENCH_SCALE_TRACE) console.error(spec.name, Math.round(times.at(-1)!));
    legacy.push((await legacySeconds(metricsUrl)) - legacyBefore);
    const after = await procStatus(pid);
    growth = Math.max(growth, after.hwmMb - before.rssMb);
    status = res.statusCode;
    const text = Buffer.concat(chunks).toString('utf8');
    detail = res.statusCode >= 400 ? text.slice(0, 120) : (spec.detail?.(text, bytes) ?? '');
  }
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    legacyP50: percentile(legacy, 50) * 1000,
    rssGrowthMb: growth,
    status,
    detail,
  };
}

const total = (text: string) => {
  try {
    return `${(JSON.parse(text) as { total: number }).total.toLocaleString('en')} rows`;
  } catch {
    return '';
  }
};

/** One poll of the watcher in this process (as its job runs it), against the side's legacy and store. */
async function watcherPoll(apiUrl: string, env: Record<string, string>, untilComplete: boolean) {
  const config = loadConfig({
    LEGACY_API_URL: apiUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghij',
    SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    ...SERVICE,
    LEGACY_TIMEOUT_MS: '120000',
    JOBS_ENABLED: 'false',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
  await app.ready();
  try {
    if (untilComplete) for (let i = 0; i < 200 && !(await app.caseIndex.poll()).complete; i++);
    const before = process.memoryUsage().rss;
    const report = await app.caseIndex.poll();
    return {
      ms: report.durationMs,
      legacyCalls: report.legacyCalls,
      indexSize: report.indexSize,
      rssGrowthMb: (process.memoryUsage().rss - before) / 1_048_576,
    };
  } finally {
    await app.close();
  }
}

function auditVerify(env: Record<string, string>) {
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'maxrss %M cpu %U %S', process.execPath, 'scripts/audit-verify.ts'],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  const ms = performance.now() - started;
  const out = `${run.stdout}${run.stderr}`;
  const records = Number(/(\d+) catatan/.exec(out)?.[1] ?? 0);
  return { ms, records, out: out.trim() };
}

async function runSide(side: Side) {
  const { apiUrl, child: sim } = await startSim(side.legacyDir);
  const results = new Map<string, Figure>();
  let extra: Record<string, string> = {};
  try {
    const poll = await watcherPoll(apiUrl, side.env, side.label === 'demo');
    const metricsPort = await freePort();
    const gateway = await startGateway(apiUrl, {
      ...side.env,
      ...SERVICE,
      JOBS_ENABLED: 'false',
      METRICS_PORT: String(metricsPort),
    });
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    try {
      const cookie = await signIn(gateway.url, STAFF.username, STAFF.password);
      const pid = gateway.child.pid!;
      const from = yearsAgo(SCALE_SIZE.years);
      const to = wibToday();
      const period = { from, to };
      const first = await request(new URL('/api/v1/cases/search', gateway.url), {
        method: 'POST',
        headers: { cookie, origin: gateway.url, 'content-type': 'application/json' },
        body: JSON.stringify({ ...period, page: 1, pageSize: 25 }),
        headersTimeout: 300_000,
        bodyTimeout: 300_000,
      });
      const page = (await first.body.json()) as { total: number; items: { id: number; number: string }[] };
      const lastPage = Math.max(1, Math.ceil(page.total / 25));
      const sample = page.items[0]!;
      const calls: CallSpec[] = [
        {
          name: 'case list, first page',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, page: 1, pageSize: 25 },
          detail: total,
        },
        {
          name: 'case list, last page',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, page: lastPage, pageSize: 25 },
          detail: total,
        },
        {
          name: 'filter: number',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, number: sample.number },
          detail: total,
        },
        {
          name: 'filter: category',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, categoryId: 1 },
          detail: total,
        },
        {
          name: 'filter: line',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, caseLineId: 1 },
          detail: total,
        },
        {
          name: 'filter: status',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, statusId: 14 },
          detail: total,
        },
        {
          name: 'filter: overdue',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...period, overdue: true },
          detail: total,
        },
        { name: 'case detail', method: 'GET', path: `/api/v1/cases/${sample.id}` },
        {
          name: 'dashboard: summary',
          method: 'GET',
          path: `/api/v1/dashboard/summary?from=${yearsAgo(1)}&to=${to}`,
        },
        { name: 'dashboard: open cases', method: 'GET', path: '/api/v1/dashboard/open-cases' },
        { name: 'dashboard: overdue', method: 'GET', path: '/api/v1/dashboard/overdue' },
        // Peta Laporan and Statistik read the case index: one year, as their screens open.
        { name: 'statistics', method: 'GET', path: `/api/v1/statistics?from=${yearsAgo(1)}&to=${to}` },
        { name: 'statistics, ten years', method: 'GET', path: `/api/v1/statistics?from=${from}&to=${to}` },
        {
          name: 'maps: provinces',
          method: 'GET',
          path: `/api/v1/maps/provinces?from=${yearsAgo(1)}&to=${to}`,
        },
        {
          name: 'maps: provinces, ten years',
          method: 'GET',
          path: `/api/v1/maps/provinces?from=${from}&to=${to}`,
        },
        {
          name: 'maps: cities of a province',
          method: 'GET',
          path: `/api/v1/maps/provinces/32/cities?from=${yearsAgo(1)}&to=${to}`,
        },
        {
          name: 'export (xlsx, all rows)',
          method: 'POST',
          path: '/api/v1/cases/export',
          json: period,
          reps: 2,
          detail: (_t, bytes) => `${(bytes / 1_048_576).toFixed(1)} MB`,
        },
        {
          name: 'audit CSV, one year',
          method: 'GET',
          path: `/api/v1/audit-trail/export?from=${yearsAgo(1)}&to=${to}`,
          reps: 2,
          detail: (t, bytes) =>
            `${(t.split('\n').length - 2).toLocaleString('en')}+ lines, ${(bytes / 1_048_576).toFixed(1)} MB`,
        },
      ];
      const only = process.env.BENCH_SCALE_CALLS?.split(',');
      for (const spec of calls) {
        if (only && !only.some((word) => spec.name.includes(word))) continue;
        results.set(spec.name, await measure(gateway.url, metricsUrl, pid, cookie, spec));
        process.stderr.write('.');
      }
      extra = {
        reports: page.total.toLocaleString('en'),
        idleRssMb: (await procStatus(pid)).rssMb.toFixed(0),
      };
    } finally {
      gateway.stop();
      await new Promise((r) => gateway.child.once('exit', r));
    }
    const verify = auditVerify(side.env);
    return { results, poll, verify, extra };
  } finally {
    sim.kill('SIGTERM');
    await new Promise((r) => sim.once('exit', r));
  }
}

if (!existsSync(join(SCALE_LEGACY_DIR, 'store.json'))) {
  console.error(`no scale data in ${SCALE_LEGACY_DIR}: run pnpm seed:scale first`);
  process.exit(2);
}
const demoDir = mkdtempSync(join(tmpdir(), 'wbs-scale-demo-'));
const demoStore = await benchStore('scale_demo');
const sides: Side[] = [
  { label: 'demo', env: { ...demoStore.env }, legacyDir: demoDir, drop: demoStore.drop },
  {
    label: 'scale',
    env: { DATABASE_URL: SCALE_DATABASE_URL, STORE_ENCRYPTION_KEYS: SCALE_STORE_KEYS },
    legacyDir: SCALE_LEGACY_DIR,
    drop: async () => {},
  },
];
// The passkey the bench signs in with is enrolled by its first sign-in: start each run without one.
{
  const client = new pg.Client({ connectionString: SCALE_DATABASE_URL });
  await client.connect();
  await client.query(
    'delete from second_factor_passkey; delete from second_factor_recovery; delete from second_factor_totp',
  );
  await client.end();
}
const out: Awaited<ReturnType<typeof runSide>>[] = [];
try {
  for (const side of sides) out.push(await runSide(side));
} finally {
  for (const side of sides) await side.drop();
  rmSync(demoDir, { recursive: true, force: true });
}
const [demo, scale] = out as [Awaited<ReturnType<typeof runSide>>, Awaited<ReturnType<typeof runSide>>];
console.log(
  `\nStaff screens as company admin of the largest company: demo (${demo.extra.reports} reports) vs scale (${scale.extra.reports} reports of ${SCALE_SIZE.cases.toLocaleString('en')}); ${REPS} repetitions (exports 2), PostgreSQL store, Node ${process.version}`,
);
console.log('ms: p50 / p95 (legacy share p50); RSS: peak growth of the gateway during the call\n');
console.log('| call | demo p50 / p95 (legacy) | scale p50 / p95 (legacy) | scale RSS growth | scale reply |');
console.log('|---|---:|---:|---:|---|');
const fmt = (f: Figure) => `${f.p50.toFixed(0)} / ${f.p95.toFixed(0)} (${f.legacyP50.toFixed(0)})`;
for (const [name, s] of scale.results) {
  const d = demo.results.get(name);
  if (!d) continue;
  console.log(
    `| ${name} | ${fmt(d)} | ${fmt(s)} | ${s.rssGrowthMb.toFixed(0)} MB | ${s.status} ${s.detail} |`,
  );
}
// The demo chain is a few records: its time is the process's start, left out of the rate.
const rate = (v: { ms: number; records: number }) =>
  Math.round(v.records / (Math.max(1, v.ms - demo.verify.ms) / 1000)).toLocaleString('en');
const cpuSeconds = (out: string) => {
  const m = /cpu ([\d.]+) ([\d.]+)/.exec(out);
  return m ? Number(m[1]) + Number(m[2]) : Number.NaN;
};
console.log(
  `| audit:verify, whole chain (process) | ${demo.verify.ms.toFixed(0)} ms, ${demo.verify.records} records | ${scale.verify.ms.toFixed(0)} ms, ${scale.verify.records.toLocaleString('en')} records = ${rate(scale.verify)}/s after start-up | ${Math.round(Number(/maxrss (\d+)/.exec(scale.verify.out)?.[1] ?? 0) / 1024)} MB peak RSS, ${cpuSeconds(scale.verify.out).toFixed(1)} s CPU | |`,
);
console.log(
  `| one case-index poll | ${demo.poll.ms} ms, ${demo.poll.legacyCalls} legacy calls | ${scale.poll.ms} ms, ${scale.poll.legacyCalls} legacy calls | | index ${scale.poll.indexSize.toLocaleString('en')} rows |`,
);
console.log(`\nidle RSS after the calls: demo ${demo.extra.idleRssMb} MB, scale ${scale.extra.idleRssMb} MB`);
