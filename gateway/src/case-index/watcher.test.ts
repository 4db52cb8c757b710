/**
 * The case-index watcher against the in-memory legacy-sim and a real store (PGlite and PostgreSQL):
 * the first sweep is silent; cases filed and changed at the legacy directly (never through the
 * gateway) become one event each; a poll of the same state adds nothing; a poll broken between its
 * pages and run again neither misses nor repeats an event; one failing company does not stop the
 * others; a reissued case id is a new incarnation; the gateway's own activity log is noted at once.
 * A generated run of filings and changes then polls ends with the index equal to the legacy's tables
 * and the events exactly the changes.
 */
import { randomUUID } from 'node:crypto';
import { SEED_STATUS } from '@wbs/legacy-sim';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../errors.ts';
import { backgroundLegacy, type LegacyCaller } from '../legacy/plugin.ts';
import { serviceAccount } from '../legacy/service-account.ts';
import { asc, eq, gt } from '../store/drizzle.ts';
import { caseEvent, caseIndex, caseWatch } from '../store/schema.ts';
import { ENGINES, storeTestEnv } from '../test/databases.ts';
import { browser, buildTestApp, demoLogins, type TestApp } from '../test/helpers.ts';
import { type LegacyCaseState, type LegacyDesk, legacyDesk } from '../test/legacy-cases.ts';
import { multipart } from '../test/uploads.ts';
import { type WatchBudget, watchOnce } from './watcher.ts';

const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: 'Admin#2026!' };
const COMPANIES = [1, 2, 3];

type Event = typeof caseEvent.$inferSelect;

/** What a test can do with the app's watcher and store. */
function watcherOf(t: () => TestApp) {
  const store = () => t().app.store.open();
  let seen = 0;
  return {
    store,
    poll: (budget?: Partial<WatchBudget>) => t().app.caseIndex.poll(budget),
    /** A poll through a legacy caller the test wraps (failures on purpose). */
    pollThrough: async (wrap: (legacy: LegacyCaller) => LegacyCaller, budget?: Partial<WatchBudget>) =>
      watchOnce({
        legacy: wrap(backgroundLegacy(t().app, { requestId: 'watcher-test', log: t().app.log })),
        account: serviceAccount(SERVICE_ACCOUNT),
        store: await store(),
        log: t().app.log,
        deadlines: t().app.config.handlingDeadlines,
        ...(budget ? { budget } : {}),
      }),
    /** Events written since the last call. */
    async newEvents(): Promise<Event[]> {
      const rows = await (await store()).db
        .select()
        .from(caseEvent)
        .where(gt(caseEvent.id, seen))
        .orderBy(asc(caseEvent.id));
      seen = rows.at(-1)?.id ?? seen;
      return rows;
    },
    async index(companyId: number) {
      return (await store()).db
        .select()
        .from(caseIndex)
        .where(eq(caseIndex.companyId, companyId))
        .orderBy(asc(caseIndex.caseId));
    },
  };
}

const SERVICE_ACCOUNT = {
  username: SERVICE.LEGACY_SERVICE_USERNAME,
  password: SERVICE.LEGACY_SERVICE_PASSWORD,
};

/** Fails the table calls `when` picks, as an unreachable legacy would. */
const failingTables =
  (when: (path: string, json: unknown) => boolean) =>
  (legacy: LegacyCaller): LegacyCaller => ({
    ...legacy,
    table: (call) =>
      when(call.path, call.json)
        ? Promise.reject(new ApiProblem('legacy-unavailable', { cause: 'test' }))
        : legacy.table(call),
  });

const sweepOf = (companyId: number) => (path: string, json: unknown) =>
  path === `/WBSCase/company/admin/${companyId}` &&
  (json as { order?: { dir: string }[] }).order?.[0]?.dir === 'asc';

/** The index as it should be: every row of the legacy's table, bound. */
async function expectIndexEqualsLegacy(
  w: ReturnType<typeof watcherOf>,
  desk: LegacyDesk,
  companyId: number,
): Promise<LegacyCaseState[]> {
  const store = await w.store();
  const legacy = await desk.table(companyId);
  const expected = legacy
    .map((row) => ({
      caseId: row.caseId,
      caseBinding: store.cases.bind(row).binding,
      lineId: row.caseCaseLineId,
      categoryId: row.caseCaseCategoryId,
      statusId: row.caseCaseStatusId,
      filedAt: store.cases.bind(row).filedAt,
    }))
    .sort((a, b) => a.caseId - b.caseId);
  const actual = (await w.index(companyId)).map((row) => ({
    caseId: row.caseId,
    caseBinding: row.caseBinding,
    lineId: row.lineId,
    categoryId: row.categoryId,
    statusId: row.statusId,
    filedAt: row.filedAt,
  }));
  expect(actual).toEqual(expected);
  return legacy;
}

describe.each(ENGINES)('case-index watcher on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>>;
  let desk: LegacyDesk;
  const w = watcherOf(() => t);
  const login = demoLogins(() => t.app);

  beforeAll(async () => {
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({
      ...storeEnv.env,
      ...SERVICE,
      RATE_LIMIT_NAMESPACE: `test-watch-${randomUUID()}`,
    });
    desk = legacyDesk(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  it('fills the index silently on its first sweep, and a second poll adds nothing', async () => {
    const first = await w.poll({ clockRefreshes: 0 });
    expect(first).toMatchObject({ listed: true, companies: 3, failedCompanies: 0, newCases: 0, changes: 0 });
    expect(first.complete).toBe(true);
    expect(first.seededCompanies).toBe(3);
    expect(await w.newEvents()).toEqual([]);
    let total = 0;
    for (const companyId of COMPANIES) total += (await expectIndexEqualsLegacy(w, desk, companyId)).length;
    expect(first.indexSize).toBe(total);
    expect(first.inserted).toBe(total);
    // The account's sign-in, the company list and two table pages per company: no detail while seeding.
    expect(first.legacyCalls).toBe(1 + 1 + 3 * 2);
    const watches = await (await w.store()).db.select().from(caseWatch);
    expect(watches.every((row) => row.seeded && row.sweptAt !== null)).toBe(true);
    const metrics = await t.app.telemetry.registry.metrics();
    expect(metrics).toMatch(/^wbs_case_index_polls_total\{outcome="ok"\} 1$/m);
    expect(metrics).toMatch(new RegExp(`^wbs_case_index_rows ${total}$`, 'm'));
    expect(metrics).toMatch(/^wbs_case_index_companies\{state="seeded"\} 3$/m);
    expect(metrics).toMatch(/^wbs_case_index_poll_legacy_calls_sum 8$/m);
    expect(metrics).not.toMatch(/company_id|companyId/);

    const second = await w.poll();
    expect(second).toMatchObject({ newCases: 0, changes: 0, inserted: 0, updated: 0, removed: 0 });
    expect(await w.newEvents()).toEqual([]);
  });

  it('backfills channel, flag and location of the rows its silent first sweep did not read, a few per poll', async () => {
    const unread = async () =>
      (await Promise.all(COMPANIES.map((id) => w.index(id)))).flat().filter((row) => !row.detailRead);
    let left = (await unread()).length;
    expect(left).toBeGreaterThan(0);
    // Bounded: never more than its budget per poll, newest first, until none is left.
    for (let n = 0; n < 40 && left > 0; n++) {
      const before = await unread();
      const report = await w.poll({ detailBackfill: 7, clockRefreshes: 0 });
      expect(report.backfilled).toBeLessThanOrEqual(7);
      expect(report).toMatchObject({ newCases: 0, changes: 0 });
      const after = new Set((await unread()).map((row) => `${row.companyId}:${row.caseId}`));
      const done = before.filter((row) => !after.has(`${row.companyId}:${row.caseId}`));
      expect(done).toHaveLength(report.backfilled);
      left = after.size;
    }
    expect(left).toBe(0);
    expect(await w.newEvents()).toEqual([]);
    // What the details said, as legacy-sim's own store holds it: the reporter's province and city as ids,
    // none kept for an anonymous report (whatever the store holds).
    const rows = (await Promise.all(COMPANIES.map((id) => w.index(id)))).flat();
    const sim = new Map(t.legacy.cases().map((c) => [c.caseId, c]));
    for (const row of rows) {
      const c = sim.get(row.caseId)!;
      const anonymous = Number(c.fields.caseWhistleblowerIsAnonym) === 1;
      expect(row.channelId, `${row.caseId}`).toBe(c.channelId);
      expect(row.anonymous, `${row.caseId}`).toBe(anonymous);
      const where = anonymous
        ? [null, null]
        : [c.fields.caseWhistleblowerProvinceId ?? null, c.fields.caseWhistleblowerCityId ?? null];
      expect([row.provinceId, row.cityId], `${row.caseId}`).toEqual(where);
    }
    expect(rows.some((row) => row.anonymous === false && row.provinceId === 32 && row.cityId === 3201)).toBe(
      true,
    );
    expect(rows.some((row) => row.anonymous === true)).toBe(true);
    // Nothing left: a poll reads no detail for it.
    expect((await w.poll({ clockRefreshes: 0 })).backfilled).toBe(0);
  });

  it('keeps the location of a new identified case, matched by the names the detail gives', async () => {
    const caseId = await desk.file(1, { anonymous: false, provinceId: 35, cityId: 3578 });
    const anonymousId = await desk.file(1, { anonymous: true });
    await w.poll();
    await w.newEvents();
    const rows = (await w.index(1)).filter((r) => r.caseId === caseId || r.caseId === anonymousId);
    expect(rows.find((r) => r.caseId === caseId)).toMatchObject({
      provinceId: 35,
      cityId: 3578,
      anonymous: false,
      detailRead: true,
    });
    expect(rows.find((r) => r.caseId === anonymousId)).toMatchObject({
      provinceId: null,
      cityId: null,
      anonymous: true,
      detailRead: true,
    });
  });

  it('announces a case filed at the legacy directly as one case-filed event, with facts only', async () => {
    const caseId = await desk.file(2, { channelId: 4, anonymous: true });
    const report = await w.poll();
    expect(report.newCases).toBe(1);
    const events = await w.newEvents();
    expect(events).toHaveLength(1);
    const [event] = events;
    const row = (await desk.table(2)).find((r) => r.caseId === caseId)!;
    expect(event).toMatchObject({
      kind: 'case-filed',
      companyId: 2,
      caseId,
      caseBinding: (await w.store()).cases.bind(row).binding,
      lineId: null,
    });
    expect(event!.facts).toEqual({
      statusId: SEED_STATUS.NEW,
      categoryId: row.caseCaseCategoryId,
      channelId: 4,
      anonymous: true,
    });
    expect(JSON.stringify(event)).not.toContain(row.caseNumber);
    const [indexed] = (await w.index(2)).filter((r) => r.caseId === caseId);
    expect(indexed).toMatchObject({ channelId: 4, anonymous: true, statusId: SEED_STATUS.NEW });
    expect((await w.poll()).newCases).toBe(0);
    expect(await w.newEvents()).toEqual([]);
  });

  it('announces a new line and a new status made at the legacy once each', async () => {
    const caseId = await desk.file(1);
    await w.poll();
    await w.newEvents();
    await desk.log(1, caseId, SEED_STATUS.ACCEPTED, 2);
    const report = await w.poll();
    expect(report.changes).toBe(2);
    const events = await w.newEvents();
    expect(events.map((e) => [e.kind, e.caseId, e.lineId, e.facts])).toEqual([
      ['case-routed', caseId, 2, { fromLineId: null, toLineId: 2 }],
      ['status-changed', caseId, 2, { fromStatusId: SEED_STATUS.NEW, toStatusId: SEED_STATUS.ACCEPTED }],
    ]);
    await desk.log(1, caseId, 12, null);
    await w.poll();
    expect((await w.newEvents()).map((e) => [e.kind, e.facts])).toEqual([
      ['status-changed', { fromStatusId: SEED_STATUS.ACCEPTED, toStatusId: 12 }],
    ]);
    // The same state again: nothing.
    expect((await w.poll()).changes).toBe(0);
    expect(await w.newEvents()).toEqual([]);
    // A new category is kept without an event.
    const currentCategory = await caseCategoryOf(1, caseId);
    const other = (await desk.categories(1)).find((id) => id !== currentCategory)!;
    await desk.recategorise(1, caseId, other);
    expect((await w.poll()).updated).toBeGreaterThanOrEqual(1);
    expect(await w.newEvents()).toEqual([]);
    await expectIndexEqualsLegacy(w, desk, 1);
  });

  async function caseCategoryOf(companyId: number, caseId: number) {
    return (await desk.table(companyId)).find((r) => r.caseId === caseId)!.caseCaseCategoryId;
  }

  it("notes the gateway's own activity log at once; the sweep then adds nothing", async () => {
    const caseId = await desk.file(1);
    await w.poll();
    await w.newEvents();
    const body = await multipart({
      statusId: String(SEED_STATUS.ACCEPTED),
      caseLineId: '3',
      message: 'Diterima',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${caseId}/logs`,
      payload: body.payload,
      headers: { ...browser(await login('admin.kahuripan')), ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    // Before any poll: the index and the events already say it.
    expect((await w.newEvents()).map((e) => [e.kind, e.caseId, e.facts])).toEqual([
      ['case-routed', caseId, { fromLineId: null, toLineId: 3 }],
      ['status-changed', caseId, { fromStatusId: SEED_STATUS.NEW, toStatusId: SEED_STATUS.ACCEPTED }],
    ]);
    const [indexed] = (await w.index(1)).filter((r) => r.caseId === caseId);
    expect(indexed).toMatchObject({ lineId: 3, statusId: SEED_STATUS.ACCEPTED });
    expect((await w.poll()).changes).toBe(0);
    expect(await w.newEvents()).toEqual([]);
  });

  it('misses and repeats nothing when a poll breaks between its pages and runs again', async () => {
    const filed = await desk.file(1);
    // The oldest case of company 1: only the sweep sees it, after the head page was written.
    const [oldest] = await desk
      .table(1)
      .then((rows) =>
        rows
          .filter((r) => r.caseCaseStatusId === 12)
          .sort((a, b) => a.caseCreated.localeCompare(b.caseCreated)),
      );
    await desk.log(1, oldest!.caseId, 14, null);
    const broken = await w.pollThrough(failingTables(sweepOf(1)));
    expect(broken.failedCompanies).toBe(1);
    expect(broken.complete).toBe(true);
    expect((await w.newEvents()).map((e) => [e.kind, e.caseId])).toEqual([['case-filed', filed]]);
    const again = await w.poll();
    expect(again.failedCompanies).toBe(0);
    expect((await w.newEvents()).map((e) => [e.kind, e.caseId, e.facts])).toEqual([
      ['status-changed', oldest!.caseId, { fromStatusId: 12, toStatusId: 14 }],
    ]);
    expect((await w.poll()).changes + (await w.poll()).newCases).toBe(0);
    expect(await w.newEvents()).toEqual([]);
  });

  it("goes on with the other companies when one company's legacy calls fail, naming no case", async () => {
    const in1 = await desk.file(1);
    const in2 = await desk.file(2);
    const in3 = await desk.file(3);
    const marks = t.logs.length;
    const report = await w.pollThrough(failingTables((path) => path === '/WBSCase/company/admin/2'));
    expect(report).toMatchObject({ failedCompanies: 1, newCases: 2 });
    expect((await w.newEvents()).map((e) => e.caseId).sort()).toEqual([in1, in3].sort());
    const failures = t.logs.slice(marks).filter((l) => l.msg === 'case index: company not polled');
    expect(failures).toEqual([expect.objectContaining({ companyId: 2, reason: 'legacy-unavailable' })]);
    const numbers = (await desk.table(2)).map((r) => r.caseNumber);
    const logged = JSON.stringify(t.logs.slice(marks));
    for (const number of numbers) expect(logged).not.toContain(number);
    expect((await w.poll()).newCases).toBe(1);
    expect((await w.newEvents()).map((e) => e.caseId)).toEqual([in2]);
  });

  it("treats a reissued case id as a new case, leaving the earlier one's rows as they were", async () => {
    // A fresh legacy (the seed again): ids above the seed's are issued again to new reports.
    await t.legacy.reset();
    await w.poll();
    for (const companyId of COMPANIES) await expectIndexEqualsLegacy(w, desk, companyId);
    await w.newEvents();
    const first = await desk.file(1);
    await w.poll();
    const [earlier] = await w.newEvents();
    expect(earlier).toMatchObject({ kind: 'case-filed', caseId: first });
    await t.legacy.reset();
    const again = await desk.file(1);
    expect(again).toBe(first);
    await w.poll();
    const events = (await w.newEvents()).filter((e) => e.caseId === first);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'case-filed', companyId: 1 });
    expect(events[0]!.caseBinding).not.toBe(earlier!.caseBinding);
    const kept = await (await w.store()).db.select().from(caseEvent).where(eq(caseEvent.id, earlier!.id));
    expect(kept).toEqual([earlier]);
    const [indexed] = (await w.index(1)).filter((r) => r.caseId === first);
    expect(indexed!.caseBinding).toBe(events[0]!.caseBinding);
  });
});

describe.each(ENGINES)('case-index watcher, generated runs on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>>;
  let desk: LegacyDesk;
  const w = watcherOf(() => t);

  beforeAll(async () => {
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({
      ...storeEnv.env,
      ...SERVICE,
      RATE_LIMIT_NAMESPACE: `test-watch-${randomUUID()}`,
    });
    desk = legacyDesk(t);
    await w.poll();
    await w.newEvents();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  type Op =
    | { kind: 'file'; companyId: number; count: number; channelId: number; anonymous: boolean }
    | { kind: 'log'; companyId: number; pick: number; statusId: number; lineId: number | null }
    | { kind: 'recategorise'; companyId: number; pick: number; choice: number }
    | { kind: 'poll' };
  const companyId = fc.constantFrom(...COMPANIES);
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('file' as const),
      companyId,
      // Several at once: a burst longer than the head's pages.
      count: fc.integer({ min: 1, max: 9 }),
      channelId: fc.integer({ min: 1, max: 4 }),
      anonymous: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('log' as const),
      companyId,
      pick: fc.nat(),
      statusId: fc.constantFrom(1, 11, 12, 13, 14, 21),
      lineId: fc.option(fc.integer({ min: 1, max: 3 })),
    }),
    fc.record({ kind: fc.constant('recategorise' as const), companyId, pick: fc.nat(), choice: fc.nat() }),
    fc.constant({ kind: 'poll' as const }),
  );
  /**
   * Whole: a sweep page holds a whole table, and every `poll` step is checked exactly. Small: a head of
   * 3 rows, two pages at most, and a sweep of 40 rows, so a table takes several polls; `poll` steps
   * are unchecked polls, and the events are checked to lead from the state before to the state after.
   */
  const budgets = fc.constantFrom(
    { name: 'whole', budget: {} as Partial<WatchBudget> },
    { name: 'small', budget: { headPageSize: 3, headPages: 2, sweepPageSize: 40 } },
  );

  type State = Map<string, { lineId: number | null; statusId: number | null }>;
  const key = (companyId: number, caseId: number, binding: string) => `${companyId}:${caseId}:${binding}`;
  async function legacyState(): Promise<State> {
    const store = await w.store();
    const state: State = new Map();
    for (const companyId of COMPANIES) {
      for (const row of await desk.table(companyId)) {
        state.set(key(companyId, row.caseId, store.cases.bind(row).binding), {
          lineId: row.caseCaseLineId,
          statusId: row.caseCaseStatusId,
        });
      }
    }
    return state;
  }

  /** The events a poll must write: the differences between the legacy now and at the last poll. */
  function expectedEvents(before: State, after: State): string[] {
    const out: string[] = [];
    for (const [k, now] of after) {
      const was = before.get(k);
      if (!was) out.push(`case-filed ${k}`);
      else {
        if (was.lineId !== now.lineId) out.push(`case-routed ${k} ${was.lineId}>${now.lineId}`);
        if (was.statusId !== now.statusId) out.push(`status-changed ${k} ${was.statusId}>${now.statusId}`);
      }
    }
    return out.sort();
  }
  const describeEvent = (e: Event) => {
    const k = key(e.companyId, e.caseId, e.caseBinding);
    if (e.kind === 'case-routed') return `case-routed ${k} ${e.facts.fromLineId}>${e.facts.toLineId}`;
    if (e.kind === 'status-changed')
      return `status-changed ${k} ${e.facts.fromStatusId}>${e.facts.toStatusId}`;
    return `${e.kind} ${k}`;
  };

  /** `before` with the events applied in their order; throws on an event that does not follow. */
  function replay(before: State, events: readonly Event[]): State {
    const state: State = new Map([...before].map(([k, v]) => [k, { ...v }]));
    for (const e of events) {
      const k = key(e.companyId, e.caseId, e.caseBinding);
      const was = state.get(k);
      if (e.kind === 'case-filed') {
        expect(was, `filed twice: ${k}`).toBeUndefined();
        state.set(k, { lineId: e.lineId, statusId: e.facts.statusId as number });
      } else if (e.kind === 'case-routed') {
        expect(was?.lineId, `routed from elsewhere: ${k}`).toBe(e.facts.fromLineId);
        expect(e.facts.toLineId).not.toBe(e.facts.fromLineId);
        was!.lineId = e.facts.toLineId as number | null;
      } else {
        expect(was?.statusId, `status from elsewhere: ${k}`).toBe(e.facts.fromStatusId);
        expect(e.facts.toStatusId).not.toBe(e.facts.fromStatusId);
        was!.statusId = e.facts.toStatusId as number | null;
      }
    }
    return state;
  }

  it('keeps the index equal to the legacy and writes exactly the changes as events', async () => {
    await fc.assert(
      fc.asyncProperty(
        budgets,
        fc.array(op, { minLength: 1, maxLength: 12 }),
        async ({ name, budget }, ops) => {
          let before = await legacyState();
          let pending: Event[] = [];
          /**
           * A whole rotation of every company's sweep: ⌈rows / page⌉ polls, one more for the cursor (a
           * small run before may have left it inside a table).
           */
          const rotation = async () => {
            if (name === 'whole') return 2;
            let most = 0;
            for (const id of COMPANIES) most = Math.max(most, (await desk.table(id)).length);
            return Math.ceil(most / 40) + 1;
          };
          const pollOnce = async () => {
            const report = await w.poll(budget);
            expect(report.failedCompanies).toBe(0);
            pending.push(...(await w.newEvents()));
          };
          const settle = async () => {
            const after = await legacyState();
            for (let n = await rotation(); n > 0; n--) await pollOnce();
            if (name === 'whole')
              expect(pending.map(describeEvent).sort()).toEqual(expectedEvents(before, after));
            expect(replay(before, pending)).toEqual(after);
            for (const id of COMPANIES) await expectIndexEqualsLegacy(w, desk, id);
            before = after;
            pending = [];
          };
          for (const o of ops) {
            if (o.kind === 'poll') {
              if (name === 'whole') await settle();
              else await pollOnce();
            } else if (o.kind === 'file') {
              for (let n = 0; n < o.count; n++) {
                await desk.file(o.companyId, { channelId: o.channelId, anonymous: o.anonymous });
              }
            } else {
              const rows = await desk.table(o.companyId);
              const row = rows[o.pick % rows.length]!;
              if (o.kind === 'log') {
                // A case without a line takes one whatever the status (the legacy asks for it at 1 and 11).
                const lineId = row.caseCaseLineId === null ? (o.lineId ?? 1) : o.lineId;
                await desk.log(o.companyId, row.caseId, o.statusId, lineId);
              } else {
                const choices = await desk.categories(o.companyId);
                await desk.recategorise(o.companyId, row.caseId, choices[o.choice % choices.length]!);
              }
            }
          }
          await settle();
        },
      ),
      { numRuns: 16 },
    );
  }, 300_000);
});
