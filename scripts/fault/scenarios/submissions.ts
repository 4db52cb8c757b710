/**
 * 200 concurrent guest submissions with attachments; 20 sent twice at once and 20 sent again after
 * their answer, always with the same Idempotency-Key. The client behaves like the wizard: on a 429,
 * a 503 or a 409 "still running" it retries with the same key after Retry-After. At the legacy there
 * must be exactly one case per report.
 */
import { Agent } from 'undici';
import { call, percentile, type Reply, sleep } from '../../support/http.ts';
import { legacyCases } from '../../support/legacy-sim.ts';
import {
  guestReportFields,
  reportForm,
  tinyPdf,
  tinyPng,
  type UploadFile,
} from '../../support/report-form.ts';
import type { FaultContext } from '../context.ts';

const REPORTS = 200;
const MAX_ATTEMPTS = 30;

export type SubmitOutcome = { reply: Reply | null; attempts: number; error?: string };

/** Submits until a final answer, retrying like the wizard does (same key, honouring Retry-After). */
export async function submitWithRetry(
  send: () => Promise<Reply>,
  stats: { retries: number; statuses: Map<number | string, number> },
): Promise<SubmitOutcome> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let reply: Reply | null = null;
    try {
      reply = await send();
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'transport error';
      stats.statuses.set(code, (stats.statuses.get(code) ?? 0) + 1);
      if (attempt === MAX_ATTEMPTS) return { reply: null, attempts: attempt, error: code };
      stats.retries++;
      await sleep(500);
      continue;
    }
    stats.statuses.set(reply.status, (stats.statuses.get(reply.status) ?? 0) + 1);
    const retryable = reply.status === 429 || reply.status === 503 || reply.status === 409;
    if (!retryable || attempt === MAX_ATTEMPTS) return { reply, attempts: attempt };
    stats.retries++;
    const after = Number(reply.headers['retry-after'] ?? '1');
    await sleep(Math.min(Number.isFinite(after) && after > 0 ? after : 1, 5) * 1000);
  }
  return { reply: null, attempts: MAX_ATTEMPTS };
}

export async function concurrentSubmissions(ctx: FaultContext): Promise<void> {
  const { report } = ctx;
  const area = 'submissions';
  const agent = new Agent({ connections: 300, keepAliveTimeout: 10_000 });
  const stats = { retries: 0, statuses: new Map<number | string, number>() };
  const png = tinyPng();
  const marker = (i: number) => `[fault ${ctx.runId} report ${i}] Dugaan penerimaan hadiah dari rekanan.`;
  const password = (i: number) => `Uji-Beban#${ctx.runId}-${i}`;
  const sendReport = (i: number) => () => {
    const files: UploadFile[] = [
      { field: 'evidence', name: `bukti-${i}.png`, type: 'image/png', bytes: png },
    ];
    if (i % 4 === 0) {
      files.push({
        field: 'attachments',
        name: `lampiran-${i}.pdf`,
        type: 'application/pdf',
        bytes: tinyPdf(`L${i}`),
      });
    }
    return call(ctx.baseUrl, {
      path: '/api/v1/cases',
      form: reportForm(guestReportFields(marker(i), password(i), ctx.categoryId), files),
      headers: {
        'idempotency-key': `fault-${ctx.runId}-report-${i}`,
        accept: 'application/json',
        'x-forwarded-for': ctx.clientAddress(i),
      },
      dispatcher: agent,
      timeoutMs: 60_000,
    });
  };
  const latencies: number[] = [];
  const timed = async (i: number) => {
    const started = performance.now();
    const outcome = await submitWithRetry(sendReport(i), stats);
    latencies.push(performance.now() - started);
    return outcome;
  };

  const started = performance.now();
  const indexes = Array.from({ length: REPORTS }, (_, i) => i);
  const concurrentCopies = indexes.filter((i) => i % 10 === 0);
  const [firsts, copies] = await Promise.all([
    Promise.all(indexes.map(timed)),
    Promise.all(concurrentCopies.map(timed)),
  ]);
  const laterCopies = indexes.filter((i) => i % 10 === 5);
  const resent = await Promise.all(laterCopies.map(timed));
  const wallMs = performance.now() - started;

  const numberOf = (o: SubmitOutcome) =>
    o.reply?.status === 201
      ? ((JSON.parse(o.reply.text) as { caseNumber?: string }).caseNumber ?? null)
      : null;
  const numbers = firsts.map(numberOf);
  const answered = numbers.filter((n) => n !== null && /^WBS-\d{8}$/.test(n)).length;
  report.figure(
    'submissions sent (first + concurrent copies + later copies)',
    `${REPORTS} + ${copies.length} + ${resent.length}`,
  );
  report.figure('wall time', `${(wallMs / 1000).toFixed(1)} s`);
  report.figure(
    'latency per submission incl. retries (p50 / p95 / p99 / max)',
    `${[50, 95, 99, 100].map((p) => Math.round(percentile(latencies, p))).join(' / ')} ms`,
  );
  report.figure('client retries (429 / 503 / 409 / transport)', stats.retries);
  report.figure('statuses seen', [...stats.statuses].map(([s, n]) => `${s}×${n}`).join(' '));
  const failed = firsts
    .map((o, i) => [i, o] as const)
    .filter(([, o]) => o.reply?.status !== 201)
    .slice(0, 3)
    .map(([i, o]) => `#${i}: ${o.error ?? `${o.reply?.status} ${o.reply?.text.slice(0, 120)}`}`);
  report.check(
    area,
    `all ${REPORTS} reports answered 201 with a complaint number`,
    answered === REPORTS,
    `${answered}/${REPORTS} ${failed.join('; ')}`,
  );
  const copyMismatch = concurrentCopies.filter((i, k) => numberOf(copies[k]!) !== numbers[i]).length;
  report.check(
    area,
    'concurrent copies with the same key got the same number',
    copyMismatch === 0,
    `${copyMismatch} of ${concurrentCopies.length} differ`,
  );
  const resentMismatch = laterCopies.filter((i, k) => numberOf(resent[k]!) !== numbers[i]).length;
  report.check(
    area,
    'later copies with the same key got the same number',
    resentMismatch === 0,
    `${resentMismatch} of ${laterCopies.length} differ`,
  );

  const stored = (await legacyCases(ctx.simDataDir)).filter((c) =>
    c.caseWhat.includes(`[fault ${ctx.runId} report `),
  );
  const perReport = new Map<string, number>();
  for (const c of stored) {
    const id = /report (\d+)\]/.exec(c.caseWhat)?.[1] ?? '?';
    perReport.set(id, (perReport.get(id) ?? 0) + 1);
  }
  const duplicates = [...perReport.values()].filter((n) => n > 1).reduce((sum, n) => sum + n - 1, 0);
  const lost = REPORTS - perReport.size;
  report.figure('reports at the legacy / duplicates / lost', `${stored.length} / ${duplicates} / ${lost}`);
  report.check(
    area,
    `exactly ${REPORTS} reports at the legacy`,
    stored.length === REPORTS,
    `${stored.length}`,
  );
  report.check(area, '0 duplicates at the legacy', duplicates === 0, `${duplicates}`);
  report.check(area, '0 reports lost', lost === 0, `${lost}`);
  const numberMatches = stored.filter((c) => {
    const i = Number(/report (\d+)\]/.exec(c.caseWhat)?.[1]);
    return numbers[i] === c.caseNumber;
  }).length;
  report.check(
    area,
    'each answered number is the stored case of that report',
    numberMatches === REPORTS,
    `${numberMatches}/${REPORTS}`,
  );

  firsts.forEach((o, i) => {
    const number = numberOf(o);
    if (number) ctx.filed.push({ number, password: password(i) });
  });
  await agent.close();
}
