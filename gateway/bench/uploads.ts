/**
 * `pnpm exec node gateway/bench/uploads.ts`: memory and time of the upload pipeline under load.
 * legacy-sim runs in this process (files persisted to a temporary data dir, not held in memory);
 * the gateway runs as a child process (`node gateway/src/server.ts`), so its peak RSS (VmHWM from
 * /proc/<pid>/status) is the gateway's alone. Load: BENCH_UPLOADS (default 20) concurrent guest
 * submissions, each with 5 files of ~10 MB (valid PDFs with a 10 MB embedded stream, so pdf-lib
 * really parses and rewrites them). Bounded: one round, 10 minutes at most. Every temporary file
 * and folder it makes is removed at the end; leftover gateway spools are counted and reported.
 * The gateway's store is a PostgreSQL database of its own (as in production; never .data/store).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacySim } from '@wbs/legacy-sim';
import { PDFDocument } from 'pdf-lib';
import { FormData, request } from 'undici';
import { createTestDatabase } from '../src/test/databases.ts';
import { BENCH_GUEST_FIELDS, procStatus, startGateway } from './gateway-process.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const FILES_PER_UPLOAD = 5;
const PAYLOAD_BYTES = 10_000_000;
const MAX_MS = 10 * 60_000;

async function largePdf(path: string): Promise<number> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Bench', { x: 20, y: 100 });
  doc.setAuthor('Bench Author');
  await doc.attach(randomBytes(PAYLOAD_BYTES), 'data.bin', { mimeType: 'application/octet-stream' });
  const bytes = await doc.save();
  await writeFile(path, bytes);
  return bytes.length;
}

async function submit(url: string, pdfPath: string, n: number): Promise<{ ms: number; status: number }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(BENCH_GUEST_FIELDS)) form.append(name, value);
  for (let i = 0; i < FILES_PER_UPLOAD; i++) {
    const field = i === 0 ? 'evidence' : 'attachments';
    form.append(field, await openAsBlob(pdfPath, { type: 'application/pdf' }), `bukti-${n}-${i}.pdf`);
  }
  const started = performance.now();
  const res = await request(`${url}/api/v1/cases`, {
    method: 'POST',
    body: form,
    headersTimeout: MAX_MS,
    bodyTimeout: MAX_MS,
  });
  await res.body.dump();
  return { ms: performance.now() - started, status: res.statusCode };
}

async function spoolDirs(): Promise<Set<string>> {
  return new Set((await readdir(tmpdir())).filter((name) => name.startsWith('wbs-upload-')));
}

const work = await mkdtemp(join(tmpdir(), 'wbs-bench-'));
const sim = await createLegacySim({ dataDir: join(work, 'legacy'), port: 0 });
const database = await createTestDatabase();
let gateway: ChildProcess | null = null;
try {
  const spoolsBefore = await spoolDirs();
  const pdfPath = join(work, 'payload.pdf');
  const fileBytes = await largePdf(pdfPath);
  // Twenty reports from one address: neither the flood limit (10 per client) nor one client's share of
  // the upload slots (6) is what is measured here.
  const running = await startGateway(sim.apiUrl, {
    DATABASE_URL: database.url,
    STORE_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    CASE_SUBMISSIONS_MAX_PER_CLIENT: '1000',
    CASE_SUBMISSIONS_MAX_GLOBAL: '100000',
    UPLOAD_MAX_SPOOLS_PER_CLIENT: '1000',
  });
  gateway = running.child;
  const { url } = running;
  const pid = gateway.pid as number;
  const idle = await procStatus(pid);

  let peakSampled = idle.rssMb;
  const sampler = setInterval(() => {
    procStatus(pid)
      .then((s) => {
        peakSampled = Math.max(peakSampled, s.rssMb);
      })
      .catch(() => undefined);
  }, 50);
  const started = performance.now();
  const timeout = setTimeout(() => {
    console.error('bench: time limit reached');
    process.exit(2);
  }, MAX_MS);
  const results = await Promise.all(Array.from({ length: UPLOADS }, (_, n) => submit(url, pdfPath, n)));
  const totalMs = performance.now() - started;
  clearTimeout(timeout);
  clearInterval(sampler);
  const end = await procStatus(pid);
  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = results.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});
  const megabytes = (UPLOADS * FILES_PER_UPLOAD * fileBytes) / 1024 / 1024;
  const leftover = [...(await spoolDirs())].filter((name) => !spoolsBefore.has(name));

  const rows: [string, string][] = [
    [
      'uploads (concurrent)',
      `${UPLOADS} × ${FILES_PER_UPLOAD} files × ${(fileBytes / 1024 / 1024).toFixed(2)} MB`,
    ],
    ['data sent', `${megabytes.toFixed(0)} MB`],
    ['replies', JSON.stringify(statuses)],
    ['total time', `${(totalMs / 1000).toFixed(1)} s (${(megabytes / (totalMs / 1000)).toFixed(1)} MB/s)`],
    [
      'latency min / p50 / max',
      [latencies[0], latencies[Math.floor(latencies.length / 2)], latencies.at(-1)]
        .map((ms) => `${((ms ?? 0) / 1000).toFixed(1)} s`)
        .join(' / '),
    ],
    ['gateway RSS idle', `${idle.rssMb.toFixed(0)} MB`],
    ['gateway RSS peak (sampled 50 ms)', `${peakSampled.toFixed(0)} MB`],
    ['gateway VmHWM (kernel peak)', `${end.hwmMb.toFixed(0)} MB`],
    ['gateway RSS after', `${end.rssMb.toFixed(0)} MB`],
    ['spool folders left behind', String(leftover.length)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
} finally {
  gateway?.kill('SIGTERM');
  await sim.close();
  // The gateway needs a moment to let go of its connections before its database is dropped.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await database.drop().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
