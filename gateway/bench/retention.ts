import { Writable } from 'node:stream';
import { createLegacySim } from '@wbs/legacy-sim';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { sql } from '../src/store/drizzle.ts';
import { benchStore } from './store-env.ts';

const CASES = Number(process.env.BENCH_RETENTION_CASES ?? 20_000);
const DITUTUP = 21;
const SCANNED = 1;
const TWIN = 9_001;

const legacy = await createLegacySim({});
const store = await benchStore('retention');
const config = loadConfig({
  LEGACY_API_URL: legacy.apiUrl,
  SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghij',
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  LOG_LEVEL: 'warn',
  // Only the scans this bench runs: no start-up scan, no watcher changing the index underneath.
  JOBS_ENABLED: 'false',
  LEGACY_SERVICE_USERNAME: 'admin',
  LEGACY_SERVICE_PASSWORD: 'Admin#2026!',
  METRICS_PORT: '0',
  ...store.env,
});
const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
await app.ready();

const day = (monthsAgo: number) => {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - monthsAgo);
  return d.toISOString().slice(0, 19);
};
const ms = (started: number) => Math.round(performance.now() - started);

try {
  const { db } = await app.store.open();
  const seed = async (companyId: number) => {
    await db.execute(sql`
      insert into case_index (company_id, case_id, case_binding, status_id, filed_at, closed_at)
      select ${companyId}, n, 'b' || n, ${DITUTUP}, ${day(20)},
             case when n % 2 = 0 then ${day(13)} else ${day(1)} end
        from generate_series(1, ${CASES}) n`);
    for (const table of ['case_message', 'identity_access']) {
      const columns =
        table === 'case_message'
          ? sql`(company_id, case_id, case_binding, author_kind, key_id, sealed)`
          : sql`(company_id, case_id, case_binding, reader_user_type, kind)`;
      const values =
        table === 'case_message'
          ? sql`select ${companyId}, n, 'b' || n, 'reporter', 'k', repeat('x', 200)`
          : sql`select ${companyId}, n, 'b' || n, 2, 'case-read'`;
      await db.execute(sql`insert into ${sql.raw(table)} ${columns}
        ${values} from generate_series(2, ${CASES}, 2) n`);
    }
    await db.execute(sql`insert into case_conversation (company_id, case_id, case_binding)
      select ${companyId}, n, 'b' || n from generate_series(2, ${CASES}, 2) n`);
  };
  await seed(SCANNED);
  await seed(TWIN);
  const rss = () => Math.round(process.memoryUsage().rss / 1048576);
  const rssBefore = rss();
  let rssPeak = rssBefore;

  // The reference: the twin company's due rows, one bare delete per table.
  let started = performance.now();
  for (const table of ['case_message', 'identity_access', 'case_conversation']) {
    await db.execute(sql`delete from ${sql.raw(table)} t using case_index i
      where i.company_id = ${TWIN} and t.company_id = i.company_id and t.case_id = i.case_id
        and left(i.closed_at, 10)::date + interval '12 months' <= current_date`);
  }
  const referenceMs = ms(started);

  await db.execute(sql`delete from case_index where company_id = ${TWIN}`);

  // The product's path: bounded runs until the backlog is done.
  let runs = 0;
  let registered = 0;
  started = performance.now();
  for (;;) {
    const report = await app.retention.scan();
    if (!report) throw new Error('the scan lease was held');
    runs += 1;
    registered += report.registered;
    rssPeak = Math.max(rssPeak, rss());
    if (!report.more) break;
  }
  const backlogMs = ms(started);

  // The nightly run with nothing left to do, over every registered case.
  const idle: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    const report = await app.retention.scan();
    idle.push(ms(started));
    if (report?.registered || report?.purged) throw new Error('the idle scan found work');
  }
  started = performance.now();
  const passes: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    await db.execute(sql`select count(*) from case_index`);
    passes.push(ms(started));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const messagesLeft = async (companyId: number) =>
    (
      (await db.execute(
        sql`select count(*)::int as n from case_message where company_id = ${companyId}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]?.n;

  console.log(`retention (${store.engine}, ${CASES.toLocaleString('en')} final cases per company, half due)`);
  console.log(
    `  backlog: ${registered} cases purged, registered and audited in ${runs} runs, ${backlogMs} ms` +
      ` (${((backlogMs / Math.max(registered, 1)) * 1000).toFixed(0)} µs per case); messages left ${await messagesLeft(SCANNED)}`,
  );
  console.log(
    `  reference, one bare delete per table for the twin company: ${referenceMs} ms (scan ${(backlogMs / Math.max(referenceMs, 1)).toFixed(1)}×); messages left ${await messagesLeft(TWIN)}`,
  );
  console.log(
    `  nightly run with nothing to do: median ${median(idle)} ms; one pass over the index: median ${median(passes)} ms` +
      ` (${(median(idle) / Math.max(median(passes), 1)).toFixed(1)}×)`,
  );
  console.log(`  RSS ${rssBefore} MB before, peak ${rssPeak} MB during the backlog`);
} finally {
  await app.close();
  await legacy.close();
  await store.drop();
}
