import { Writable } from 'node:stream';
import { createLegacySim } from '@wbs/legacy-sim';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { handlerNoticeMail } from '../src/mail/compose.ts';
import { recordCaseEvent } from '../src/notifications/notifier.ts';
import { eq, inArray } from '../src/store/drizzle.ts';
import { notice } from '../src/store/schema.ts';
import { benchStore } from './store-env.ts';

const EVENTS = Number(process.env.BENCH_NOTICE_EVENTS ?? 1_000);
const BURST = 50;
const BURST_GAP_MS = 250;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** An SMTP server that keeps when each mail arrived, by Message-ID. */
async function startSmtp() {
  const arrivals: { messageId: string; at: number }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? '';
        arrivals.push({ messageId, at: performance.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const legacy = await createLegacySim({});
const smtp = await startSmtp();
const store = await benchStore('notices');
const config = loadConfig({
  LEGACY_API_URL: legacy.apiUrl,
  SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghij',
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  LOG_LEVEL: 'warn',
  JOBS_ENABLED: 'true',
  // The watcher has nothing to do here: one poll a minute at most.
  WATCH_INTERVAL_SECONDS: '3600',
  // What is measured is how soon a notice's mail goes: no window holds the ones after the first.
  NOTICE_MAIL_WINDOW_SECONDS: '0',
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  LEGACY_SERVICE_USERNAME: 'admin',
  LEGACY_SERVICE_PASSWORD: 'Admin#2026!',
  METRICS_PORT: '0',
  ...store.env,
});
const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
await app.ready();

try {
  const opened = await app.store.open();
  // Two cases of company 1 (their binding only has to be one the notifier can carry).
  const cases = [
    { caseCompanyId: 1, caseId: 1, caseNumber: 'WBS-10000001', caseCreated: '2026-01-05T09:00:00' },
    { caseCompanyId: 1, caseId: 2, caseNumber: 'WBS-10000002', caseCreated: '2026-01-06T09:00:00' },
  ].map((c) => opened.cases.bind(c));

  // Reference: one direct send per event, through the same transport, to the same server.
  const reference: number[] = [];
  for (let i = 0; i < Math.min(EVENTS, 200); i++) {
    const started = performance.now();
    await app.mailer.send(
      handlerNoticeMail({
        to: 'ref@bench.example.id',
        messageId: `<ref.${i}@bench.example.id>`,
        kind: 'reporter-message',
        companyName: 'PDAM Bench',
        count: 1,
        signInUrl: 'https://wbs.example.co.id/auth/login',
      }),
    );
    reference.push(performance.now() - started);
  }

  const recordedAt = new Map<number, number>();
  const started = performance.now();
  for (let sent = 0; sent < EVENTS; sent += BURST) {
    const burstStart = performance.now();
    for (let i = sent; i < Math.min(EVENTS, sent + BURST); i++) {
      const ref = cases[i % cases.length]!;
      const at = performance.now();
      const id = await recordCaseEvent(opened, {
        kind: 'reporter-message',
        companyId: ref.companyId,
        caseId: ref.caseId,
        caseBinding: ref.binding,
        lineId: null,
      });
      recordedAt.set(id, at);
    }
    app.notices.deliverSoon();
    const wait = BURST_GAP_MS - (performance.now() - burstStart);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  // Until every notice of these events is mailed (or 5 minutes).
  const ids = [...recordedAt.keys()];
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const waiting = await opened.db
      .select({ id: notice.id })
      .from(notice)
      .where(eq(notice.mail, 'immediate'))
      .limit(1);
    const made = await opened.db
      .select({ dedupe: notice.dedupe })
      .from(notice)
      .where(
        inArray(
          notice.dedupe,
          ids.map((id) => `event:${id}`),
        ),
      )
      .limit(1);
    if ((waiting.length === 0 && made.length > 0) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const total = performance.now() - started;

  // Which mail covered which notice: its Message-ID names the user and the first and last notice id.
  const noticeRows = await opened.db
    .select({ id: notice.id, userId: notice.userId, dedupe: notice.dedupe })
    .from(notice)
    .where(eq(notice.kind, 'reporter-message'));
  const mails = smtp.arrivals
    .map((a) => ({ at: a.at, m: /^<notice\.(\d+)\.(\d+)-(\d+)@/.exec(a.messageId) }))
    .filter((a) => a.m)
    .map((a) => ({ at: a.at, user: Number(a.m![1]), first: Number(a.m![2]), last: Number(a.m![3]) }));
  const latencies: number[] = [];
  let unmailed = 0;
  for (const [eventId, at] of recordedAt) {
    const covering = noticeRows.filter((n) => n.dedupe === `event:${eventId}`);
    let latest = 0;
    for (const n of covering) {
      const mail = mails.find((m) => m.user === n.userId && n.id >= m.first && n.id <= m.last);
      if (!mail) {
        unmailed++;
        continue;
      }
      latest = Math.max(latest, mail.at);
    }
    if (latest > 0) latencies.push(latest - at);
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `notices: ${EVENTS} events over ${ms(total)}, ${app.config.store.databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
  );
  console.log(
    `  product path: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, ` +
      `max ${ms(Math.max(...latencies))}; ${mails.length} mails for ${noticeRows.length} notices` +
      (unmailed ? `; ${unmailed} notices without a mail` : ''),
  );
  console.log(
    `  reference (one direct SMTP send per event): p50 ${ms(percentile(reference, 50))}, ` +
      `p95 ${ms(percentile(reference, 95))}`,
  );
} finally {
  await app.close();
  await legacy.close();
  await smtp.close();
  await store.drop();
}
