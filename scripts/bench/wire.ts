/**
 * `pnpm bench wire`: bytes over the wire and Lighthouse mobile performance of the public pages
 * (`/`, `/case/create`, the tracking page `/admin/checkcase`), against the real system (legacy-sim +
 * gateway serving the built web app) on free loopback ports.
 *
 * Bytes: a real Chromium (playwright-core + Debian's /usr/bin/chromium), cache off, one fresh context
 * per page load; the sum of CDP `Network.loadingFinished.encodedDataLength` (headers and body as
 * received) of every response until the network is idle, by resource type. Each page is loaded twice
 * in the same run: with `Accept-Encoding: identity` (what every browser received before compression
 * was served) and with the browser's own `Accept-Encoding` (brotli).
 *
 * Lighthouse 12.8 (mobile preset: simulated slow 4G and a 4× slower CPU), performance category only,
 * the three pages one after the other in one run (scores on this shared 2-core machine vary by about
 * ±10 points between runs; compare pages within one run). Skipped with a note when Lighthouse or
 * Chromium is missing. `WIRE_LIGHTHOUSE=0` skips it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from '../support/browser.ts';
import { freePort, startSystem } from '../system.ts';

const root = join(import.meta.dirname, '..', '..');
const PAGES = [
  { name: 'landing', path: '/' },
  { name: 'report wizard', path: '/case/create' },
  { name: 'tracking', path: '/admin/checkcase' },
];
const LIGHTHOUSE = join(root, 'node_modules', '.bin', 'lighthouse');

type Load = { total: number; byType: Map<string, number>; encodings: Set<string>; requests: number };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function measure(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  url: string,
  identity: boolean,
): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  const types = new Map<string, string>();
  const load: Load = { total: 0, byType: new Map(), encodings: new Set(), requests: 0 };
  cdp.on('Network.responseReceived', (event) => {
    types.set(event.requestId, event.type);
    const encoding = Object.entries(event.response.headers).find(
      ([k]) => k.toLowerCase() === 'content-encoding',
    );
    load.encodings.add(encoding ? String(encoding[1]) : 'none');
  });
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId) ?? 'Other';
    load.total += event.encodedDataLength;
    load.requests += 1;
    load.byType.set(type, (load.byType.get(type) ?? 0) + event.encodedDataLength);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // Lazy chunks and fonts asked for after the first render: let them arrive too.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  await context.close();
  return load;
}

type Lighthouse = { score: number; metrics: Record<string, string>; blocking: string[]; bytes: number };

/** Lighthouse, with one more try after a runtime error (e.g. NO_NAVSTART on a busy machine). */
async function lighthouseWithRetry(url: string): Promise<Lighthouse | string> {
  let reason = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await lighthouse(url);
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      reason =
        stderr.match(/Runtime error encountered: (.*)/)?.[1] ?? (error as Error).message.split('\n')[0] ?? '';
    }
  }
  return reason;
}

async function lighthouse(url: string): Promise<Lighthouse> {
  const flags = ['--headless=new', ...CHROMIUM_ARGS].join(' ');
  const { stdout } = await promisify(execFile)(
    LIGHTHOUSE,
    [
      url,
      '--quiet',
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      `--chrome-flags=${flags}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
  );
  const lhr = JSON.parse(stdout) as {
    categories: { performance: { score: number } };
    audits: Record<
      string,
      { displayValue?: string; numericValue?: number; details?: { items?: { url?: string }[] } }
    >;
  };
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '-';
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    metrics: {
      FCP: metric('first-contentful-paint'),
      LCP: metric('largest-contentful-paint'),
      TBT: metric('total-blocking-time'),
      CLS: metric('cumulative-layout-shift'),
      SI: metric('speed-index'),
    },
    blocking: (lhr.audits['render-blocking-resources']?.details?.items ?? []).map((i) => i.url ?? '?'),
    bytes: lhr.audits['total-byte-weight']?.numericValue ?? 0,
  };
}

if (!existsSync(join(root, 'web', 'dist', 'index.html'))) {
  console.error('web/dist is missing: run `pnpm --filter @wbs/web build` first (pnpm bench does).');
  process.exit(1);
}
if (!existsSync(CHROMIUM_PATH)) {
  console.log(`skipped: ${CHROMIUM_PATH} is missing (apt-get install chromium)`);
  process.exit(0);
}

const workDir = mkdtempSync(join(tmpdir(), 'wbs-bench-wire-'));
const system = await startSystem({
  gatewayPort: await freePort(),
  simPort: await freePort(),
  simDataDir: join(workDir, 'legacy-sim'),
  simJwtSecret: 'bench-wire-jwt-secret-0123456789-abcdefghijkl',
  sessionSecret: 'bench-wire-session-secret-0123456789-abcdefgh',
  sessionEncryptionKey: Buffer.alloc(32, 3).toString('base64'),
  webDistDir: join(root, 'web', 'dist'),
  gatewayEnv: { LOG_LEVEL: 'warn', STORE_DATA_DIR: 'memory://' },
  stdio: 'ignore',
});
const base = system.url.replace('localhost', '127.0.0.1');
try {
  const browser = await launchChromium();
  console.log('Bytes over the wire (headers + bodies as received, cache off), identity → brotli:');
  for (const { name, path } of PAGES) {
    const before = await measure(browser, `${base}${path}`, true);
    const after = await measure(browser, `${base}${path}`, false);
    const types = [...new Set([...before.byType.keys(), ...after.byType.keys()])]
      .map((type) => `${type} ${kb(before.byType.get(type) ?? 0)} → ${kb(after.byType.get(type) ?? 0)}`)
      .join('; ');
    console.log(
      `  ${path.padEnd(18)} ${kb(before.total).padStart(9)} → ${kb(after.total).padStart(9)}  ` +
        `(${(before.total / after.total).toFixed(1)}× less, ${after.requests} responses, ` +
        `encodings ${[...after.encodings].join('/')})\n      ${types}`,
    );
    console.log(`      figure wire ${name}: identity=${before.total} compressed=${after.total} bytes`);
  }
  await browser.close();

  if (process.env.WIRE_LIGHTHOUSE === '0') console.log('Lighthouse: skipped (WIRE_LIGHTHOUSE=0)');
  else if (!existsSync(LIGHTHOUSE)) console.log('Lighthouse: skipped (not installed)');
  else {
    console.log('Lighthouse 12.8 mobile, performance (one run, pages in sequence):');
    for (const { name, path } of PAGES) {
      const result = await lighthouseWithRetry(`${base}${path}`);
      if (typeof result === 'string') {
        console.log(`  ${path.padEnd(18)} no score: ${result}`);
        continue;
      }
      const metrics = Object.entries(result.metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      console.log(
        `  ${path.padEnd(18)} score ${String(result.score).padStart(3)}  (${metrics}; ${kb(result.bytes)})`,
      );
      if (result.blocking.length > 0) console.log(`      render-blocking: ${result.blocking.join(', ')}`);
      console.log(`      figure lighthouse ${name}: ${result.score}`);
    }
  }
} finally {
  await system.stop();
  rmSync(workDir, { recursive: true, force: true });
}
