/**
 * Redis dies in the middle of a load of tracking look-ups and guest submissions (both keep their
 * state there: attempt counters, idempotency keys): the gateway falls back to its memory and no
 * request fails; when Redis is back the gateway writes to it again.
 */
import { Agent } from 'undici';
import { call, sleep } from '../../support/http.ts';
import { guestReportFields, reportForm, tinyPng } from '../../support/report-form.ts';
import type { FaultContext } from '../context.ts';
import { Load } from '../load.ts';

export async function redisDown(ctx: FaultContext): Promise<void> {
  const { report, redis } = ctx;
  const area = 'redis-down';
  if (ctx.filed.length === 0) throw new Error('no filed case to track (the submissions scenario filed none)');
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  const png = tinyPng();
  const unexpected: string[] = [];
  let tracked = 0;
  let submitted = 0;
  const load = new Load(6, (worker, round) => {
    if (worker < 4) {
      const target = ctx.filed[tracked++ % ctx.filed.length];
      if (!target) throw new Error('no filed case to track');
      return {
        label: 'POST /tracking',
        run: async () => {
          const reply = await call(ctx.baseUrl, {
            path: '/api/v1/tracking',
            json: { caseNumber: target.number, password: target.password },
            headers: { 'x-forwarded-for': ctx.clientAddress(1000 + tracked) },
            dispatcher: agent,
          });
          if (reply.status !== 200) unexpected.push(`tracking ${reply.status} ${reply.text.slice(0, 160)}`);
          return reply.status;
        },
      };
    }
    const i = submitted++;
    return {
      label: 'POST /cases',
      run: async () => {
        await sleep(150 * (round % 2));
        const reply = await call(ctx.baseUrl, {
          path: '/api/v1/cases',
          form: reportForm(
            guestReportFields(
              `[fault ${ctx.runId} redis ${i}] Laporan saat Redis mati.`,
              `Uji-Redis#${i}-x`,
              ctx.categoryId,
            ),
            [{ field: 'evidence', name: 'bukti.png', type: 'image/png', bytes: png }],
          ),
          headers: {
            'idempotency-key': `fault-${ctx.runId}-redis-${i}`,
            'x-forwarded-for': ctx.clientAddress(5000 + i),
          },
          dispatcher: agent,
          timeoutMs: 30_000,
        });
        if (reply.status !== 201) unexpected.push(`submission ${reply.status} ${reply.text.slice(0, 160)}`);
        return reply.status;
      },
    };
  });
  const expected = (label: string) => (label === 'POST /cases' ? 201 : 200);
  const phase = async (name: string, ms: number) => {
    const from = performance.now();
    await sleep(ms);
    const samples = load.between(from, performance.now());
    const failed = samples.filter((s) => s.status !== expected(s.label));
    report.figure(
      `${name}: requests (tracking / submissions) / failed`,
      `${samples.filter((s) => s.label === 'POST /tracking').length} / ${samples.filter((s) => s.label === 'POST /cases').length} / ${failed.length}`,
    );
    return { samples, failed };
  };

  const before = await phase('Redis up', 3000);
  const keysBefore = redis.keyCount('wbs:gw:');
  report.check(
    area,
    'the gateway keeps its state in Redis while it is up',
    keysBefore > 0,
    `${keysBefore} keys`,
  );
  await redis.kill();
  report.figure('Redis stopped', `${redis.kind} killed`);
  const during = await phase('Redis down', 4000);
  await redis.start();
  // ioredis reconnects with a back-off of up to 2 s.
  const after = await phase('Redis back', 3500);
  await load.stop();
  const failures = [...before.failed, ...during.failed, ...after.failed];
  report.check(
    area,
    'no failed request while Redis was down',
    during.samples.length > 0 && during.failed.length === 0,
    `${during.failed.length} of ${during.samples.length}${during.failed[0] ? `, e.g. ${during.failed[0].label} → ${during.failed[0].status}` : ''}`,
  );
  report.check(
    area,
    'no failed request before and after',
    failures.length === during.failed.length,
    `${failures.length - during.failed.length}`,
  );
  if (unexpected[0]) report.figure('first unexpected reply', unexpected[0]);
  const keysAfter = redis.keyCount('wbs:gw:');
  report.check(area, 'the gateway writes to Redis again once it is back', keysAfter > 0, `${keysAfter} keys`);
  await agent.close();
}
