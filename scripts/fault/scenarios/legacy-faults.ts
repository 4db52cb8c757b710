/**
 * The legacy goes down, slow, answers HTTP 500, answers malformed JSON, each in the middle of a steady
 * load: the gateway answers 503 / 504 / 502 / 502 within bounds (never hangs, never 500), and after
 * each fault every request succeeds again.
 */
import { Agent } from 'undici';
import { wibToday } from '../../../shared/src/handling-clock.ts';
import { call, percentile, signIn, sleep } from '../../support/http.ts';
import { setKnobs } from '../../support/legacy-sim.ts';
import type { FaultContext } from '../context.ts';
import { Load } from '../load.ts';

/** The legacy timeout of the gateway during this scenario. */
export const SUITE_LEGACY_TIMEOUT_MS = 2000;

type Phase = {
  name: string;
  knobs: Record<string, unknown>;
  expect: number;
  boundMs: number;
  lengthMs: number;
};

export async function legacyFaults(ctx: FaultContext): Promise<void> {
  const { report } = ctx;
  const area = 'legacy-faults';
  // A short legacy timeout keeps the slow phase short; the other scenarios keep the default 10 s.
  await ctx.system.stopGateway('SIGTERM');
  // Reference lists are cached briefly (docs/adr/0027-reference-list-cache.md); without the cache
  // every request of this load reaches the legacy, which is what this scenario is about.
  await ctx.system.restartGateway({
    LEGACY_TIMEOUT_MS: String(SUITE_LEGACY_TIMEOUT_MS),
    REFERENCE_CACHE_SECONDS: '0',
  });
  const cookie = await signIn(ctx.baseUrl, 'admin.kahuripan', 'Perusahaan#2026!', {
    publicUrl: ctx.system.url,
  });
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  const today = wibToday();
  const load = new Load(6, (worker) =>
    worker % 2 === 0
      ? {
          label: 'GET /channels',
          run: async () => (await call(ctx.baseUrl, { path: '/api/v1/channels', dispatcher: agent })).status,
        }
      : {
          label: 'POST /cases/search',
          run: async () =>
            (
              await call(ctx.baseUrl, {
                path: '/api/v1/cases/search',
                json: { from: `${today.slice(0, 8)}01`, to: today, page: 1, pageSize: 10 },
                cookie,
                dispatcher: agent,
              })
            ).status,
        },
  );
  const healthy = (name: string): Phase => ({ name, knobs: {}, expect: 200, boundMs: 1500, lengthMs: 1500 });
  const phases: Phase[] = [
    healthy('before'),
    { name: 'legacy down', knobs: { down: true }, expect: 503, boundMs: 1000, lengthMs: 2000 },
    healthy('recovered from down'),
    {
      name: 'legacy slow',
      knobs: { latencyMs: SUITE_LEGACY_TIMEOUT_MS + 3000 },
      expect: 504,
      boundMs: SUITE_LEGACY_TIMEOUT_MS + 1000,
      lengthMs: SUITE_LEGACY_TIMEOUT_MS * 2 + 500,
    },
    // Requests already waiting on the slow legacy end first (up to the timeout).
    { ...healthy('recovered from slow'), lengthMs: SUITE_LEGACY_TIMEOUT_MS + 1500 },
    { name: 'legacy HTTP 500', knobs: { failWith500: true }, expect: 502, boundMs: 1000, lengthMs: 2000 },
    healthy('recovered from 500'),
    { name: 'legacy malformed', knobs: { malformed: true }, expect: 502, boundMs: 1000, lengthMs: 2000 },
    healthy('recovered from malformed'),
  ];
  // A request that started just before a switch belongs to neither phase.
  const settleMs = 100;
  for (const phase of phases) {
    await setKnobs(ctx.simUrl, phase.knobs);
    const from = performance.now() + settleMs;
    await sleep(phase.lengthMs);
    const samples = load.between(from, performance.now());
    const wrong = samples.filter((s) => s.status !== phase.expect);
    const durations = samples.map((s) => s.endedAt - s.startedAt);
    const p99 = Math.round(percentile(durations, 99));
    const max = Math.round(Math.max(0, ...durations));
    report.figure(`${phase.name}: requests / p99 / max`, `${samples.length} / ${p99} ms / ${max} ms`);
    report.check(
      area,
      `${phase.name}: every request answered ${phase.expect}`,
      samples.length > 0 && wrong.length === 0,
      `${samples.length - wrong.length}/${samples.length}${wrong[0] ? `, e.g. ${wrong[0].label} → ${wrong[0].status}` : ''}`,
    );
    report.check(
      area,
      `${phase.name}: answered within ${phase.boundMs} ms`,
      max <= phase.boundMs,
      `max ${max} ms`,
    );
  }
  await load.stop();
  await setKnobs(ctx.simUrl, {});
  await agent.close();
  await ctx.system.stopGateway('SIGTERM');
  await ctx.system.restartGateway();
}
