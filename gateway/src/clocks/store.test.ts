/**
 * The clock inputs' store query on the machine's PostgreSQL: it is one named prepared statement whatever
 * the number of case ids, and PostgreSQL ends up running it from a generic plan (no planning per read,
 * docs/adr/0043-prepared-clock-query.md). Its answers are checked end to end in clocks.test.ts on both
 * engines.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BindingTable, caseBinder } from '../store/case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres } from '../store/database.ts';
import { sql } from '../store/drizzle.ts';
import { sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { createTestDatabase, ENGINES, type TestDatabase } from '../test/databases.ts';
import { type ClockRowInput, clockInputsOf, saveClockRows } from './store.ts';

const mismatches: { table: BindingTable; caseId: number }[] = [];
const binder = caseBinder(randomBytes(32), (table, ref) => mismatches.push({ table, caseId: ref.caseId }));
const storeOn = (database: Database): Store => ({
  db: database.db,
  engine: database.engine,
  embedded: database.embedded,
  sealer: sealer([{ id: 'a', key: randomBytes(32) }]),
  cases: binder,
});
const caseOf = (
  companyId: number,
  caseId: number,
  number = `WBS-${caseId}`,
  created = '2026-11-02T09:00:00',
) => binder.bind({ caseCompanyId: companyId, caseId, caseNumber: number, caseCreated: created });
const clockRow = (ref: ReturnType<typeof caseOf>, ackDays = 7): ClockRowInput => ({
  companyId: ref.companyId,
  caseId: ref.caseId,
  caseBinding: ref.binding,
  filedAt: ref.filedAt ?? '',
  ackDays,
  feedbackMonths: 3,
  statusIdSeen: 1,
  logAcknowledgedAt: null,
  logAnsweredAt: null,
});

describe('clock inputs on postgresql', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let store: Store;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openPostgres(testDatabase.url, () => {});
    store = storeOn(database);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('reads one id and a page of ids through the same prepared statement, planned once', async () => {
    await saveClockRows(store, [clockRow(caseOf(3, 7))]);
    const page = Array.from({ length: 25 }, (_, i) => caseOf(3, i + 1));
    for (let round = 0; round < 6; round++) {
      const one = await clockInputsOf(store, 3, [caseOf(3, 7)]);
      expect([...one.rows.keys()]).toEqual([7]);
      const many = await clockInputsOf(store, 3, page);
      expect(many.rows.get(7)?.filedAt).toBe('2026-11-02T09:00:00');
      expect(many.rows.size).toBe(1);
    }
    // No ids at all (a page without readable filing times) is the same statement, answering nothing.
    const none = await clockInputsOf(store, 3, []);
    expect(none.rows.size).toBe(0);
    expect(none.messages.size).toBe(0);
    // Sequential reads reuse the pool's last idle connection: the one asked next.
    const { rows } = (await database.db.execute(
      sql`select name, generic_plans, custom_plans from pg_prepared_statements`,
    )) as unknown as { rows: { name: string; generic_plans: string; custom_plans: string }[] };
    expect(rows.map((row) => row.name)).toEqual(['wbs_list_inputs']);
    expect(Number(rows[0]!.generic_plans)).toBeGreaterThan(0);
    expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
  });
});

describe.each(ENGINES)('clock rows of a reissued case id on $engine', ({ engine }) => {
  let testDatabase: TestDatabase | undefined;
  let database: Database;
  let store: Store;

  beforeAll(async () => {
    if (engine === 'postgresql') testDatabase = await createTestDatabase();
    database = testDatabase
      ? await openPostgres(testDatabase.url, () => {})
      : await openEmbedded(MEMORY_DATA_DIR);
    store = storeOn(database);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('leaves out and then replaces whole a clock kept for the earlier case; its promise is not inherited', async () => {
    const earlier = caseOf(4, 40, 'WBS-40000001', '2026-10-01T09:00:00');
    await saveClockRows(store, [{ ...clockRow(earlier, 3), logAcknowledgedAt: '2026-10-02T10:00:00' }]);
    const later = caseOf(4, 40, 'WBS-40000002', '2026-11-20T10:00:00');
    mismatches.length = 0;
    expect((await clockInputsOf(store, 4, [later])).rows.size).toBe(0);
    expect(mismatches).toEqual([{ table: 'case_clock', caseId: 40 }]);
    await saveClockRows(store, [clockRow(later, 10)]);
    const kept = (await clockInputsOf(store, 4, [later])).rows.get(40);
    expect(kept).toMatchObject({
      caseBinding: later.binding,
      filedAt: '2026-11-20T10:00:00',
      ackDays: 10,
      logAcknowledgedAt: null,
    });
    // Within one incarnation the promise made first stays.
    await saveClockRows(store, [clockRow(later, 5)]);
    expect((await clockInputsOf(store, 4, [later])).rows.get(40)?.ackDays).toBe(10);
  });

  it('keeps an unbound clock row with the same filing time, and its deadlines, binding it on the next write', async () => {
    const filed = caseOf(5, 50);
    await saveClockRows(store, [clockRow(filed, 4)]);
    await database.db.execute(sql`update case_clock set case_binding = null where case_id = 50`);
    mismatches.length = 0;
    expect((await clockInputsOf(store, 5, [filed])).rows.get(50)?.ackDays).toBe(4);
    await saveClockRows(store, [clockRow(filed, 9)]);
    expect((await clockInputsOf(store, 5, [filed])).rows.get(50)).toMatchObject({
      caseBinding: filed.binding,
      ackDays: 4,
    });
    // Another filing time under the same id is another case: left out.
    await database.db.execute(sql`update case_clock set case_binding = null where case_id = 50`);
    expect((await clockInputsOf(store, 5, [caseOf(5, 50, 'WBS-50', '2026-11-25T09:00:00')])).rows.size).toBe(
      0,
    );
    expect(mismatches).toEqual([{ table: 'case_clock', caseId: 50 }]);
  });

  it('takes the first handler messages of the case’s own incarnation only', async () => {
    const earlier = caseOf(6, 60, 'WBS-60', '2026-10-01T09:00:00');
    const later = caseOf(6, 60, 'WBS-61', '2026-11-20T10:00:00');
    const sealed = store.sealer.seal('{}', 'x');
    const insert = (ref: ReturnType<typeof caseOf>, binding: string | null, at: string) =>
      database.db.execute(sql`insert into case_message
          (company_id, case_id, case_binding, author_kind, author_user_id, author_user_type, key_id, sealed, created_at)
        values (6, ${ref.caseId}, ${binding}, 'handler', 1, 2, ${sealed.keyId}, ${sealed.sealed}, ${at}::timestamptz)`);
    await insert(earlier, earlier.binding, '2026-10-01T03:00:00Z');
    await insert(earlier, null, '2026-10-02T03:00:00Z');
    await insert(later, later.binding, '2026-11-21T03:00:00Z');
    await insert(later, null, '2026-11-22T03:00:00Z');
    const { messages } = await clockInputsOf(store, 6, [later]);
    expect(messages.get(60)).toEqual(['2026-11-21T10:00:00', '2026-11-22T10:00:00']);
  });
});
