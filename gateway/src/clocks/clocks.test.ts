/**
 * Handling clocks through the real app and legacy-sim: the seeded report filed 8 days ago
 * and never touched is overdue in the list, the overdue filter and the dashboard tile; the tracker sees
 * the promised date; a handler message or a status change acknowledges; company deadlines are the
 * administrator's to set, and a date already promised does not move.
 */
import { randomUUID } from 'node:crypto';
import { demoCases, untouchedDemoCase } from '@wbs/legacy-sim';
import type { CaseDetail, CaseListReply, HandlingDeadlinesReply } from '@wbs/shared/api/cases';
import type { DashboardOverdueReply } from '@wbs/shared/api/dashboard';
import { addDays, addMonths, wibToday } from '@wbs/shared/handling-clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, storeTestEnv } from '../test/databases.ts';
import { browser, buildTestApp, demoLogins, ORIGIN, type TestApp } from '../test/helpers.ts';
import { multipart } from '../test/uploads.ts';

const [baru] = demoCases;
const today = wibToday();
const monthStart = `${today.slice(0, 8)}01`;
const range = { from: addDays(today, -60) < monthStart ? addDays(today, -60) : monthStart, to: today };

describe.each(ENGINES)('handling clocks on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>>;

  beforeAll(async () => {
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({
      ...storeEnv.env,
      RATE_LIMIT_NAMESPACE: `test-clocks-${randomUUID()}`,
      TRACKING_FAILURE_FLOOR_MS: '50',
      TRACKING_MAX_PER_NUMBER: '100',
      TRACKING_MAX_PER_CLIENT: '1000',
      LEGACY_TIMEOUT_MS: '5000',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  const login = demoLogins(() => t.app);
  const call = async (
    username: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: browser(await login(username)),
      ...(payload ? { payload } : {}),
    });
  const track = (caseNumber: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking',
      headers: { origin: ORIGIN },
      payload: { caseNumber, password },
      remoteAddress: '198.51.100.77',
    });
  it('shows the untouched 8-day-old report overdue in the list, the overdue filter and the tile', async () => {
    const list = await call('admin.kahuripan', 'POST', '/cases/search', {
      ...range,
      number: untouchedDemoCase.caseNumber,
    });
    expect(list.statusCode, list.body).toBe(200);
    const [row] = (list.json() as CaseListReply).items;
    const filed = row!.createdAt.slice(0, 10);
    expect(filed).toBe(addDays(today, -8));
    expect(row!.handling).toEqual({
      stage: 'acknowledgement',
      acknowledgement: { dueDate: addDays(filed, 7), doneAt: null, state: 'overdue' },
      feedback: { dueDate: addMonths(filed, 3), doneAt: null, state: 'onTime' },
    });

    const overdue = await call('admin.kahuripan', 'POST', '/cases/search', { ...range, overdue: true });
    expect(overdue.statusCode, overdue.body).toBe(200);
    const page = overdue.json() as CaseListReply;
    expect(page.items.map((i) => i.number)).toContain(untouchedDemoCase.caseNumber);
    expect(page.total).toBe(page.items.length);
    for (const item of page.items) {
      const running = item.handling![item.handling!.stage as 'acknowledgement' | 'feedback'];
      expect(running.state).toBe('overdue');
    }
    // The freshly filed demo report (1 day old) is not overdue.
    expect(page.items.map((i) => i.number)).not.toContain(baru.caseNumber);

    const tile = await call('admin.kahuripan', 'GET', '/dashboard/overdue');
    expect(tile.statusCode, tile.body).toBe(200);
    const counts = tile.json() as DashboardOverdueReply;
    expect(counts.today).toBe(today);
    expect(counts.companies).toHaveLength(1);
    expect(counts.companies[0]).toMatchObject({ companyId: 1, complete: true });
    expect(counts.companies[0]!.overdue).toBeGreaterThanOrEqual(1);

    const partnerTile = await call('holding', 'GET', '/dashboard/overdue');
    expect(partnerTile.statusCode, partnerTile.body).toBe(200);
    const partnerCounts = (partnerTile.json() as DashboardOverdueReply).companies;
    expect(partnerCounts.length).toBeGreaterThan(1);
    expect(partnerCounts.find((c) => c.companyId === 1)?.overdue).toBe(counts.companies[0]!.overdue);
    expect(partnerCounts.every((c) => typeof c.companyName === 'string')).toBe(true);
  }, 60_000);

  it('tells the tracker by when the report will be answered', async () => {
    const reply = await track(untouchedDemoCase.caseNumber, untouchedDemoCase.password);
    expect(reply.statusCode, reply.body).toBe(200);
    const detail = reply.json() as CaseDetail;
    expect(detail.handling?.stage).toBe('acknowledgement');
    expect(detail.handling?.acknowledgement.dueDate).toBe(addDays(today, -1));
  });

  it('a handler message acknowledges a new report; a status change then answers it', async () => {
    const listRow = async () => {
      const list = await call('admin.kahuripan', 'POST', '/cases/search', {
        ...range,
        number: baru.caseNumber,
      });
      expect(list.statusCode, list.body).toBe(200);
      return (list.json() as CaseListReply).items[0]!;
    };
    const before = await call('admin.kahuripan', 'GET', '/cases/1');
    expect((before.json() as CaseDetail).handling?.stage).toBe('acknowledgement');
    // Read twice: the second read reuses the clock computed by the first
    // (docs/adr/0034-handling-clock-computation.md).
    expect((await listRow()).handling?.stage).toBe('acknowledgement');
    expect((await listRow()).handling?.stage).toBe('acknowledgement');

    const asked = await call('admin.kahuripan', 'POST', '/cases/1/messages', { text: 'Laporan diterima.' });
    expect(asked.statusCode, asked.body).toBe(201);
    const acknowledged = (await call('admin.kahuripan', 'GET', '/cases/1')).json() as CaseDetail;
    expect(acknowledged.handling?.stage).toBe('feedback');
    expect(acknowledged.handling?.acknowledgement.state).toBe('met');
    expect(acknowledged.handling?.acknowledgement.doneAt?.slice(0, 10)).toBe(today);
    // The list row, read within its inputs' 5 s, does not keep the clock it had before the message.
    expect((await listRow()).handling?.stage).toBe('feedback');

    const body = await multipart({ statusId: '11', caseLineId: '2', message: 'Diteruskan ke Jalur' });
    const logged = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/1/logs',
      payload: body.payload,
      headers: { ...browser(await login('admin.kahuripan')), ...body.headers },
    });
    expect(logged.statusCode, logged.body).toBe(201);
    // The list row (its status moved) reads the log again: acknowledged and answered.
    const row = await listRow();
    expect(row.handling?.stage).toBe('done');
    expect(row.handling?.feedback.state).toBe('met');

    const tracked = (await track(baru.caseNumber, baru.password)).json() as CaseDetail;
    expect(tracked.handling?.stage).toBe('done');
  }, 60_000);

  it('lets the administrator set a company its own deadlines; a promised date does not move', async () => {
    const seen = (await call('admin.pakuan', 'POST', '/cases/search', range)).json() as CaseListReply;
    const known = seen.items.find((i) => i.handling !== null);
    expect(known).toBeDefined();

    const refused = await call('admin.pakuan', 'PUT', '/handling-deadlines/2', {
      ackDays: 3,
      feedbackMonths: 1,
    });
    expect(refused.statusCode).toBe(403);
    const invalid = await call('admin', 'PUT', '/handling-deadlines/2', { ackDays: 0, feedbackMonths: 13 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ ackDays: 'Minimal 1 hari', feedbackMonths: 'Maksimal 12 bulan' });
    const unknown = await call('admin', 'PUT', '/handling-deadlines/9999', { ackDays: 3, feedbackMonths: 1 });
    expect(unknown.statusCode).toBe(404);

    const saved = await call('admin', 'PUT', '/handling-deadlines/2', { ackDays: 3, feedbackMonths: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    const own = (await call('admin.pakuan', 'GET', '/handling-deadlines')).json() as HandlingDeadlinesReply;
    expect(own.defaults).toEqual({ ackDays: 7, feedbackMonths: 3 });
    expect(own.companies).toEqual([
      { companyId: 2, companyName: expect.any(String), ackDays: 3, feedbackMonths: 1, own: true },
    ]);
    const all = (await call('admin', 'GET', '/handling-deadlines')).json() as HandlingDeadlinesReply;
    expect(all.companies.find((c) => c.companyId === 1)).toMatchObject({ ackDays: 7, own: false });

    const again = (await call('admin.pakuan', 'POST', '/cases/search', range)).json() as CaseListReply;
    const same = again.items.find((i) => i.id === known?.id);
    expect(same?.handling?.acknowledgement.dueDate).toBe(known?.handling?.acknowledgement.dueDate);
    expect(same?.handling?.acknowledgement.dueDate).toBe(addDays(same!.createdAt.slice(0, 10), 7));
    const reset = await call('admin', 'DELETE', '/handling-deadlines/2');
    expect(reset.statusCode).toBe(200);
    const back = (await call('admin.pakuan', 'GET', '/handling-deadlines')).json() as HandlingDeadlinesReply;
    expect(back.companies[0]).toMatchObject({ ackDays: 7, feedbackMonths: 3, own: false });
  }, 60_000);
});
