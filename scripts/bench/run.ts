/**
 * `pnpm bench`: every benchmark of the project, one after the other (never in parallel: they measure
 * time and memory on a 2-core machine), each in its own process so one's heap does not colour the
 * next. Figures are printed; the web budget also fails the run when it is exceeded.
 *
 *   pnpm bench            all of them
 *   pnpm bench list web   only the named ones
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

type Bench = { name: string; what: string; run: () => void };

const node = (script: string) => () => {
  execFileSync(process.execPath, [join(root, script)], { cwd: root, stdio: 'inherit' });
};

const BENCHES: Bench[] = [
  {
    name: 'web',
    what: 'initial JavaScript of the public pages (budget 150 KB gzip)',
    run: () => {
      execFileSync('pnpm', ['--filter', '@wbs/web', 'build'], { cwd: root, stdio: 'ignore' });
      node('web/scripts/bundle-size.ts')();
    },
  },
  {
    name: 'wire',
    what: 'bytes over the wire (identity vs compressed) and Lighthouse mobile of /, /case/create, tracking',
    run: () => {
      execFileSync('pnpm', ['--filter', '@wbs/web', 'build'], { cwd: root, stdio: 'ignore' });
      node('scripts/bench/wire.ts')();
    },
  },
  {
    name: 'floor',
    what: 'hot paths: replay upstream, reply-from passthrough, gateway 1 process and all workers (wrk, ratios)',
    run: node('gateway/bench/floor.ts'),
  },
  {
    name: 'list',
    what: 'gateway added latency and throughput on an authenticated list vs legacy-sim directly',
    run: node('gateway/bench/list.ts'),
  },
  {
    name: 'hostile',
    what: 'case list p99 while three hostile PDF uploads are scrubbed: main thread vs worker pool',
    run: node('gateway/bench/hostile-uploads.ts'),
  },
  {
    name: 'uploads',
    what: 'gateway memory while 20 reports with 5 × 10 MB attachments upload at once',
    run: node('gateway/bench/uploads.ts'),
  },
  {
    name: 'weaklink',
    what: 'a report with 5 × 10 MB through the web app on a weak link (1 Mbit/s, 300 ms, cut 5 s every 30 s): single request vs resumable',
    run: () => {
      execFileSync('pnpm', ['--filter', '@wbs/web', 'build'], { cwd: root, stdio: 'ignore' });
      node('scripts/bench/weaklink.ts')();
    },
  },
  {
    name: 'retention',
    what: 'the retention scan over 20,000 final cases per company: the backlog and the idle nightly run, vs bare deletes',
    run: node('gateway/bench/retention.ts'),
  },
  {
    name: 'export',
    what: 'time and memory of the export presenter rewriting a 10,000-row legacy workbook',
    run: node('gateway/bench/export.ts'),
  },
  {
    name: 'watcher',
    what: "the case-index watcher's legacy calls and time per poll and its freshness, at 200 and 10,000 reports",
    run: node('gateway/bench/watcher.ts'),
  },
  {
    name: 'scale',
    what: 'every staff screen call, audit:verify and a watcher poll on ten years of data (pnpm seed:scale) vs the demo data',
    run: node('gateway/bench/scale.ts'),
  },
  {
    name: 'notices',
    what: "delivery latency of 1,000 case events to handlers' mailboxes (p50/p95) vs one direct SMTP send each",
    run: node('gateway/bench/notices.ts'),
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}

let failed = 0;
for (const bench of BENCHES) {
  if (wanted.length > 0 && !wanted.includes(bench.name)) continue;
  console.log(`\n=== ${bench.name}: ${bench.what}`);
  try {
    bench.run();
  } catch (error) {
    failed += 1;
    const status = (error as { status?: number }).status;
    console.error(`--- ${bench.name} failed${status === undefined ? '' : ` (exit ${status})`}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
