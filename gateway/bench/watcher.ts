import { Writable } from 'node:stream';
import { createLegacySim, SEED_STATUS } from '@wbs/legacy-sim';
import type { FastifyInstance } from 'fastify';
import { softwarePasskey } from '../../scripts/support/passkey.ts';
import { buildApp } from '../src/app.ts';
import { DEFAULT_WATCH_BUDGET, type WatchReport } from '../src/case-index/watcher.ts';
import { loadConfig } from '../src/config.ts';
import { benchStore } from './store-env.ts';

const SEED_CASES = 200;
const ADMIN = { userName: 'admin', password: 'Admin#2026!' };
const COMPANY_ADMIN = { username: 'admin.kahuripan', password: 'Perusahaan#2026!' };
const ORIGIN = 'http://localhost';
const MAX_POLLS = 1_000;

export type WatcherFigures = {
  cases: number;
  largestCompany: number;
  seeding: { polls: number; legacyCalls: number; ms: number };
  backfill: { polls: number; legacyCalls: number; ms: number; clockFacts: number };
  steady: { legacyCalls: number; msMedian: number };
  /** Polls until the event was written: a new report (the head), a status change of the oldest (the sweep). */
  freshness: { newCasePolls: number; changePolls: number; rotationPolls: number };
  overdue: {
    walk: { ms: number; total: number };
    index: { ms: number; total: number };
  };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A full session of the company admin through `inject`: the password, then the second factor with its
 * software passkey (scripts/support/passkey.ts): registered on an account without one, else signed.
 */
async function signIn(app: FastifyInstance): Promise<string> {
  let cookie = '';
  const post = async (url: string, payload?: object) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode}`);
    // The session cookie is re-issued after each step: the newest one counts.
    const issued = [res.headers['set-cookie']]
      .flat()
      .map((line) => String(line ?? '').split(';')[0] ?? '')
      .find((pair) => pair.startsWith('wbs_session=') && pair.length > 'wbs_session='.length);
    if (issued) cookie = issued;
    return res.json() as { secondFactor: { status: string }; options: Record<string, unknown> };
  };
  const passkey = softwarePasskey(COMPANY_ADMIN.username, { origin: ORIGIN });
  const { secondFactor } = await post('/api/v1/session', COMPANY_ADMIN);
  if (secondFactor.status === 'enrol') {
    const { options } = await post('/api/v1/account/second-factors/passkeys/options');
    await post('/api/v1/account/second-factors/passkeys', {
      name: 'Bench',
      response: passkey.register(options),
    });
  } else if (secondFactor.status === 'verify') {
    const { options } = await post('/api/v1/session/second-factor/challenge');
    await post('/api/v1/session/second-factor', {
      method: 'passkey',
      response: passkey.authenticate(options),
    });
  }
  if (!cookie) throw new Error('sign-in: no session cookie');
  return cookie;
}

async function overdueList(app: FastifyInstance, cookie: string, today: string) {
  const started = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/cases/search',
    headers: { cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    payload: { from: '2000-01-01', to: today, overdue: true },
  });
  if (res.statusCode !== 200) throw new Error(`overdue list: ${res.statusCode}`);
  return { ms: Math.round(performance.now() - started), total: (res.json() as { total: number }).total };
}

/** One size: a fresh legacy-sim with `cases` reports in all, a fresh gateway and store. */
export async function measureWatcher(cases: number): Promise<WatcherFigures> {
  const store = await benchStore('watcher');
  const sim = await createLegacySim({ dataDir: null, port: 0 });
  const extra = Math.max(0, cases - SEED_CASES);
  if (extra > 0) await sim.addCases({ count: extra, companyId: 1, seed: 11 });
  const config = loadConfig({
    LEGACY_API_URL: sim.apiUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789-abcdefghij',
    SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    LEGACY_SERVICE_USERNAME: ADMIN.userName,
    LEGACY_SERVICE_PASSWORD: ADMIN.password,
    LEGACY_TIMEOUT_MS: '30000',
    // The origin the bench's requests name: its passkey answers to it.
    PUBLIC_URL: ORIGIN,
    ...store.env,
    LOG_LEVEL: 'warn',
  });
  const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
  await app.ready();
  try {
    const legacy = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const login = await sim.app.inject({ method: 'POST', url: '/api/JwtAuth/Login', payload: ADMIN });
      const token = (login.json() as { data: { token: string } }).data.token;
      const res = await sim.app.inject({
        method,
        url: `/api${url}`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
      return res.json() as { code: number; data: unknown };
    };
    const table = (await legacy('POST', '/WBSCase/company/admin/1', { start: 0, length: 1 })) as unknown as {
      recordsTotal: number;
    };
    const largestCompany = table.recordsTotal;
    const cookie = await signIn(app);
    const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
    const walk = await overdueList(app, cookie, today);

    const until = async (done: (report: WatchReport) => boolean) => {
      const figures = { polls: 0, legacyCalls: 0, ms: 0, clockFacts: 0 };
      for (;;) {
        const report = await app.caseIndex.poll();
        figures.polls += 1;
        figures.legacyCalls += report.legacyCalls;
        figures.ms += report.durationMs;
        figures.clockFacts += report.clockFacts;
        if (report.failedCompanies > 0) throw new Error('a company failed during the benchmark');
        if (done(report) || figures.polls >= MAX_POLLS) return figures;
      }
    };
    const seeding = await until((report) => report.complete);
    // Clock facts: a poll that had nothing left to read ends the backfill.
    const backfill = await until((report) => report.clockFacts === 0);

    const steadyCalls: number[] = [];
    const steadyMs: number[] = [];
    for (let i = 0; i < 7; i++) {
      const report = await app.caseIndex.poll();
      steadyCalls.push(report.legacyCalls);
      steadyMs.push(report.durationMs);
    }

    // A report filed and the oldest open report moved on, both at the legacy directly.
    const oldest = (await legacy('POST', '/WBSCase/company/admin/1', {
      start: 0,
      length: 1,
      order: [{ column: 'caseCreated', dir: 'asc' }],
    })) as { data: { caseId: number; caseCaseStatusId: number }[] };
    const target = oldest.data[0]!;
    await legacy('POST', '/WBSCase/CaseLog', {
      caseId: target.caseId,
      caseCompanyId: 1,
      messageLog: 'Bench',
      caseCaseLineId: 1,
      caseCaseStatusId: target.caseCaseStatusId === SEED_STATUS.NEW ? SEED_STATUS.ACCEPTED : SEED_STATUS.NEW,
    });
    const filed = await legacy('POST', '/WBSCase', {
      caseCompanyId: 1,
      caseCaseCategoryId: 1,
      caseWhistleblowerIsAnonym: 1,
      caseWhistleblowerType: 1,
      caseWhistleblowerEmail: 'bench@example.id',
      caseWhistleblowerContactNum: '+6281200000',
      caseWhistleblowerCommunicationType: '0',
      caseWhistleblowerCommunicationTime: 'Pagi',
      caseWhat: 'Bench',
      caseWhere: 'Kantor',
      caseWhen: 'Kemarin',
      caseWhoPerpetratorAndPosition: 'X, Staf',
      caseWhatDirectorate: 'Umum',
      caseWhatDivision: 'Umum',
      caseHow: 'Begitu',
    });
    if (filed.code !== 1) throw new Error('filing at legacy-sim failed');
    let newCasePolls = 0;
    let changePolls = 0;
    for (let polls = 1; polls <= MAX_POLLS && (!newCasePolls || !changePolls); polls++) {
      const report = await app.caseIndex.poll();
      if (!newCasePolls && report.events.filed > 0) newCasePolls = polls;
      if (!changePolls && report.events.statusChanged > 0) changePolls = polls;
    }
    const index = await overdueList(app, cookie, today);
    return {
      cases,
      largestCompany,
      seeding: { polls: seeding.polls, legacyCalls: seeding.legacyCalls, ms: seeding.ms },
      backfill,
      steady: { legacyCalls: median(steadyCalls), msMedian: median(steadyMs) },
      freshness: {
        newCasePolls,
        changePolls,
        rotationPolls: Math.ceil(largestCompany / DEFAULT_WATCH_BUDGET.sweepPageSize),
      },
      overdue: { walk, index },
    };
  } finally {
    await app.close();
    await sim.close();
    await store.drop();
  }
}

if (import.meta.main) {
  const sizes = [SEED_CASES, Number(process.env.BENCH_WATCHER_CASES ?? 10_000)];
  console.log(
    `\nCase-index watcher, default budget (head ${DEFAULT_WATCH_BUDGET.headPageSize} rows ≤ ${DEFAULT_WATCH_BUDGET.headPages} pages, sweep ${DEFAULT_WATCH_BUDGET.sweepPageSize} rows, ${DEFAULT_WATCH_BUDGET.newCaseDetails} new-case and ${DEFAULT_WATCH_BUDGET.clockRefreshes} clock details per poll), store ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, Node ${process.version}\n`,
  );
  console.log(
    '| reports (largest company) | seeding: polls / calls / s | clock backfill: polls / calls / s | steady poll: calls / ms | new report seen after | change seen after (rotation) | overdue list walk → index: ms (total) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const size of sizes) {
    const f = await measureWatcher(size);
    console.log(
      `| ${f.cases.toLocaleString('en')} (${f.largestCompany.toLocaleString('en')}) | ${f.seeding.polls} / ${f.seeding.legacyCalls} / ${(f.seeding.ms / 1000).toFixed(1)} | ${f.backfill.polls} / ${f.backfill.legacyCalls} / ${(f.backfill.ms / 1000).toFixed(1)} | ${f.steady.legacyCalls} / ${f.steady.msMedian} | poll ${f.freshness.newCasePolls} | poll ${f.freshness.changePolls} (≤ ${f.freshness.rotationPolls}) | ${f.overdue.walk.ms} (${f.overdue.walk.total}) → ${f.overdue.index.ms} (${f.overdue.index.total}) |`,
    );
  }
}
