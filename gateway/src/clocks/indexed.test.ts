/**
 * The overdue filter and tile over a company with more than 5,000 reports (legacy-sim's generated
 * history): walking the table stops at 5,000 rows and says so; once the case-index watcher has swept
 * the company, both answers are complete, for the company admin, the analyst (its line and cases not
 * routed yet) and the partner, and agree with the handling rules applied to every report's own log.
 */
import { randomUUID } from 'node:crypto';
import type { CaseListReply } from '@wbs/shared/api/cases';
import type { DashboardOverdueReply } from '@wbs/shared/api/dashboard';
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import {
  DEFAULT_ACK_DAYS,
  DEFAULT_FEEDBACK_MONTHS,
  handlingClock,
  handlingFacts,
  isOverdue,
  normaliseWallTime,
  statusChangeEvents,
  wibToday,
} from '@wbs/shared/handling-clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_MAX_ROWS } from '../legacy/cases.ts';
import { ENGINES, storeTestEnv } from '../test/databases.ts';
import { browser, buildTestApp, demoLogins, type TestApp } from '../test/helpers.ts';
import { type LegacyCaseState, legacyDesk } from '../test/legacy-cases.ts';
import { multipart } from '../test/uploads.ts';
import { eachLimited } from './service.ts';

const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: 'Admin#2026!' };
const COMPANY = 1;
/** analis.direksi: company 1, Jalur Direksi. */
const ANALYST_LINE = 1;
const FINALS = new Set([13, 21]);

describe.each(ENGINES)('overdue over more than 5,000 reports on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>>;
  const login = demoLogins(() => t.app);
  /** Overdue case ids by the rules applied to each report's own log (no handler messages here). */
  let overdueIds: Map<number, LegacyCaseState>;
  let rows: LegacyCaseState[];

  beforeAll(async () => {
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({
      ...storeEnv.env,
      ...SERVICE,
      RATE_LIMIT_NAMESPACE: `test-indexed-${randomUUID()}`,
    });
    await t.legacy.addCases({ count: WALK_MAX_ROWS + 200, companyId: COMPANY, seed: 7 });
    const desk = legacyDesk(t);
    rows = await desk.table(COMPANY);
    const today = wibToday();
    overdueIds = new Map();
    await eachLimited(rows, 16, async (row) => {
      if (row.caseCaseStatusId !== null && FINALS.has(row.caseCaseStatusId)) return;
      const filedAt = normaliseWallTime(row.caseCreated)!;
      const logs = await desk.logs(COMPANY, row.caseId);
      const events = statusChangeEvents(
        logs.map((log) => ({ at: normaliseWallTime(log.at), statusId: log.statusId })),
        STATUS_NEW_ID,
        (id) => FINALS.has(id),
      );
      const clock = handlingClock(
        handlingFacts(filedAt, events),
        { ackDays: DEFAULT_ACK_DAYS, feedbackMonths: DEFAULT_FEEDBACK_MONTHS },
        today,
      );
      if (isOverdue(clock)) overdueIds.set(row.caseId, row);
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  const get = async <T>(username: string, url: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: browser(await login(username)),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const search = async (username: string, body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: browser(await login(username)),
      payload: { from: '2000-01-01', to: wibToday(), overdue: true, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CaseListReply;
  };
  const tile = async (username: string, companyId = COMPANY) =>
    (await get<DashboardOverdueReply>(username, '/dashboard/overdue')).companies.find(
      (c) => c.companyId === companyId,
    )!;

  it('says a walk over the long history is partial until the company is indexed', async () => {
    expect(rows.length).toBeGreaterThan(WALK_MAX_ROWS);
    expect(overdueIds.size).toBeGreaterThan(0);
    expect((await tile('admin.kahuripan')).complete).toBe(false);
  });

  it('answers completely from the index once the watcher swept the company', async () => {
    let polls = 0;
    for (;;) {
      // A generous clock budget: every report's facts are read once, here rather than by requests.
      const report = await t.app.caseIndex.poll({ clockRefreshes: 10_000 });
      polls += 1;
      expect(report.failedCompanies).toBe(0);
      if (report.complete) break;
      expect(polls).toBeLessThan(20);
    }
    // The tile's count was cached for 30 s under the walk: another day's key is not at hand, so ask
    // through a user whose table path differs from the first one's (the partner).
    const partner = await tile('holding');
    expect(partner).toMatchObject({ companyId: COMPANY, overdue: overdueIds.size, complete: true });

    const page = await search('admin.kahuripan', {});
    expect(page.total).toBe(overdueIds.size);
    expect(page.items).toHaveLength(Math.min(10, overdueIds.size));
    const newest = [...overdueIds.values()]
      .sort((a, b) => b.caseCreated.localeCompare(a.caseCreated) || b.caseId - a.caseId)
      .slice(0, 10)
      .map((row) => row.caseId);
    expect(page.items.map((item) => item.id)).toEqual(newest);
    for (const item of page.items) expect(isOverdue(item.handling!)).toBe(true);
    const last = await search('admin.kahuripan', { page: Math.ceil(overdueIds.size / 100), pageSize: 100 });
    expect(last.items.length).toBe(overdueIds.size - (Math.ceil(overdueIds.size / 100) - 1) * 100);

    const analystIds = [...overdueIds.values()].filter(
      (row) => row.caseCaseLineId === null || row.caseCaseLineId === ANALYST_LINE,
    );
    const analyst = await search('analis.direksi', { pageSize: 100 });
    expect(analyst.total).toBe(analystIds.length);
    for (const item of analyst.items) expect([null, 'Jalur Direksi']).toContain(item.caseLineName);
    expect((await tile('analis.direksi')).overdue).toBe(analystIds.length);

    // The filters the index applies: a status, by status order.
    const baru = [...overdueIds.values()].filter((row) => row.caseCaseStatusId === STATUS_NEW_ID);
    expect((await search('admin.kahuripan', { statusId: STATUS_NEW_ID })).total).toBe(baru.length);
    const byStatus = await search('admin.kahuripan', { sort: 'status', pageSize: 100 });
    expect(byStatus.total).toBe(overdueIds.size);
    const orders = byStatus.items.map((item) => item.status?.order ?? 0);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it("counts a handler's message as the acknowledgement, and a status set through the gateway at once", async () => {
    const [waiting, other] = [...overdueIds.values()].filter((row) => row.caseCaseStatusId === STATUS_NEW_ID);
    const before = (await search('admin.kahuripan', {})).total;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${waiting!.caseId}/messages`,
      headers: browser(await login('admin.kahuripan')),
      payload: { text: 'Laporan Anda kami terima.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await search('admin.kahuripan', {})).total).toBe(before - 1);
    // A status change to a final status through the activity log: noted in the index at once.
    const body = await multipart({ statusId: '13', caseLineId: '1', message: 'Ditolak' });
    const logged = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${other!.caseId}/logs`,
      payload: body.payload,
      headers: { ...browser(await login('admin.kahuripan')), ...body.headers },
    });
    expect(logged.statusCode, logged.body).toBe(201);
    expect((await search('admin.kahuripan', {})).total).toBe(before - 2);
  });
});
