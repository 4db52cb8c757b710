/**
 * `pnpm bench hostile`: the case list's latency while three hostile uploads run
 * (docs/adr/0011-metadata-scrubbing-in-a-worker-pool.md), with
 * scrubbing on the main thread (SCRUB_THREADS=0: how it was before) and in the worker pool with one
 * and with two threads, side by side in one run. Each mode gets its own gateway child process in front of the
 * same in-memory legacy-sim; first the list alone (baseline), then the list while three clients keep
 * uploading a ~9 MB PDF of 300,000 tiny objects (BENCH_HOSTILE_OBJECTS) as fast as they are answered,
 * and one client uploading a small ordinary PDF (how long an honest reporter waits meanwhile).
 * Compare the ratios (under load ÷ alone), not the absolute times: the machine is shared.
 * Bounded: BENCH_ROUNDS (default 3) rounds over the modes, BENCH_SECONDS (default 6) of list traffic
 * per phase, 4 list clients; all three gateways run throughout and the rounds interleave them. The list is
 * POST /cases/search (the case list's endpoint: filters travel in the body). An upload not answered
 * within 120 s counts as `timeout` among the replies.
 *
 * Then what one such heavy but valid PDF costs (docs/adr/0078-scrub-bounded-by-its-work.md): its
 * upload through each gateway alone and beside the three hostile clients (wall time, answers), and
 * its scrub on a thread of its own as the pool runs it (the thread's CPU time, the wall time, the
 * answer), alone and beside three more at once.
 */

import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createLegacySim, demoAccounts } from '@wbs/legacy-sim';
import { wibToday } from '@wbs/shared/handling-clock';
import { FormData, Pool, request } from 'undici';
import { signIn as signInThroughGateway } from '../../scripts/support/http.ts';
import { loadConfig } from '../src/config.ts';
import { manyObjectsPdf } from '../src/test/pdf-revisions.ts';
import { BENCH_GUEST_FIELDS, procStatus, startGateway } from './gateway-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OBJECTS = Number(process.env.BENCH_HOSTILE_OBJECTS ?? 300_000);
const HOSTILE = 3;
const LIST_CLIENTS = 4;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** A full session of a company admin (password, then the second factor with its software passkey). */
async function signIn(url: string): Promise<string> {
  const admin = demoAccounts.find((a) => a.userTypeId === 2 && !a.initPassword);
  if (!admin) throw new Error('legacy-sim has no type-2 demo account');
  return signInThroughGateway(url, admin.username, admin.password);
}

/** List requests from LIST_CLIENTS clients for SECONDS; latencies in ms, sorted. */
async function listFor(url: string, cookie: string): Promise<number[]> {
  const body = JSON.stringify({ from: '2020-01-01', to: wibToday(), page: 1, pageSize: 25 });
  const headers = { cookie, origin: url, 'content-type': 'application/json' };
  const pool = new Pool(url, { connections: LIST_CLIENTS });
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: LIST_CLIENTS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await pool.request({ method: 'POST', path: '/api/v1/cases/search', headers, body });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`case list answered ${res.statusCode}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  await pool.close();
  return latencies.sort((a, b) => a - b);
}

/** One report with `pdfPath` as its evidence: the answer (`timeout`: none in 120 s) and its wall time. */
async function uploadOnce(
  url: string,
  pdfPath: string,
  name: string,
): Promise<{ status: string; ms: number }> {
  const started = performance.now();
  const form = new FormData();
  for (const [field, value] of Object.entries(BENCH_GUEST_FIELDS)) form.append(field, value);
  form.append('evidence', await openAsBlob(pdfPath, { type: 'application/pdf' }), name);
  try {
    const res = await request(`${url}/api/v1/cases`, {
      method: 'POST',
      body: form,
      headers: { origin: url },
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    await res.body.dump();
    return { status: String(res.statusCode), ms: performance.now() - started };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      status: code === 'UND_ERR_HEADERS_TIMEOUT' ? 'timeout' : 'error',
      ms: performance.now() - started,
    };
  }
}

/**
 * `clients` clients uploading `pdfPath` again and again until `stop()`: their reply codes and
 * latencies (ms, sorted at stop).
 */
function uploadLoop(url: string, pdfPath: string, clients: number) {
  let running = true;
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const loops = Array.from({ length: clients }, async (_, n) => {
    while (running) {
      const { status, ms } = await uploadOnce(url, pdfPath, `bukti-${n}.pdf`);
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  return {
    statuses,
    latencies,
    async stop() {
      running = false;
      await Promise.all(loops);
      latencies.sort((a, b) => a - b);
    },
  };
}

/** The product's CPU bound of one file's scrub (SCRUB_CPU_MS unset). */
const DEFAULT_CPU_MS = loadConfig({
  SESSION_SECRET: 'x'.repeat(40),
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
}).uploads.scrub.cpuMs;
const SCRUB_WORKER = new URL('../src/uploads/scrub-worker.ts', import.meta.url).href;

type ScrubCost = { cpuMs: number; wallMs: number; answer: string };

/** One scrub of `path` on a thread of its own, as a pool's worker runs it: what it cost and said. */
function scrubOnce(path: string, out: string): Promise<ScrubCost> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(workerData.module).then(async ({ default: scrub }) => {
       const cpu = process.threadCpuUsage();
       const started = performance.now();
       let answer;
       try {
         answer = await scrub({ kind: 'pdf', detected: 'pdf', path: workerData.path, out: workerData.out, size: 0 });
       } catch (error) {
         answer = 'forwarded (' + (error && error.name) + ')';
       }
       const used = process.threadCpuUsage(cpu);
       parentPort.postMessage({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, answer });
     });`,
    { eval: true, workerData: { module: SCRUB_WORKER, path, out } },
  );
  return new Promise<ScrubCost>((resolve, reject) => {
    worker.once('message', (cost: ScrubCost) => {
      resolve(cost);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** p50 (min–max) of `values`, each written by `unit`. */
const spread = (values: number[], unit: (n: number) => string) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return '–';
  return `${unit(percentile(sorted, 50))} (${unit(sorted[0] as number)}–${unit(sorted[sorted.length - 1] as number)})`;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const tally = (answers: string[]) => {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer] = (counts[answer] ?? 0) + 1;
  return JSON.stringify(counts);
};

const work = await mkdtemp(join(tmpdir(), 'wbs-bench-hostile-'));
const sim = await createLegacySim({ dataDir: null, port: 0, testKnobs: false });
try {
  const pdfPath = join(work, 'berat.pdf');
  const pdf = await manyObjectsPdf(OBJECTS);
  await writeFile(pdfPath, pdf);
  const normalPath = join(work, 'biasa.pdf');
  await writeFile(normalPath, await manyObjectsPdf(200));
  // Every upload of the bench comes from one address: the submission flood limits would answer most
  // of them 429 before anything is scrubbed (they are tested in the gateway's tests and the attack suite).
  const limits = { CASE_SUBMISSIONS_MAX_PER_CLIENT: '100000', CASE_SUBMISSIONS_MAX_GLOBAL: '100000' };
  const modes = [
    { name: 'main thread (before)', env: { SCRUB_THREADS: '0' } },
    { name: 'worker pool, 1 thread', env: { SCRUB_THREADS: '1' } },
    { name: 'worker pool, 2 threads', env: { SCRUB_THREADS: '2' } },
  ].map((mode) => ({
    ...mode,
    env: { ...mode.env, ...limits },
    alone: [] as number[],
    loaded: [] as number[],
    normal: [] as number[],
    normalStatuses: {} as Record<string, number>,
    hostileStatuses: {} as Record<string, number>,
    hostileLatencies: [] as number[],
    heavyAlone: [] as { status: string; ms: number }[],
    peakRssMb: 0,
  }));
  const merge = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [status, count] of Object.entries(from)) into[status] = (into[status] ?? 0) + count;
  };
  // Every gateway runs for the whole bench; the rounds interleave the modes, so a burst of other work
  // on this shared machine falls on all of them rather than on one.
  const gateways = await Promise.all(modes.map((mode) => startGateway(sim.apiUrl, mode.env)));
  try {
    const cookies = await Promise.all(gateways.map((gateway) => signIn(gateway.url)));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, mode] of modes.entries()) {
        const gateway = gateways[i] as (typeof gateways)[number];
        const cookie = cookies[i] as string;
        mode.alone.push(...(await listFor(gateway.url, cookie)));
        const pid = gateway.child.pid as number;
        const sampler = setInterval(() => {
          procStatus(pid)
            .then((status) => {
              mode.peakRssMb = Math.max(mode.peakRssMb, status.rssMb);
            })
            .catch(() => undefined);
        }, 100);
        const hostile = uploadLoop(gateway.url, pdfPath, HOSTILE);
        const normal = uploadLoop(gateway.url, normalPath, 1);
        mode.loaded.push(...(await listFor(gateway.url, cookie)));
        await Promise.all([hostile.stop(), normal.stop()]);
        clearInterval(sampler);
        mode.normal.push(...normal.latencies);
        mode.hostileLatencies.push(...hostile.latencies);
        merge(mode.normalStatuses, normal.statuses);
        merge(mode.hostileStatuses, hostile.statuses);
        mode.heavyAlone.push(await uploadOnce(gateway.url, pdfPath, 'berat.pdf'));
      }
    }
  } finally {
    for (const gateway of gateways) gateway.stop();
  }
  const rows = modes.map((mode) => {
    for (const list of [mode.alone, mode.loaded, mode.normal]) list.sort((a, b) => a - b);
    const p50a = percentile(mode.alone, 50);
    const p99a = percentile(mode.alone, 99);
    const p50l = percentile(mode.loaded, 50);
    const p99l = percentile(mode.loaded, 99);
    return (
      `| ${mode.name.padEnd(22)} | ${p50a.toFixed(1).padStart(6)} | ${p99a.toFixed(1).padStart(6)} | ` +
      `${p50l.toFixed(1).padStart(8)} | ${p99l.toFixed(1).padStart(8)} | ${(p99l / p99a).toFixed(1).padStart(8)}× | ` +
      `${String(mode.loaded.length).padStart(6)} | ${(percentile(mode.normal, 50) / 1000).toFixed(1).padStart(6)} s | ` +
      `${JSON.stringify(mode.normalStatuses)} | ${JSON.stringify(mode.hostileStatuses)} | ${mode.peakRssMb.toFixed(0).padStart(4)} MB |`
    );
  });
  console.log(
    `\nCase list (25 rows, ${LIST_CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS} s a phase) alone and while ${HOSTILE} clients ` +
      `upload a ${(pdf.length / 1024 / 1024).toFixed(1)} MB PDF of ${OBJECTS.toLocaleString('en')} objects; Node ${process.version}`,
  );
  console.log(
    '| scrubbing              | p50 ms | p99 ms | p50 load | p99 load | p99 ratio | lists  | normal upload p50 | normal replies | hostile replies | peak RSS |',
  );
  console.log(
    '|------------------------|-------:|-------:|---------:|---------:|----------:|-------:|---------:|----------------|-----------------|---------:|',
  );
  for (const row of rows) console.log(row);

  console.log(`\nThat PDF as a report's evidence: wall time p50 (min–max) of the uploads, and their answers`);
  console.log(
    '| scrubbing              | alone              | answers    | beside 3 hostile clients | answers |',
  );
  console.log(
    '|------------------------|--------------------|------------|--------------------------|---------|',
  );
  for (const mode of modes) {
    console.log(
      `| ${mode.name.padEnd(22)} | ${spread(
        mode.heavyAlone.map((u) => u.ms),
        seconds,
      )} | ${tally(mode.heavyAlone.map((u) => u.status))} | ${spread(mode.hostileLatencies, seconds)} | ${JSON.stringify(mode.hostileStatuses)} |`,
    );
  }

  // Its scrub alone, and beside three more at once (a server where others upload too).
  const alone: ScrubCost[] = [];
  const beside: ScrubCost[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    alone.push(await scrubOnce(pdfPath, join(work, `alone-${round}.pdf`)));
    const together = await Promise.all(
      [0, 1, 2, 3].map((n) => scrubOnce(pdfPath, join(work, `beside-${round}-${n}.pdf`))),
    );
    beside.push(...together);
  }
  console.log(
    `\nIts scrub on a thread of its own (${ROUNDS} rounds; p50 (min–max)); the pool refuses a file past ` +
      `${seconds(DEFAULT_CPU_MS)} of its thread's CPU time`,
  );
  console.log('| scrub                 | CPU time of its thread | wall time | answers |');
  console.log('|-----------------------|-----------------------:|----------:|---------|');
  for (const [name, costs] of [
    ['alone', alone],
    ['beside 3 more at once', beside],
  ] as const) {
    console.log(
      `| ${name.padEnd(21)} | ${spread(
        costs.map((c) => c.cpuMs),
        seconds,
      )} | ${spread(
        costs.map((c) => c.wallMs),
        seconds,
      )} | ${tally(costs.map((c) => c.answer))} |`,
    );
  }
} finally {
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
