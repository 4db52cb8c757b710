/**
 * The overdue filter's candidates (store.ts overdueCandidates): a case answered at the status the index
 * holds is handled and never read; every case whose kept facts could still make it late is.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openPostgres } from '../store/database.ts';
import type { Store } from '../store/plugin.ts';
import { caseClock, caseIndex } from '../store/schema.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { overdueCandidates } from './store.ts';

let pg: TestDatabase;
let database: Database;

beforeAll(async () => {
  pg = await createTestDatabase();
  database = await openPostgres(pg.url, () => {});
}, 120_000);
afterAll(async () => {
  await database?.close();
  await pg?.drop();
});

const FILED = '2025-01-10T09:00:00';

it('leaves out only the cases answered at their current status', async () => {
  // caseId → [index status, clock row: status seen, acknowledged, answered] (null: no clock row)
  const cases: [number, number, [number, string | null, string | null] | null][] = [
    [1, 14, [14, '2025-01-11T09:00:00', '2025-02-01T09:00:00']], // answered, facts current: handled
    [2, 15, [14, '2025-01-11T09:00:00', '2025-02-01T09:00:00']], // moved on since: facts to re-read
    [3, 11, [11, '2025-01-11T09:00:00', null]], // acknowledged, not answered: may be late
    [4, 1, null], // never read
    [5, 21, [21, '2025-01-11T09:00:00', '2025-01-11T09:00:00']], // final: never a candidate
  ];
  await database.db.insert(caseIndex).values(
    cases.map(([caseId, statusId]) => ({
      companyId: 7,
      caseId,
      caseBinding: `b${caseId}`,
      statusId,
      filedAt: FILED,
    })),
  );
  await database.db.insert(caseClock).values(
    cases.flatMap(([caseId, , clock]) =>
      clock
        ? [
            {
              companyId: 7,
              caseId,
              caseBinding: `b${caseId}`,
              filedAt: FILED,
              ackDays: 7,
              feedbackMonths: 3,
              statusIdSeen: clock[0],
              logAcknowledgedAt: clock[1],
              logAnsweredAt: clock[2],
            },
          ]
        : [],
    ),
  );
  const store = { db: database.db } as Store;
  const candidates = await overdueCandidates(store, {
    companyId: 7,
    finalStatusIds: [13, 21],
    filedUpTo: '2026-01-01',
  });
  expect(candidates.map((c) => c.caseId)).toEqual([2, 3, 4]);
  // An answer kept for another incarnation of the case is not this one's.
  await database.db
    .insert(caseIndex)
    .values({ companyId: 7, caseId: 6, caseBinding: 'b6', statusId: 14, filedAt: FILED });
  await database.db.insert(caseClock).values({
    companyId: 7,
    caseId: 6,
    caseBinding: 'an-earlier-incarnation',
    filedAt: '2024-01-01T00:00:00',
    ackDays: 7,
    feedbackMonths: 3,
    statusIdSeen: 14,
    logAcknowledgedAt: '2024-01-02T00:00:00',
    logAnsweredAt: '2024-02-01T00:00:00',
  });
  const again = await overdueCandidates(store, {
    companyId: 7,
    finalStatusIds: [13, 21],
    filedUpTo: '2026-01-01',
  });
  expect(again.map((c) => c.caseId)).toEqual([2, 3, 4, 6]);
});
