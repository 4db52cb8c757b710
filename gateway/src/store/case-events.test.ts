/**
 * Case events commit in the order of their ids (case-events.ts), on PostgreSQL where two writers
 * really run at once: a second writer waits for the first one's transaction, so a reader that sees
 * the second's event has seen every lower id as well.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { appendCaseEvents, type NewCaseEvent } from './case-events.ts';
import { type Database, openPostgres } from './database.ts';
import { asc, desc, gt } from './drizzle.ts';
import { caseEvent } from './schema.ts';

let pg: TestDatabase;
let writerA: Database;
let writerB: Database;

beforeAll(async () => {
  pg = await createTestDatabase();
  writerA = await openPostgres(pg.url, () => {});
  writerB = await openPostgres(pg.url, () => {});
}, 120_000);
afterAll(async () => {
  await writerA?.close();
  await writerB?.close();
  await pg?.drop();
});

const event = (caseId: number): NewCaseEvent => ({
  kind: 'reporter-message',
  companyId: 1,
  caseId,
  caseBinding: `binding-${caseId}`,
  lineId: null,
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a second writer waits until the first commits, and no reader sees a later id before an earlier one', async () => {
  const [start] = await writerA.db
    .select({ id: caseEvent.id })
    .from(caseEvent)
    .orderBy(desc(caseEvent.id))
    .limit(1);
  const after = start?.id ?? 0;
  const order: string[] = [];
  let releaseA: () => void = () => {};
  const heldA = new Promise<void>((resolve) => {
    releaseA = resolve;
  });
  let insertedA: () => void = () => {};
  const aInserted = new Promise<void>((resolve) => {
    insertedA = resolve;
  });
  const a = writerA.db.transaction(async (tx) => {
    const ids = await appendCaseEvents(tx, [event(1)]);
    insertedA();
    await heldA;
    order.push('a commits');
    return ids;
  });
  await aInserted;
  const b = writerB.db
    .transaction((tx) => appendCaseEvents(tx, [event(2)]))
    .then((ids) => {
      order.push('b committed');
      return ids;
    });
  // While A holds its transaction, B's event is not written: a reader sees neither.
  await tick(300);
  const seenWhileHeld = await writerA.db.select().from(caseEvent).where(gt(caseEvent.id, after));
  expect(seenWhileHeld).toEqual([]);
  expect(order).toEqual([]);
  releaseA();
  const [[idA], [idB]] = await Promise.all([a, b]);
  expect(order).toEqual(['a commits', 'b committed']);
  expect(idA).toBeLessThan(idB as number);
  const seen = await writerB.db
    .select({ id: caseEvent.id })
    .from(caseEvent)
    .where(gt(caseEvent.id, after))
    .orderBy(asc(caseEvent.id));
  expect(seen.map((row) => row.id)).toEqual([idA, idB]);
});

it('appending nothing takes no lock and writes nothing', async () => {
  const ids = await writerA.db.transaction((tx) => appendCaseEvents(tx, []));
  expect(ids).toEqual([]);
});
