/**
 * SIGTERM with 50 requests in flight on 50 keep-alive connections: every request completes (200),
 * the gateway exits 0 well within its 10 s drain limit. The legacy is made slow so the requests are
 * really in flight when the signal arrives.
 */
import { Agent } from 'undici';
import { wibToday } from '../../../shared/src/handling-clock.ts';
import { call, type Reply, signIn, sleep } from '../../support/http.ts';
import { setKnobs } from '../../support/legacy-sim.ts';
import type { FaultContext } from '../context.ts';

const IN_FLIGHT = 50;
const LEGACY_LATENCY_MS = 1500;

export async function sigtermDrain(ctx: FaultContext): Promise<void> {
  const { report, system } = ctx;
  const area = 'sigterm';
  const cookie = await signIn(ctx.baseUrl, 'admin.kahuripan', 'Perusahaan#2026!', {
    publicUrl: ctx.system.url,
  });
  const agent = new Agent({ connections: IN_FLIGHT, pipelining: 1, keepAliveTimeout: 60_000 });
  const today = wibToday();
  const monthStart = `${today.slice(0, 8)}01`;
  const requestFor = (i: number) => {
    if (i % 3 === 0) return call(ctx.baseUrl, { path: '/api/v1/channels', dispatcher: agent });
    if (i % 3 === 1) return call(ctx.baseUrl, { path: '/api/v1/regions/provinces', dispatcher: agent });
    return call(ctx.baseUrl, {
      path: '/api/v1/cases/search',
      json: { from: monthStart, to: today, page: 1, pageSize: 10 },
      cookie,
      dispatcher: agent,
    });
  };
  // Open the 50 keep-alive connections first.
  const warm = await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => requestFor(i)));
  report.check(
    area,
    'warm-up on 50 keep-alive connections',
    warm.every((r) => r.status === 200),
  );

  await setKnobs(ctx.simUrl, { latencyMs: LEGACY_LATENCY_MS });
  const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) =>
    requestFor(i).then(
      (reply): Reply | string => reply,
      (error: { code?: string }) => error.code ?? 'transport error',
    ),
  );
  await sleep(400);
  const signalled = performance.now();
  const exit = await system.stopGateway('SIGTERM');
  const drainMs = performance.now() - signalled;
  const replies = await Promise.all(inFlight);
  await setKnobs(ctx.simUrl, {});

  const completed = replies.filter((r) => typeof r !== 'string' && r.status === 200).length;
  const others = replies
    .filter((r) => typeof r === 'string' || r.status !== 200)
    .map((r) => (typeof r === 'string' ? r : r.status));
  report.figure('requests in flight at SIGTERM / completed 200', `${IN_FLIGHT} / ${completed}`);
  report.figure('SIGTERM → exit', `${Math.round(drainMs)} ms (legacy latency ${LEGACY_LATENCY_MS} ms)`);
  report.check(
    area,
    'every in-flight request completed with 200',
    completed === IN_FLIGHT,
    others.slice(0, 5).join(' '),
  );
  report.check(
    area,
    'gateway exit code 0',
    exit.code === 0 && exit.signal === null,
    `code ${exit.code} signal ${exit.signal}`,
  );
  report.check(area, 'drained well within the 10 s limit', drainMs < 5_000, `${Math.round(drainMs)} ms`);
  await agent.close();

  await system.restartGateway();
  const after = await call(ctx.baseUrl, { path: '/api/v1/channels' });
  report.check(area, 'gateway serves again after restart', after.status === 200);
}
