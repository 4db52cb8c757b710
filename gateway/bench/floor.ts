/**
 * `pnpm bench floor`: the gateway against its floor, side by side in ONE run
 * (docs/adr/0044-floor-benchmark-yardsticks.md; results over time: HISTORY.md).
 *
 * 1. legacy-sim answers the calls of every hot path once, through a recorder; the recorder then
 *    turns into a replay upstream serving the recorded replies (it costs almost nothing, so what is
 *    measured is what sits in front of it).
 * 2. Targets, each its own process: the replay upstream direct, a bare @fastify/reply-from
 *    passthrough of the same legacy call, a minimal BFF of the same call (minimal-bff.ts: undici,
 *    JSON parse, the list presenter and serialiser, nothing else), the gateway with one process
 *    (GATEWAY_WORKERS=1) and with
 *    every core (default workers), both with every feature on: session, policy, legacy-reply checks,
 *    mapping, info logging (to /dev/null), Redis registry and limits, PostgreSQL store.
 * 3. wrk (Debian's; installed when missing) at c=10 and c=50, rounds interleaved across targets,
 *    medians printed per target with the ratios to the passthrough, and each target's CPU time per
 *    request (its processes' user + system time over the round, from /proc): steadier than requests
 *    per second when the machine is shared.
 *
 * The machine may be shared: compare the ratios within one run, not absolute figures across runs.
 * BENCH_BASELINE=<git revision>: one more target, the gateway of that revision (its gateway/src and
 * shared/, extracted into gateway/.bench-baseline, git-ignored) as one process: before and after in
 * one run. Its packages are today's (node_modules is not part of the revision).
 * Settings: BENCH_ROUNDS (3), BENCH_SECONDS (5 for the case list, BENCH_OTHER_SECONDS 3 for the other
 * paths), BENCH_PATHS (comma list of path names; default all), BENCH_CONNECTIONS ("10,50").
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacySim, demoAccounts } from '@wbs/legacy-sim';
import { addDays, wibToday } from '@wbs/shared/handling-clock';
import { request } from 'undici';
import { signIn as signInThroughGateway } from '../../scripts/support/http.ts';
import { createTestDatabase } from '../src/test/databases.ts';
import { costTable, featureCosts, monotonicUs, readProfile, type Window } from './cpu-features.ts';
import { freePort, procStatus, startGateway } from './gateway-process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LIST_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const OTHER_SECONDS = Number(process.env.BENCH_OTHER_SECONDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const WANTED = process.env.BENCH_PATHS?.split(',').filter(Boolean);

function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') return; // wrk --version exits 1 but exists
    console.log('wrk missing: apt-get install -y wrk');
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
  }
}

// ---------------------------------------------------------------- recorder, then replay upstream

type Recorded = { status: number; type: string; body: Buffer };
const recorded = new Map<string, Recorded>();
let recordTo: string | null = null; // legacy-sim origin while recording
const recordedCalls: string[] = [];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function upstreamHandler(req: IncomingMessage, res: ServerResponse) {
  const key = `${req.method} ${req.url}`;
  const body = await readBody(req);
  if (recordTo) {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const reply = await request(`${recordTo}${req.url}`, {
      method: req.method as 'GET',
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const replyBody = Buffer.from(await reply.body.arrayBuffer());
    const type = String(reply.headers['content-type'] ?? 'application/json');
    recorded.set(key, { status: reply.statusCode, type, body: replyBody });
    recordedCalls.push(key);
    res.writeHead(reply.statusCode, { 'content-type': type, 'content-length': replyBody.length });
    res.end(replyBody);
    return;
  }
  const hit = recorded.get(key);
  if (!hit) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"code":-1,"message":["not recorded"],"data":null}');
    return;
  }
  res.writeHead(hit.status, { 'content-type': hit.type, 'content-length': hit.body.length });
  res.end(hit.body);
}

// ---------------------------------------------------------------- wrk

type Shot = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
/**
 * `cpuUs`: CPU time of the target's processes per answered request (NaN for the in-process upstream);
 * `window`: when wrk ran, on the CPU profiles' clock; `requests`: how many it made.
 */
type WrkResult = {
  rps: number;
  p99: number;
  errors: number;
  cpuUs: number;
  window: Window;
  requests: number;
};

const scriptDir = mkdtempSync(join(tmpdir(), 'wbs-floor-'));
let scriptCount = 0;

function luaString(text: string): string {
  return `[==[${text}]==]`;
}

/** One request before measuring: a target that does not answer 200 would measure its error path. */
async function preflight(origin: string, shot: Shot): Promise<void> {
  const res = await request(`${origin}${shot.path}`, {
    method: shot.method,
    headers: shot.headers,
    body: shot.body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) {
    throw new Error(
      `${origin} ${shot.method} ${shot.path} answered ${res.statusCode}: ${text.slice(0, 300)}`,
    );
  }
}

function wrkScript(shot: Shot): string {
  const lines = [`wrk.method = ${luaString(shot.method)}`, `wrk.path = ${luaString(shot.path)}`];
  for (const [name, value] of Object.entries(shot.headers)) {
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  }
  if (shot.body !== undefined) lines.push(`wrk.body = ${luaString(shot.body)}`);
  const file = join(scriptDir, `shot-${scriptCount++}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === 'us') return n / 1000;
  if (unit === 's') return n * 1000;
  if (unit === 'm') return n * 60_000;
  return n;
}

async function wrk(
  origin: string,
  script: string,
  connections: number,
  seconds: number,
  pid: number | null,
): Promise<WrkResult> {
  const cpuBefore = pid === null ? Number.NaN : cpuMsOf(pid);
  const fromUs = monotonicUs();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', [
      '-t2',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      '--timeout',
      '10s',
      '-s',
      script,
      origin,
    ]);
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.stderr.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const window = { fromUs, toUs: monotonicUs() };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p99Match = /\s99%\s+([\d.]+)(us|ms|s|m)\b/.exec(out);
  const p99 = p99Match ? toMs(p99Match[1]!, p99Match[2]!) : Number.NaN;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((s, n) => s + Number(n), 0) : 0);
  if (Number.isNaN(rps)) throw new Error(`wrk gave no figures:\n${out}`);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
  const cpuUs = pid === null ? Number.NaN : ((cpuMsOf(pid) - cpuBefore) * 1000) / requests;
  return { rps, p99, errors, cpuUs, window, requests };
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/**
 * CPU time (user + system, ms) used so far by a process and its child processes (cluster workers):
 * unlike requests per second on a shared machine, CPU per request does not depend on what else runs.
 */
function cpuMsOf(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...childPids(pid)]) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// ---------------------------------------------------------------- processes

/**
 * BENCH_PROFILE_DIR: the yardsticks and the 1-process gateway each write a CPU profile into their own
 * folder there when they stop; the run then prints, per path, the minimal BFF's and the gateway's CPU
 * feature by feature over wrk's own windows (cpu-features.ts).
 */
function profileEnv(target: string): Record<string, string> {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(dir, target)}` } : {};
}

/**
 * A yardstick server (passthrough.ts, minimal-bff.ts) in front of the upstream, once it answers;
 * `profile`: its folder under BENCH_PROFILE_DIR.
 */
async function startYardstick(script: string, upstreamUrl: string) {
  const profile = script.replace(/\.ts$/, '');
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, script)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...profileEnv(profile),
      UPSTREAM_URL: upstreamUrl,
      PORT: String(port),
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      const res = await request(`${url}/ping`);
      await res.body.dump();
      return { url, child, profile };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${script} did not start`);
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** RSS of the process and of its Node children (cluster workers; not the scrub threads, which are threads). */
async function rssOf(pid: number): Promise<number[]> {
  const pids = [pid, ...childPids(pid)];
  const figures: number[] = [];
  for (const p of pids) figures.push((await procStatus(p)).rssMb);
  return figures;
}

// ---------------------------------------------------------------- the run

/** The second yardstick (minimal-bff.ts): parse, map and serialise, nothing else. */
const MINIMAL_BFF = 'minimal BFF (parse, map, serialise)';
const ONE_PROCESS = 'gateway, 1 process';
const FEATURES_NOTE =
  'each sample charged to the first frame up its stack whose file serves a feature (cpu-features.ts); ' +
  'the profiler inflates every figure, so read the shares and the two columns side by side';
const cores = availableParallelism();
ensureWrk();
const sim = await createLegacySim({ dataDir: null, port: 0, testKnobs: false });
const upstreamServer = createServer((req, res) => {
  upstreamHandler(req, res).catch((error) => {
    res.writeHead(500);
    res.end(String(error));
  });
});
upstreamServer.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
const upstreamPort = (upstreamServer.address() as { port: number }).port;
const legacyApiPath = new URL(sim.apiUrl).pathname.replace(/\/+$/, '');
const upstreamUrl = `http://127.0.0.1:${upstreamPort}${legacyApiPath}`;
recordTo = new URL(sim.apiUrl).origin;

const database = await createTestDatabase();
const namespace = `bench-floor-${process.pid}-${Date.now()}`;
const storeKey = Buffer.alloc(32, 7).toString('base64');
const sharedEnv = {
  LOG_LEVEL: 'info',
  REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  RATE_LIMIT_NAMESPACE: namespace,
  DATABASE_URL: database.url,
  STORE_ENCRYPTION_KEYS: `bench:${storeKey}`,
  SESSION_SECRET: 'bench-floor-session-secret-0123456789abcdef',
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

const admin = demoAccounts.find((a) => a.username === 'admin.kahuripan');
if (!admin) throw new Error('legacy-sim has no admin.kahuripan');

/** `profile`: the folder under BENCH_PROFILE_DIR its CPU profile goes to, when it is profiled. */
type Target = { name: string; url: string; pid: number; stop(): void; profile?: string };
const targets: Target[] = [];
/** Resolves once the process is gone (or after `ms`). */
async function exitOf(pid: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cleanup = async () => {
  for (const t of targets) t.stop();
  // The gateways drain first: dropping their database under them (FORCE) failed a draining worker.
  await Promise.all(targets.map((t) => exitOf(t.pid, 15_000)));
  upstreamServer.close();
  await sim.close().catch(() => undefined);
  await database.drop().catch(() => undefined);
  rmSync(scriptDir, { recursive: true, force: true });
};

type HotPath = {
  name: string;
  seconds: number;
  gateway: Omit<Shot, 'headers'> & { headers?: Record<string, string> };
  /** The legacy call (recorded key) the passthrough and the direct target send. */
  legacyKey: string;
};

/** A full session of the company admin (password, then the second factor with its software passkey). */
function signIn(url: string, options: { acceptNoSecondFactor?: boolean } = {}): Promise<string> {
  return signInThroughGateway(url, admin!.username, admin!.password, options);
}

async function gatewayCall(url: string, cookie: string, shot: HotPath['gateway']): Promise<string> {
  const res = await request(`${url}${shot.path}`, {
    method: shot.method,
    headers: { cookie, origin: url, ...(shot.body ? { 'content-type': 'application/json' } : {}) },
    body: shot.body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200)
    throw new Error(`${shot.method} ${shot.path} answered ${res.statusCode}: ${text}`);
  return text;
}

try {
  // Record: one gateway in front of the recorder (legacy-sim behind it) walks every hot path once.
  // No reference cache while recording: a list that reads the status table (handling clocks) must not
  // leave the statuses path without a legacy call of its own to record.
  const recording = await startGateway(upstreamUrl, {
    ...sharedEnv,
    GATEWAY_WORKERS: '1',
    REFERENCE_CACHE_SECONDS: '0',
  });
  targets.push({ name: 'recording', url: recording.url, pid: recording.child.pid!, stop: recording.stop });
  const recordCookie = await signIn(recording.url);
  // WIB days, as the gateway and the legacy count them: a UTC day misses reports filed after 17:00 UTC.
  const today = wibToday();
  const yearAgo = addDays(today, -365);
  const searchBody = JSON.stringify({ page: 1, pageSize: 25, from: yearAgo, to: today });
  const paths: HotPath[] = [];
  const walk = async (name: string, seconds: number, shot: HotPath['gateway']) => {
    const before = recordedCalls.length;
    const text = await gatewayCall(recording.url, recordCookie, shot);
    const calls = recordedCalls.slice(before);
    if (calls.length === 0) throw new Error(`${name} made no legacy call`);
    paths.push({ name, seconds, gateway: shot, legacyKey: calls[0]! });
    return text;
  };
  const list = JSON.parse(
    await walk('case list', LIST_SECONDS, { method: 'POST', path: '/api/v1/cases/search', body: searchBody }),
  ) as { items: { id: number }[] };
  if (list.items.length === 0) throw new Error('the case list is empty');
  await walk('case detail', OTHER_SECONDS, { method: 'GET', path: `/api/v1/cases/${list.items[0]!.id}` });
  await walk('dashboard summary', OTHER_SECONDS, {
    method: 'GET',
    path: `/api/v1/dashboard/summary?from=${yearAgo}&to=${today}`,
  });
  for (const [name, path] of [
    ['statuses', '/api/v1/case-statuses'],
    ['categories', '/api/v1/case-categories'],
    ['lines', '/api/v1/case-lines'],
    ['regions', '/api/v1/regions/provinces'],
  ] as const) {
    await walk(name, OTHER_SECONDS, { method: 'GET', path });
  }
  recording.stop();
  targets.length = 0;
  // Every call any later sign-in or hot path makes is recorded now: replay only.
  recordTo = null;
  await sim.close();

  for (const [name, script] of [
    ['reply-from passthrough', 'passthrough.ts'],
    [MINIMAL_BFF, 'minimal-bff.ts'],
  ] as const) {
    const yardstick = await startYardstick(script, upstreamUrl);
    targets.push({
      name,
      url: yardstick.url,
      pid: yardstick.child.pid!,
      stop: () => yardstick.child.kill('SIGTERM'),
      profile: yardstick.profile,
    });
  }
  const one = await startGateway(upstreamUrl, {
    ...sharedEnv,
    ...profileEnv('gateway'),
    GATEWAY_WORKERS: '1',
  });
  targets.push({
    name: ONE_PROCESS,
    url: one.url,
    pid: one.child.pid!,
    stop: one.stop,
    profile: 'gateway',
  });
  const baselineRev = process.env.BENCH_BASELINE;
  if (baselineRev) {
    const gatewayDir = join(import.meta.dirname, '..');
    const baselineDir = join(gatewayDir, '.bench-baseline');
    rmSync(baselineDir, { recursive: true, force: true });
    // The revision's gateway/src AND shared/ (a change in shared/ is part of what is measured), wired
    // so that the baseline's `@wbs/shared` is its own copy; every other package resolves as usual.
    execFileSync(
      'sh',
      [
        '-c',
        `mkdir -p ${baselineDir} && git archive ${baselineRev} gateway/src shared openapi | tar -x -C ${baselineDir}`,
      ],
      { cwd: join(gatewayDir, '..') },
    );
    mkdirSync(join(baselineDir, 'gateway', 'node_modules', '@wbs'), { recursive: true });
    symlinkSync(join(baselineDir, 'shared'), join(baselineDir, 'gateway', 'node_modules', '@wbs', 'shared'));
    symlinkSync(
      join(gatewayDir, '..', 'shared', 'node_modules'),
      join(baselineDir, 'shared', 'node_modules'),
    );
    const base = await startGateway(
      upstreamUrl,
      { ...sharedEnv, GATEWAY_WORKERS: '1' },
      '.bench-baseline/gateway/src/server.ts',
    );
    targets.push({
      name: `gateway before (${baselineRev.slice(0, 7)}), 1 process`,
      url: base.url,
      pid: base.child.pid!,
      stop: base.stop,
    });
  }
  const all = await startGateway(upstreamUrl, sharedEnv);
  targets.push({ name: `gateway, all workers`, url: all.url, pid: all.child.pid!, stop: all.stop });
  await new Promise((r) => setTimeout(r, 1500));
  const idle = await rssOf(all.child.pid!);
  const idleOne = await rssOf(one.child.pid!);

  const cookies = new Map<string, string>();
  // The baseline revision may predate the second factor.
  for (const t of targets.filter((t) => t.name.startsWith('gateway')))
    cookies.set(t.name, await signIn(t.url, { acceptNoSecondFactor: t.name.includes('before') }));

  const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
  const shotsFor = (path: HotPath) => {
    const [method, legacyPath] = path.legacyKey.split(' ') as ['GET' | 'POST', string];
    const legacyAuth = recorded.get(`POST ${legacyApiPath}/JwtAuth/Login`);
    const token = legacyAuth ? /"token":"([^"]+)"/.exec(legacyAuth.body.toString())?.[1] : undefined;
    const legacyShot: Shot = {
      method,
      path: legacyPath,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: method === 'POST' ? '{}' : undefined,
    };
    const gatewayShot = (t: Target): Shot => ({
      method: path.gateway.method,
      path: path.gateway.path,
      body: path.gateway.body,
      headers: {
        cookie: cookies.get(t.name)!,
        origin: t.url,
        ...(path.gateway.body ? { 'content-type': 'application/json' } : {}),
      },
    });
    return [
      { name: 'legacy reply direct', origin: upstreamOrigin, shot: legacyShot, pid: null },
      ...targets.map((t) => ({
        name: t.name,
        origin: t.url,
        shot: t.name.startsWith('gateway') ? gatewayShot(t) : legacyShot,
        pid: t.pid,
      })),
    ].map((s) => ({ ...s, script: wrkScript(s.shot) }));
  };

  console.log(
    `\nFloor benchmark: Node ${process.version}, ${cores} cores, wrk -t2, ${ROUNDS} interleaved rounds, ` +
      `medians; upstream = replay of recorded legacy-sim replies; company admin (${admin.username}).`,
  );
  console.log(
    `Idle RSS: gateway 1 process ${idleOne.map((m) => m.toFixed(0)).join(' + ')} MB; ` +
      `all workers (primary + ${idle.length - 1} workers) ${idle.map((m) => m.toFixed(0)).join(' + ')} MB`,
  );
  const summary: string[] = [];
  const measured = new Map<string, Map<string, Map<number, WrkResult[]>>>();
  for (const path of paths) {
    if (WANTED && !WANTED.includes(path.name)) continue;
    const shots = shotsFor(path);
    for (const shot of shots) await preflight(shot.origin, shot.shot);
    const figures = new Map<string, Map<number, WrkResult[]>>();
    for (const c of CONNECTIONS) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const shot of shots) {
          const result = await wrk(shot.origin, shot.script, c, path.seconds, shot.pid);
          const byC = figures.get(shot.name) ?? new Map<number, WrkResult[]>();
          byC.set(c, [...(byC.get(c) ?? []), result]);
          figures.set(shot.name, byC);
        }
      }
    }
    measured.set(path.name, figures);
    const med = (name: string, c: number, key: 'rps' | 'p99' | 'cpuUs') =>
      median((figures.get(name)?.get(c) ?? []).map((r) => r[key]));
    const errorsOf = (name: string) =>
      [...(figures.get(name)?.values() ?? [])].flat().reduce((s, r) => s + r.errors, 0);
    const header = CONNECTIONS.map((c) => `c=${c} req/s | ratio | p99 c=${c} (ms) | CPU µs/req c=${c}`).join(
      ' | ',
    );
    console.log(
      `\n${path.name}: gateway ${path.gateway.method} ${path.gateway.path.split('?')[0]}; legacy ${path.legacyKey.split('?')[0]}`,
    );
    console.log(`| target | ${header} | errors |`);
    console.log(`|---|${CONNECTIONS.map(() => '---:|---:|---:|---:').join('|')}|---:|`);
    for (const shot of shots) {
      const cells = CONNECTIONS.map((c) => {
        const rps = med(shot.name, c, 'rps');
        const ratio = rps / med('reply-from passthrough', c, 'rps');
        const cpu = med(shot.name, c, 'cpuUs');
        return `${rps.toFixed(0)} | ${ratio.toFixed(2)}× | ${med(shot.name, c, 'p99').toFixed(1)} | ${Number.isNaN(cpu) ? '-' : cpu.toFixed(0)}`;
      });
      console.log(`| ${shot.name} | ${cells.join(' | ')} | ${errorsOf(shot.name)} |`);
    }
    const ratios = CONNECTIONS.map((c) => {
      const pass = med('reply-from passthrough', c, 'rps');
      const minimal = med(MINIMAL_BFF, c, 'rps');
      const parts = shots
        .filter((shot) => shot.name.startsWith('gateway'))
        .map(
          (shot) =>
            `${shot.name} ${(med(shot.name, c, 'rps') / pass).toFixed(2)}× (${(med(shot.name, c, 'rps') / minimal).toFixed(2)}× minimal BFF, ` +
            `CPU ${(med(MINIMAL_BFF, c, 'cpuUs') / med(shot.name, c, 'cpuUs')).toFixed(2)}× minimal BFF, p99 ${med(shot.name, c, 'p99').toFixed(1)} ms)`,
        );
      return `c=${c}: minimal BFF ${(minimal / pass).toFixed(2)}×, ${parts.join(', ')}`;
    });
    summary.push(`${path.name.padEnd(18)} ${ratios.join('; ')}`);
  }
  const peak = await Promise.all(
    targets
      .filter((t) => t.name.startsWith('gateway'))
      .map(async (t) => {
        const pids = [t.pid, ...childPids(t.pid)];
        return `${t.name}: ${(await Promise.all(pids.map((p) => procStatus(p)))).map((s) => s.hwmMb.toFixed(0)).join(' + ')} MB`;
      }),
  );
  console.log(
    '\nRatios to the reply-from passthrough; in brackets to the minimal BFF, by requests per second and by ' +
      "CPU per request (its µs / the gateway's; goal: 1 process ≥ 0.75× on the case list):",
  );
  for (const line of summary) console.log(`  ${line}`);
  console.log(`Peak RSS during the run (primary + workers): ${peak.join('; ')}`);
  const profileDir = process.env.BENCH_PROFILE_DIR;
  if (profileDir) {
    // A profile is written when its process stops.
    const profiled = targets.filter((t) => t.profile !== undefined);
    for (const t of profiled) t.stop();
    await Promise.all(profiled.map((t) => exitOf(t.pid, 15_000)));
    const compared = profiled.filter((t) => t.name !== 'reply-from passthrough');
    const profiles = new Map(compared.map((t) => [t.name, readProfile(join(profileDir, t.profile!), t.pid)]));
    for (const [pathName, figures] of measured) {
      const costs = compared.map((t) => {
        const runs = [...(figures.get(t.name)?.values() ?? [])].flat();
        return {
          name: t.name,
          costs: featureCosts(
            profiles.get(t.name)!,
            runs.map((r) => r.window),
          ),
          requests: runs.reduce((sum, r) => sum + r.requests, 0),
        };
      });
      console.log(`\nWhere the CPU goes, ${pathName} (profiled, every round; ${FEATURES_NOTE}):`);
      console.log(costTable(costs));
    }
  }
} finally {
  await cleanup();
}
