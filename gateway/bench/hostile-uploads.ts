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
 * POST /cases/search (the case list's endpoint: filters travel in the body).
 */

import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacySim, demoAccounts } from '@wbs/legacy-sim';
import { wibToday } from '@wbs/shared/handling-clock';
import { FormData, Pool, request } from 'undici';
import { signIn as signInThroughGateway } from '../../scripts/support/http.ts';
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

/**
 * `clients` clients uploading `pdfPath` again and again until `stop()`: their reply codes and
 * latencies (ms, sorted at stop).
 */
function uploadLoop(url: string, pdfPath: string, clients: number) {
  let running = true;
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const loops = Array.from({ length: clients }, async (_, n) => {
    while (running) {
      const started = performance.now();
      const form = new FormData();
      for (const [name, value] of Object.entries(BENCH_GUEST_FIELDS)) form.append(name, value);
      form.append('evidence', await openAsBlob(pdfPath, { type: 'application/pdf' }), `bukti-${n}.pdf`);
      const res = await request(`${url}/api/v1/cases`, {
        method: 'POST',
        body: form,
        headers: { origin: url },
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      });
      await res.body.dump();
      latencies.push(performance.now() - started);
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
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

const work = await mkdtemp(join(tmpdir(), 'wbs-bench-hostile-'));
const sim = await createLegacySim({ dataDir: null, port: 0, testKnobs: false });
try {
  const pdfPath = join(work, 'berat.pdf');
  const pdf = await manyObjectsPdf(OBJECTS);
  await writeFile(pdfPath, pdf);
  const normalPath = join(work, 'biasa.pdf');
  await writeFile(normalPath, await manyObjectsPdf(200));
  const modes = [
    { name: 'main thread (before)', env: { SCRUB_THREADS: '0' } },
    { name: 'worker pool, 1 thread', env: { SCRUB_THREADS: '1' } },
    { name: 'worker pool, 2 threads', env: { SCRUB_THREADS: '2' } },
  ].map((mode) => ({
    ...mode,
    alone: [] as number[],
    loaded: [] as number[],
    normal: [] as number[],
    normalStatuses: {} as Record<number, number>,
    hostileStatuses: {} as Record<number, number>,
    peakRssMb: 0,
  }));
  const merge = (into: Record<number, number>, from: Record<number, number>) => {
    for (const [status, count] of Object.entries(from))
      into[Number(status)] = (into[Number(status)] ?? 0) + count;
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
        merge(mode.normalStatuses, normal.statuses);
        merge(mode.hostileStatuses, hostile.statuses);
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
} finally {
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
