/**
 * The clock inputs' store query on the machine's PostgreSQL: it is one named prepared statement whatever
 * the number of case ids, and PostgreSQL ends up running it from a generic plan (no planning per read,
 * decision 155). Its answers are checked end to end in clocks.test.ts on both engines.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../store/database.ts';
import { sql } from '../store/drizzle.ts';
import { sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { createTestDatabase, type TestDatabase } from '../store/test-databases.ts';
import { clockInputsOf, saveClockRows } from './store.ts';

describe('clock inputs on postgresql', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let store: Store;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openPostgres(testDatabase.url, () => {});
    store = { db: database.db, engine: database.engine, sealer: sealer([{ id: 'a', key: randomBytes(32) }]) };
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('reads one id and a page of ids through the same prepared statement, planned once', async () => {
    await saveClockRows(store, [
      {
        companyId: 3,
        caseId: 7,
        filedAt: '2026-11-02T09:00:00',
        ackDays: 7,
        feedbackMonths: 3,
        statusIdSeen: 1,
        logAcknowledgedAt: null,
        logAnsweredAt: null,
      },
    ]);
    const page = Array.from({ length: 25 }, (_, i) => i + 1);
    for (let round = 0; round < 6; round++) {
      const one = await clockInputsOf(store, 3, [7]);
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
    expect(rows.map((row) => row.name)).toEqual(['wbs_clock_inputs']);
    expect(Number(rows[0]!.generic_plans)).toBeGreaterThan(0);
    expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
  });
});
