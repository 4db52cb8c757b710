/**
 * The audit trail through the real app on both store engines: staff actions become chained records
 * (reporter actions never do), parallel appends keep one chain, and editing, deleting or truncating
 * records is named by the checker. A store that cannot write withholds a case read (fail closed).
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc, sql } from '../store/drizzle.ts';
import { auditChainHead, auditRecord } from '../store/schema.ts';
import { createTestDatabase, ENGINES, storeTestEnv } from '../test/databases.ts';
import { browser, buildTestApp, demoAccount, ORIGIN, signIn, type TestApp } from '../test/helpers.ts';
import { AuditAppender, type AuditEntry, appendAudit, verifyAuditChain } from './store.ts';
import { runAuditVerify } from './verify.ts';

const [, investigasi] = demoCases;
/** The seed's case id of `investigasi` (company 1). */
const CASE_ID = 2;

const entryOf = (event: string, i: number, userId = 9): AuditEntry => ({
  event,
  actor: { userId, userType: 1, role: null, companyId: null, partnerId: null },
  method: 'GET',
  route: null,
  fields: { i },
});

describe.each(ENGINES)('audit trail on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>> | undefined;

  beforeAll(async () => {
    const env: Record<string, string> = { RATE_LIMIT_NAMESPACE: `test-audit-${randomUUID()}` };
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({ ...env, ...storeEnv.env });
    await t.app.store.open();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  const db = async () => (await t.app.store.open()).db;
  const records = async () =>
    (await db())
      .select({ seq: auditRecord.seq, event: auditRecord.event, body: auditRecord.body })
      .from(auditRecord)
      .orderBy(asc(auditRecord.seq));
  const staffGet = async (username: string, url: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: browser(await signIn(t.app, username, demoAccount(username).password)),
    });

  it('records staff sign-in and case read without report text or identity, and nothing of a tracker', async () => {
    const before = (await records()).length;
    const read = await staffGet('admin.kahuripan', `/cases/${CASE_ID}`);
    expect(read.statusCode, read.body).toBe(200);
    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking',
      headers: { origin: ORIGIN },
      payload: { caseNumber: investigasi.caseNumber, password: investigasi.password },
    });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const added = (await records()).slice(before);
    expect(added.map((r) => r.event)).toEqual(['sign-in', 'case-read']);
    const caseRead = JSON.parse(added[1]?.body ?? '{}');
    expect(caseRead).toMatchObject({
      event: 'case-read',
      actor: { userType: 2, companyId: 1 },
      route: '/api/v1/cases/:id',
      fields: { resource: 'case', resourceId: CASE_ID },
    });
    const caseBody = read.json() as Record<string, unknown>;
    for (const record of added) {
      for (const value of Object.values(caseBody)) {
        if (typeof value === 'string' && value.length > 8) expect(record.body).not.toContain(value);
      }
      expect(record.body).not.toContain(investigasi.caseNumber);
    }
    expect(await verifyAuditChain(await db())).toEqual({ ok: true, records: (await records()).length });
  });

  it('exports the trail as CSV: everything for type 1, own staff for a company admin, formulas defused', async () => {
    const store = await db();
    await appendAudit(store, {
      event: 'case-read',
      actor: { userId: 77, userType: 4, role: 1, companyId: 1, partnerId: null },
      method: 'GET',
      // Whatever reached a record, a spreadsheet must not run it as a formula.
      route: '=HYPERLINK("http://x.invalid","klik")',
      fields: { resource: 'case', resourceId: 5 },
    });
    const period = '?from=2020-01-01&to=2099-12-31';
    const all = await staffGet('admin', `/audit-trail/export${period}`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['content-type']).toMatch(/^text\/csv/);
    expect(all.headers['content-disposition']).toMatch(/JejakAudit 2020-01-01 sd 2099-12-31\.csv/);
    expect(all.body).toContain(`"'=HYPERLINK(""http://x.invalid"",""klik"")`);
    expect(all.body).not.toMatch(/(^|,)"=/m);
    const lines = all.body.trim().split('\r\n');
    expect([...all.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines[0]).toMatch(/"No","Waktu \(WIB\)","Peristiwa"/);

    const own = await staffGet('admin.kahuripan', `/audit-trail/export${period}`);
    expect(own.body).toContain('HYPERLINK');
    const foreign = await staffGet('admin.pakuan', `/audit-trail/export${period}`);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.body).not.toContain('HYPERLINK');
    expect(foreign.body).not.toContain('"Admin Perusahaan","1"');

    const partner = await staffGet('holding', `/audit-trail/export${period}`);
    expect(partner.statusCode).toBe(403);
    const reversed = await staffGet('admin', '/audit-trail/export?from=2026-02-01&to=2026-01-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors.from).toBe('Tanggal awal tidak boleh melebihi tanggal akhir');
    const events = (await records()).map((r) => r.event);
    expect(events).toContain('audit-trail-exported');
    expect(events).toContain('permission-denied');
  });

  it('records a master-data change once, from the route policy, and not a refused one', async () => {
    const cookie = await signIn(t.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
    const groups = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-category-groups',
      headers: browser(cookie),
    });
    const groupId = (groups.json() as { items: { id: number }[] }).items[0]?.id;
    const before = (await records()).length;
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/case-categories', headers: browser(cookie), payload });
    const created = await post({ name: `Kategori audit ${randomUUID().slice(0, 8)}`, groupId });
    expect(created.statusCode, created.body).toBe(201);
    expect((await post({ name: '', groupId })).statusCode).toBe(400);
    const changes = (await records()).slice(before).filter((r) => r.event === 'master-data-changed');
    expect(changes).toHaveLength(1);
    expect(JSON.parse(changes[0]?.body ?? '{}')).toMatchObject({
      method: 'POST',
      route: '/api/v1/case-categories',
      actor: { userType: 2, companyId: 1 },
      fields: { action: 'case-categories:manage', resourceId: null },
    });
  });

  it('keeps one chain under parallel appends', async () => {
    const actor = { userId: 9, userType: 1, role: null, companyId: null, partnerId: null };
    const store = await db();
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        appendAudit(store, { event: 'parallel', actor, method: 'GET', route: null, fields: { i } }),
      ),
    );
    const all = await records();
    expect(all.map((r) => r.seq)).toEqual(all.map((_, i) => i + 1));
    expect((await verifyAuditChain(store)).ok).toBe(true);
  });

  it('groups concurrent appends of one process into runs, chained in arrival order', async () => {
    const store = await db();
    const appender = new AuditAppender(store);
    const links = await Promise.all(
      Array.from({ length: 40 }, (_, i) => appender.append(entryOf('grouped', i))),
    );
    const first = links[0]?.seq ?? 0;
    expect(links.map((l) => l.seq)).toEqual(links.map((_, i) => first + i));
    const grouped = (await records()).filter((r) => r.event === 'grouped');
    expect(grouped.map((r) => JSON.parse(r.body).fields.i)).toEqual(links.map((_, i) => i));
    // Fewer transactions than records: a run's records share the time taken under the lock.
    const times = await store
      .selectDistinct({ at: auditRecord.at })
      .from(auditRecord)
      .where(sql`${auditRecord.event} = 'grouped'`);
    expect(times.length).toBeLessThan(40);
    expect((await verifyAuditChain(store)).ok).toBe(true);
  });

  it('answers parallel staff case reads, each after its own record, on one chain', async () => {
    const cookie = await signIn(t.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
    const before = (await records()).filter((r) => r.event === 'case-read').length;
    const reads = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.app.inject({ method: 'GET', url: `/api/v1/cases/${CASE_ID}`, headers: browser(cookie) }),
      ),
    );
    expect(reads.map((r) => r.statusCode)).toEqual(reads.map(() => 200));
    const after = (await records()).filter((r) => r.event === 'case-read').length;
    expect(after - before).toBe(12);
    expect((await verifyAuditChain(await db())).ok).toBe(true);
  });

  it('appends the next run of the process that wrote the last record in one statement, and under the lock once another wrote', async () => {
    const store = await db();
    const appender = new AuditAppender(store);
    const transactions = vi.spyOn(store, 'transaction');
    try {
      await appender.append(entryOf('own-head', 0)); // learns where the chain ends: under the lock
      const locked = transactions.mock.calls.length;
      const [second, third] = await Promise.all([
        appender.append(entryOf('own-head', 1)),
        appender.append(entryOf('own-head', 2)),
      ]);
      await appender.append(entryOf('own-head', 3));
      expect(transactions.mock.calls.length).toBe(locked); // no transaction: its head still held
      expect(third!.seq).toBe(second!.seq + 1);
      // Another process moves the head: the next optimistic run inserts nothing and is chained again.
      const other = await appendAudit(store, entryOf('other-process', 0));
      const after = await appender.append(entryOf('own-head', 4));
      expect(transactions.mock.calls.length).toBe(locked + 2);
      expect(after.seq).toBe(other.seq + 1);
      // Another writer is about (replicas under load): the next runs take the lock at once for a while.
      await appender.append(entryOf('own-head', 5));
      expect(transactions.mock.calls.length).toBe(locked + 3);
      const own = (await records()).filter((r) => r.event === 'own-head');
      expect(own.map((r) => JSON.parse(r.body).fields.i)).toEqual([0, 1, 2, 3, 4, 5]);
      expect((await verifyAuditChain(store)).ok).toBe(true);
    } finally {
      transactions.mockRestore();
    }
  });

  it('refuses every record of a failing run and leaves the chain as it was', async () => {
    const store = await db();
    const appender = new AuditAppender(store);
    const [head] = await store.select().from(auditChainHead);
    // An actor id past PostgreSQL's integer range: the run's insert fails inside its transaction.
    const run = [entryOf('doomed', 0), entryOf('doomed', 1, 2 ** 40), entryOf('doomed', 2)];
    const settled = await Promise.allSettled(run.map((entry) => appender.append(entry)));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await records()).some((r) => r.event === 'doomed')).toBe(false);
    const [headAfter] = await store.select().from(auditChainHead);
    expect(headAfter).toEqual(head);
    const next = await appender.append(entryOf('after-failure', 0));
    expect(next.seq).toBe((head?.seq ?? 0) + 1);
    expect((await verifyAuditChain(store)).ok).toBe(true);
  });

  it('names the first broken link after an edit, a deletion in the middle and a cut tail', async () => {
    const store = await db();
    const all = await records();
    expect(all.length).toBeGreaterThan(5);
    const edited = all[2];
    const original = edited?.body ?? '';
    await store.execute(
      sql`update audit_record set body = ${original.replace('"event":"', '"event":"x')} where seq = 3`,
    );
    expect(await verifyAuditChain(store)).toMatchObject({ ok: false, broken: { seq: 3 } });
    await store.execute(sql`update audit_record set body = ${original} where seq = 3`);
    expect((await verifyAuditChain(store)).ok).toBe(true);

    // Moving the time in the column only (the hashed body unchanged) is also caught.
    await store.execute(sql`update audit_record set at = at - interval '1 day' where seq = 2`);
    expect(await verifyAuditChain(store)).toMatchObject({ ok: false, broken: { seq: 2 } });
    await store.execute(sql`update audit_record set at = at + interval '1 day' where seq = 2`);

    await store.execute(sql`delete from audit_record where seq = 4`);
    expect(await verifyAuditChain(store)).toMatchObject({ ok: false, broken: { seq: 4 } });

    const last = all.length;
    await store.execute(sql`delete from audit_record where seq >= 4`);
    expect(await verifyAuditChain(store)).toMatchObject({
      ok: false,
      broken: { seq: 4, reason: expect.stringMatching(/kepala rantai menunjuk #\d+/) },
    });
    expect(last).toBeGreaterThan(4);
    if (storeEnv?.env.DATABASE_URL) {
      // `pnpm audit:verify` against the same database names the same link.
      const lines: string[] = [];
      expect(
        await runAuditVerify({ DATABASE_URL: storeEnv.env.DATABASE_URL }, (line) => lines.push(line)),
      ).toBe(1);
      expect(lines.join('\n')).toMatch(/RUSAK pada catatan #4/);
    }
  });
});

describe('audit trail of two gateway processes on one PostgreSQL', () => {
  it("interleaves both processes' runs on one verifiable chain", async () => {
    const database = await createTestDatabase();
    const env = {
      RATE_LIMIT_NAMESPACE: `test-audit-${randomUUID()}`,
      DATABASE_URL: database.url,
      STORE_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64')}`,
    };
    const apps = [await buildTestApp(env), await buildTestApp(env)];
    try {
      const cookies = await Promise.all(
        apps.map((a) => signIn(a.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password)),
      );
      const stores = await Promise.all(apps.map(async (a) => (await a.app.store.open()).db));
      const appenders = stores.map((store) => new AuditAppender(store));
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i++) {
        apps.forEach((a, n) => {
          work.push(
            a.app
              .inject({ method: 'GET', url: `/api/v1/cases/${CASE_ID}`, headers: browser(cookies[n] ?? '') })
              .then((read) => expect(read.statusCode, read.body).toBe(200)),
          );
          work.push(appenders[n]!.append(entryOf(`process-${n}`, i)));
        });
      }
      await Promise.all(work);
      const store = stores[0]!;
      const all = await store
        .select({ seq: auditRecord.seq, event: auditRecord.event })
        .from(auditRecord)
        .orderBy(asc(auditRecord.seq));
      expect(all.map((r) => r.seq)).toEqual(all.map((_, i) => i + 1));
      expect(all.filter((r) => r.event === 'case-read')).toHaveLength(20);
      expect(all.filter((r) => r.event === 'process-0')).toHaveLength(10);
      expect(all.filter((r) => r.event === 'process-1')).toHaveLength(10);
      expect(await verifyAuditChain(store)).toEqual({ ok: true, records: all.length });
    } finally {
      for (const a of apps) await a.close();
      await database.drop();
    }
  }, 120_000);
});

describe('audit trail when the store cannot write', () => {
  it('withholds a case read (fail closed) and logs the missed record', async () => {
    const t = await buildTestApp({ RATE_LIMIT_NAMESPACE: `test-audit-${randomUUID()}` });
    try {
      const store = await t.app.store.open();
      const cookie = await signIn(t.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
      await store.db.execute(sql`drop table audit_chain_head`);
      // Parallel reads wait in one run: every one of them is withheld.
      const [read, ...others] = await Promise.all(
        Array.from({ length: 4 }, () =>
          t.app.inject({ method: 'GET', url: `/api/v1/cases/${CASE_ID}`, headers: browser(cookie) }),
        ),
      );
      if (!read) throw new Error('no read');
      expect(others.map((r) => r.statusCode)).toEqual([503, 503, 503]);
      expect(read.statusCode).toBe(503);
      expect(read.json().type).toMatch(/store-unavailable$/);
      expect(read.body).not.toContain(investigasi.caseNumber);
      expect(t.logs.some((line) => line.auditStoreFailed === true && line.event === 'case-read')).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);
});
