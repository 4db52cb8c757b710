/**
 * `pnpm exec node gateway/bench/list.ts`: the authenticated partner list, directly against legacy-sim
 * (in memory) vs through the gateway, on loopback, in one run. Bounded: N requests per target (default
 * 3000, BENCH_REQUESTS), concurrency C (default 16, BENCH_CONCURRENCY), at most 60 s per target.
 */
import { createLegacySim, demoAccounts } from '@wbs/legacy-sim';
import { Pool } from 'undici';
import { signIn } from '../../scripts/support/http.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 200;
const MAX_MS = 60_000;
const PAGE = 25;

type Upstream = {
  url: string;
  close(): Promise<void>;
  kind: string;
  admin: { username: string; password: string };
};

async function startUpstream(): Promise<Upstream> {
  // Type 1 (Administrator) manages partners.
  const admin = demoAccounts.find((a) => a.userTypeId === 1 && !a.initPassword);
  if (!admin) throw new Error('legacy-sim has no type-1 demo account');
  const sim = await createLegacySim({ dataDir: null, port: 0, testKnobs: false });
  return {
    url: sim.apiUrl,
    close: () => sim.close(),
    kind: 'legacy-sim',
    admin: { username: admin.username, password: admin.password },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(origin: string, path: string, headers: Record<string, string>) {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const once = async () => {
    const started = performance.now();
    const res = await pool.request({ method: 'GET', path, headers });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`${origin}${path} answered ${res.statusCode}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const latencies: number[] = [];
  let next = 0;
  const deadline = performance.now() + MAX_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS && performance.now() < deadline) {
        next++;
        latencies.push(await once());
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: Math.round((latencies.length / elapsed) * 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const upstream = await startUpstream();
const config = loadConfig({
  LEGACY_API_URL: upstream.url,
  SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghij',
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  STORE_DATA_DIR: 'memory://',
  JOBS_ENABLED: 'false',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
});
const { Writable } = await import('node:stream');
// Logging stays on (info, one line per request) but goes nowhere, so the terminal does not dominate.
const logStream = new Writable({ write: (_c, _e, done) => done() });
const gateway = await buildApp({ config, logStream });
const gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });

try {
  // Sign in through the gateway (password and second factor: a cookie) and directly (legacy bearer token).
  const cookie = await signIn(gatewayUrl, upstream.admin.username, upstream.admin.password, {
    publicUrl: config.publicUrl,
  });
  const direct = await fetch(`${upstream.url}/JwtAuth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: upstream.admin.username, password: upstream.admin.password }),
  });
  const data = ((await direct.json()) as { data: { token?: string } }).data;
  const token =
    data.token ?? Object.values(data as Record<string, { token?: string }>).find((v) => v?.token)?.token;
  if (!token) throw new Error('direct legacy sign-in failed');

  // A realistic page: make sure there are at least 25 partners.
  for (let i = 0; i < PAGE; i++) {
    const created = await fetch(`${gatewayUrl}/api/v1/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: gatewayUrl },
      body: JSON.stringify({
        name: `Partner Bench ${i}`,
        username: `bench${i}`,
        email: `bench${i}@wbs.test`,
        phone: '0211234',
        address: 'Jl. Bench',
        provinceId: 31,
        cityId: 3171,
      }),
    });
    if (created.status !== 201) throw new Error(`creating a bench partner failed: ${created.status}`);
  }

  const legacyUrl = new URL(upstream.url);
  const directResult = await run(
    legacyUrl.origin,
    `${legacyUrl.pathname}/PartnerMaster?draw=1&start=0&length=${PAGE}`,
    {
      authorization: `Bearer ${token}`,
    },
  );
  const gatewayResult = await run(gatewayUrl, `/api/v1/partners?page=1&pageSize=${PAGE}`, { cookie });

  const row = (name: string, r: typeof directResult) =>
    `| ${name.padEnd(22)} | ${String(r.requests).padStart(8)} | ${String(r.rps).padStart(7)} | ${r.p50.toFixed(2).padStart(8)} | ${r.p99.toFixed(2).padStart(8)} |`;
  console.log(
    `\nPartner list (${PAGE} rows), ${CONCURRENCY} concurrent, upstream: ${upstream.kind}, Node ${process.version}`,
  );
  console.log('| target                 | requests |   req/s | p50 (ms) | p99 (ms) |');
  console.log('|------------------------|---------:|--------:|---------:|---------:|');
  console.log(row('legacy direct', directResult));
  console.log(row('through the gateway', gatewayResult));
  console.log(
    `\nGateway overhead at p50: ${(gatewayResult.p50 - directResult.p50).toFixed(2)} ms; throughput ratio ${(gatewayResult.rps / directResult.rps).toFixed(2)}`,
  );
} finally {
  await gateway.close();
  await upstream.close();
}
