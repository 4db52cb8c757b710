/**
 * Retention end to end through the real app against legacy-sim: only the administrator (type 1) may
 * read or change retention periods, the register and the records of processing; bad inputs are 400
 * whatever they are; the scan deletes the gateway's personal data of the seeded case closed 13 months
 * ago (WBS-10000005) and registers it, and touches nothing of an open case or a recently closed one;
 * marking it destroyed is audited and a second mark is 409. A scan and a mark need a second factor
 * used within ten minutes (step-up).
 */
import { randomUUID } from 'node:crypto';
import { demoCases, retiredDemoCase } from '@wbs/legacy-sim';
import type { DisposalListReply } from '@wbs/shared/api/retention';
import { USER_TYPE_IDS } from '@wbs/shared/constants';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../store/drizzle.ts';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoAccount, ORIGIN, signInAs, type TestApp } from '../../test/helpers.ts';
import { legacyDesk } from '../../test/legacy-cases.ts';
import { type Agent, agent, enrolTotp, passwordSignIn, withFactorClaim } from '../../test/second-factor.ts';

const [, investigasi, ditutup] = demoCases;

describe.each(ENGINES)('retention and disposal on $engine', ({ engine }) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  const cookies = new Map<number, string>();
  const call = async (
    type: number | null,
    method: 'GET' | 'PUT' | 'DELETE' | 'POST',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: type === null ? { origin: ORIGIN } : browser(cookies.get(type)!),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const rows = async (text: ReturnType<typeof sql>) => {
    const store = await t.app.store.open();
    return ((await store.db.execute(text)) as unknown as { rows: Record<string, unknown>[] }).rows;
  };
  const countOf = async (table: string, companyId: number, caseId: number) =>
    Number(
      (
        await rows(
          sql`select count(*) as n from ${sql.raw(table)} where company_id = ${companyId} and case_id = ${caseId}`,
        )
      )[0]?.n,
    );
  const postAsTracker = (tracked: { caseNumber: string; password: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/messages',
      headers: { origin: ORIGIN, 'idempotency-key': randomUUID() },
      payload: {
        caseNumber: tracked.caseNumber,
        password: tracked.password,
        text: 'Pesan pelapor untuk diuji',
      },
    });
  let retired: { companyId: number; caseId: number };
  let open: { companyId: number; caseId: number };
  let recent: { companyId: number; caseId: number };

  beforeAll(async () => {
    const store = await storeTestEnv(engine);
    drop = store.drop;
    t = await buildTestApp({
      ...store.env,
      LEGACY_SERVICE_USERNAME: 'admin',
      LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
      TRACKING_FAILURE_FLOOR_MS: '20',
    });
    for (const type of USER_TYPE_IDS) cookies.set(type, await signInAs(t.app, type));
    const desk = legacyDesk(t);
    const find = async (companyId: number, caseNumber: string) => {
      const row = (await desk.table(companyId)).find((c) => c.caseNumber === caseNumber);
      if (!row) throw new Error(`seed lacks ${caseNumber}`);
      return { companyId, caseId: row.caseId };
    };
    retired = await find(1, retiredDemoCase.caseNumber);
    open = await find(1, investigasi.caseNumber);
    recent = await find(2, ditutup.caseNumber);
    // The case index, filled by one poll of the watcher (its first sweep, silently).
    const report = await t.app.caseIndex.poll();
    expect(report.complete).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('lets only the administrator in: every other user type is 403, a guest 401', async () => {
    const reads = ['/disposals', '/disposals/summary'];
    for (const type of [2, 3, 4, 5, 6]) {
      for (const url of reads) expect((await call(type, 'GET', url)).statusCode, `${type} ${url}`).toBe(403);
      expect((await call(type, 'POST', '/disposals/1/destroyed', {})).statusCode).toBe(403);
      expect((await call(type, 'POST', '/disposals/scan')).statusCode).toBe(403);
    }
    for (const url of reads) expect((await call(null, 'GET', url)).statusCode, url).toBe(401);
    expect((await call(null, 'POST', '/disposals/scan')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/disposals/1/destroyed', {})).statusCode).toBe(401);
    for (const url of reads) expect((await call(1, 'GET', url)).statusCode, url).toBe(200);
  });

  it('purges the old closed case and registers it, leaving open and recent cases whole', async () => {
    for (const tracked of [retiredDemoCase, investigasi, ditutup]) {
      expect((await postAsTracker(tracked)).statusCode, tracked.caseNumber).toBe(201);
    }
    // A staff read of the reporter's identity (an identity-access row), and a handler's notice linked to it.
    expect((await call(2, 'GET', `/cases/${retired.caseId}`)).statusCode).toBe(200);
    const [binding] = await rows(
      sql`select case_binding from case_index where company_id = ${retired.companyId} and case_id = ${retired.caseId}`,
    );
    await rows(sql`insert into notice (user_id, kind, company_id, company_name, case_id, case_binding, dedupe)
      values (1, 'reporter-message', ${retired.companyId}, 'X', ${retired.caseId}, ${binding!.case_binding as string}, ${randomUUID()})`);
    expect(await countOf('case_message', retired.companyId, retired.caseId)).toBe(1);
    expect(await countOf('identity_access', retired.companyId, retired.caseId)).toBeGreaterThan(0);
    // The tracker came back (its proof and its message): one fact of the case, whatever the count.
    expect(await countOf('case_return', retired.companyId, retired.caseId)).toBe(1);

    const scan = await call(1, 'POST', '/disposals/scan');
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json()).toEqual({ purged: 1, registered: 1 });

    expect(await countOf('case_message', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('case_conversation', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('identity_access', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('notice', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('case_return', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('case_index', retired.companyId, retired.caseId)).toBe(1);
    for (const kept of [open, recent]) {
      expect(await countOf('case_message', kept.companyId, kept.caseId)).toBe(1);
      expect(await countOf('case_return', kept.companyId, kept.caseId)).toBe(1);
      expect(await countOf('case_disposal', kept.companyId, kept.caseId)).toBe(0);
    }
    // One record, counts only.
    const records = await rows(sql`select body from audit_record where event = 'retention-purged'`);
    expect(records).toHaveLength(1);
    const fields = JSON.parse(records[0]!.body as string).fields;
    expect(fields).toMatchObject({
      companyId: retired.companyId,
      caseId: retired.caseId,
      messages: 1,
      noticeLinks: 1,
      returns: 1,
    });
    expect(records[0]!.body).not.toContain(retiredDemoCase.caseNumber);

    // The register shows it, waiting; nothing of the reporter, no complaint number.
    const list = await call(1, 'GET', '/disposals?state=waiting');
    const reply = list.json() as DisposalListReply;
    expect(reply.total).toBe(1);
    expect(reply.summary).toEqual({ waiting: 1, overdue: 0, destroyed: 0 });
    const [item] = reply.items;
    expect(item).toMatchObject({
      companyId: 1,
      caseId: retired.caseId,
      statusName: 'Ditutup',
      state: 'waiting',
      destroyedAt: null,
    });
    expect(item!.companyName).toBeTruthy();
    expect(item!.closedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(item!.dueAt).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(item!.storePurgedAt).not.toBeNull();
    expect(list.body).not.toContain(retiredDemoCase.caseNumber);
    expect((await call(1, 'GET', '/disposals/summary')).json()).toEqual({ waiting: 1, overdue: 0 });

    // Again: nothing more to do (the register's entry is the claim).
    expect((await call(1, 'POST', '/disposals/scan')).json()).toEqual({ purged: 0, registered: 0 });
    expect(await countOf('case_disposal', retired.companyId, retired.caseId)).toBe(1);
  });

  it('deletes what a registered case gathers afterwards, at the next scan, with a record of its own', async () => {
    // The tracker may still write on a closed case, and a handler may open it again.
    expect((await postAsTracker(retiredDemoCase)).statusCode).toBe(201);
    expect((await call(2, 'GET', `/cases/${retired.caseId}`)).statusCode).toBe(200);
    expect(await countOf('case_message', retired.companyId, retired.caseId)).toBe(1);
    expect(await countOf('identity_access', retired.companyId, retired.caseId)).toBeGreaterThan(0);
    const scan = await call(1, 'POST', '/disposals/scan');
    expect(scan.json()).toEqual({ purged: 1, registered: 0 });
    expect(await countOf('case_message', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('identity_access', retired.companyId, retired.caseId)).toBe(0);
    expect(await countOf('case_disposal', retired.companyId, retired.caseId)).toBe(1);
    const records = await rows(
      sql`select body from audit_record where event = 'retention-purged' order by seq desc limit 1`,
    );
    expect(JSON.parse(records[0]!.body as string).fields).toMatchObject({
      caseId: retired.caseId,
      again: true,
      messages: 1,
    });
    // The open case's data is untouched, and a scan with nothing new does nothing.
    expect(await countOf('case_message', open.companyId, open.caseId)).toBe(1);
    expect((await call(1, 'POST', '/disposals/scan')).json()).toEqual({ purged: 0, registered: 0 });
  });

  it('marks an entry destroyed once: audited, then 409; unknown ids 404; notes checked', async () => {
    const [item] = ((await call(1, 'GET', '/disposals')).json() as DisposalListReply).items;
    const id = item!.id;
    const controls = await call(1, 'POST', `/disposals/${id}/destroyed`, { note: 'baris\u0007berbunyi' });
    expect(controls.statusCode).toBe(400);
    expect(controls.json().errors.note).toBe('Catatan hanya boleh berisi teks biasa');
    const bidi = await call(1, 'POST', `/disposals/${id}/destroyed`, { note: 'abc\u202edef' });
    expect(bidi.statusCode).toBe(400);
    const long = await call(1, 'POST', `/disposals/${id}/destroyed`, { note: 'a'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.note).toBe('Maksimal 500 Karakter');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 501, maxLength: 700 }).filter((s) => s.trim().length > 500),
          fc.integer(),
          fc.constant(null),
          fc.array(fc.string()),
          fc.string().map((s) => `${s}\u0000`),
        ),
        async (note) => {
          const res = await call(1, 'POST', `/disposals/${id}/destroyed`, { note });
          expect(res.statusCode, JSON.stringify(note)).toBe(400);
        },
      ),
      { numRuns: 30 },
    );
    expect((await call(1, 'POST', '/disposals/999999999/destroyed', {})).statusCode).toBe(404);
    const marked = await call(1, 'POST', `/disposals/${id}/destroyed`, {
      note: 'Dimusnahkan di sistem lama\nberita acara 12',
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().message).toBe('Laporan ditandai sudah dimusnahkan');
    const again = await call(1, 'POST', `/disposals/${id}/destroyed`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().type).toMatch(/already-destroyed$/);
    const destroyed = (await call(1, 'GET', '/disposals?state=destroyed')).json() as DisposalListReply;
    expect(destroyed.items[0]).toMatchObject({
      id,
      state: 'destroyed',
      note: 'Dimusnahkan di sistem lama\nberita acara 12',
    });
    expect(destroyed.items[0]!.destroyedByName).toBeTruthy();
    expect(destroyed.summary).toEqual({ waiting: 0, overdue: 0, destroyed: 1 });
    expect(((await call(1, 'GET', '/disposals?state=waiting')).json() as DisposalListReply).total).toBe(0);
    const events = (await rows(sql`select event from audit_record where event = 'disposal-destroyed'`))
      .length;
    expect(events).toBe(1);
  });

  it('says the legacy is unavailable, rather than "nothing due", when the scan could not read it', async () => {
    // The status table is a cached reference list: a cold cache, as after a start with the legacy down.
    t.app.referenceCache.invalidate('case-statuses');
    t.legacy.setKnobs({ down: true });
    try {
      const scan = await call(1, 'POST', '/disposals/scan');
      expect(scan.statusCode, scan.body).toBe(503);
      expect(scan.json().type).toMatch(/legacy-unavailable$/);
      expect(Number(scan.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      t.legacy.setKnobs({});
    }
    expect((await call(1, 'POST', '/disposals/scan')).statusCode).toBe(200);
  });

  it('refuses bad register queries', async () => {
    for (const query of ['state=gone', 'page=0', 'page=abc', 'size=101', 'size=0', 'state=WAITING']) {
      expect((await call(1, 'GET', `/disposals?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe('the scan and the mark behind step-up', () => {
  let u: TestApp;
  let fresh: Agent;
  let stale: Agent;
  beforeAll(async () => {
    u = await buildTestApp({ SECOND_FACTOR_TYPES: '1' });
    const { agent: a } = await passwordSignIn(u.app, 'admin', demoAccount('admin').password);
    await enrolTotp(a);
    const at = (seconds: number) => withFactorClaim(u.app, a.cookie(), (f) => ({ ...f, at: seconds }));
    const now = Math.floor(Date.now() / 1000);
    fresh = agent(u.app, at(now));
    stale = agent(u.app, at(now - 11 * 60));
  }, 60_000);
  afterAll(async () => u?.close());

  it('asks for a recent factor before a scan runs and before a case is marked destroyed', async () => {
    const scan = await stale.call('POST', '/disposals/scan');
    expect(scan.statusCode, scan.body).toBe(401);
    expect(scan.json().type).toMatch(/step-up-required$/);
    const marked = await stale.call('POST', '/disposals/1/destroyed', { note: 'berita acara' });
    expect(marked.statusCode, marked.body).toBe(401);
    expect(marked.json().type).toMatch(/step-up-required$/);
    // Nothing ran: the register is as empty as before.
    expect((await fresh.call('GET', '/disposals')).json().total).toBe(0);
    // With the factor used just now both go on to their own answers.
    expect((await fresh.call('POST', '/disposals/scan')).statusCode).toBe(200);
    expect((await fresh.call('POST', '/disposals/999999/destroyed', {})).statusCode).toBe(404);
  });
});
