/**
 * Generated reports in the store's case tables (case_index, case_clock, case_message, case_return,
 * handling_deadline), with every kind of clock fact (none, Baru, a log that acknowledged and answered at
 * once, later or out of order), handler and reporter messages of the same and of other incarnations,
 * unbound rows inside and outside the grace, equal seconds of log and message, returns, a company with
 * its own deadlines; and later writes of every kind, as the watcher, the case detail, the message routes
 * and the retention purge make them. What the tests of the kept durations (insights/counts.test.ts) and
 * of the overdue query over them (clocks/overdue-index.test.ts) compare with the JavaScript rules.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { caseBinder } from '../store/case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres } from '../store/database.ts';
import { rowsOf, sql } from '../store/drizzle.ts';
import { sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { createTestDatabase, type ENGINES } from './databases.ts';

export const FINALS = new Set([13, 21]);
export const STATUSES = [null, 1, 1, 2, 5, 13, 21];
export const OWN_DEADLINES = { companyId: 2, ackDays: 3, feedbackMonths: 2 };
/** Company 3's own deadlines after `mutate`. */
export const CHANGED_DEADLINES = { companyId: 3, ackDays: 5, feedbackMonths: 4 };

/** A small deterministic generator (mulberry32): the same reports on every run and engine. */
export function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

const WIB = 7 * 3_600_000;
const wall = (ms: number) => new Date(ms + WIB).toISOString().slice(0, 19);
const START = Date.parse('2024-01-01T00:00:00+07:00');
const DAY = 86_400_000;

export async function generate(store: Store, seed: number, reports: number) {
  const r = random(seed);
  const db = store.db;
  for (const table of ['case_index', 'case_clock', 'case_message', 'case_return', 'handling_deadline'])
    await db.execute(sql.raw(`delete from ${table}`));
  await db.execute(sql`insert into handling_deadline (company_id, ack_days, feedback_months)
    values (${OWN_DEADLINES.companyId}, ${OWN_DEADLINES.ackDays}, ${OWN_DEADLINES.feedbackMonths})`);
  for (let n = 1; n <= reports; n++) {
    const companyId = r.int(1, 3);
    const binding = `b${n}`;
    const filedMs = START + r.int(0, 800) * DAY + r.int(0, 86_399) * 1000;
    const filedAt = wall(filedMs);
    const statusId = r.pick(STATUSES);
    const detailRead = r.chance(0.85);
    const anonymous = r.pick([null, true, false, false]);
    const provinceId = r.chance(0.8) ? r.pick([11, 32, 35, 35, 99]) : null;
    const cityId = provinceId !== null && r.chance(0.8) ? r.pick([3201, 3273, 3578, 3599]) : null;
    await db.execute(sql`insert into case_index (company_id, case_id, case_binding, line_id, category_id,
        status_id, channel_id, anonymous, filed_at, province_id, city_id, detail_read)
      values (${companyId}, ${n}, ${binding}, ${r.pick([null, 1, 2, 3])}, 1, ${statusId},
        ${r.pick([null, 1, 2, 3, 4])}, ${anonymous}, ${filedAt}, ${provinceId}, ${cityId}, ${detailRead})`);
    // Times of events: seconds after filing, sometimes before it, sometimes on the same second.
    const at = () => filedMs + r.pick([-2, 0, 1, 3, 10, 40, 100, 200]) * r.int(0, DAY / 1000) * 10;
    const eventTimes: number[] = [];
    if (r.chance(0.75)) {
      const kind = r.int(0, 4);
      const ack = kind === 0 ? null : at();
      const answered =
        kind === 0 ? (r.chance(0.2) ? at() : null) : kind === 1 ? ack : kind === 2 ? at() : null;
      if (ack !== null) eventTimes.push(ack);
      const clockBinding = r.pick([binding, binding, binding, null, 'other']);
      const clockFiled = clockBinding === null && r.chance(0.3) ? wall(filedMs + DAY) : filedAt;
      await db.execute(sql`insert into case_clock (company_id, case_id, case_binding, filed_at, ack_days,
          feedback_months, status_id_seen, log_acknowledged_at, log_answered_at)
        values (${companyId}, ${n}, ${clockBinding}, ${clockFiled}, ${r.int(1, 30)}, ${r.int(1, 12)},
          ${statusId}, ${ack === null ? null : wall(ack)}, ${answered === null ? null : wall(answered)})`);
    }
    for (let m = r.int(0, 4); m > 0; m--) {
      // Some on the very second of a log event (with milliseconds the clock cuts off).
      const base = eventTimes.length > 0 && r.chance(0.3) ? r.pick(eventTimes) + r.int(0, 999) : at();
      const messageBinding = r.pick([binding, binding, null, 'other']);
      // Unbound: kept when no earlier than a minute before filing.
      const createdMs = messageBinding === null && r.chance(0.4) ? filedMs - r.int(0, 120) * 1000 : base;
      const handler = r.chance(0.7);
      await db.execute(sql`insert into case_message (company_id, case_id, case_binding, author_kind,
          author_user_id, author_user_type, key_id, sealed, created_at)
        values (${companyId}, ${n}, ${messageBinding}, ${handler ? 'handler' : 'reporter'},
          ${handler ? 7 : null}, ${handler ? 2 : null}, 'k', 'x', ${new Date(createdMs).toISOString()})`);
    }
    if (r.chance(0.2)) {
      await db.execute(sql`insert into case_return (company_id, case_id, case_binding)
        values (${companyId}, ${n}, ${r.chance(0.8) ? binding : 'other'})`);
    }
  }
}

/**
 * Later writes of every kind the kept durations depend on (clocks/durations.ts), as the watcher, the
 * case detail, the message routes and the retention purge make them, a random share of reports each.
 */
export async function mutate(store: Store, seed: number) {
  const r = random(seed);
  const db = store.db;
  const indexed = await rowsOf<{
    company_id: number;
    case_id: number;
    case_binding: string;
    filed_at: string;
  }>(store.db, sql`select company_id, case_id, case_binding, filed_at from case_index`);
  for (const row of indexed) {
    const of = sql`company_id = ${row.company_id} and case_id = ${row.case_id}`;
    const filedMs = Date.parse(`${row.filed_at}+07:00`);
    switch (r.int(0, 11)) {
      case 0: // The legacy issued the id again: a new incarnation, filed later.
        await db.execute(sql`update case_index set case_binding = ${`${row.case_binding}x`},
          filed_at = ${wall(filedMs + r.int(1, 40) * DAY)} where ${of}`);
        break;
      case 1: // A handler answers, now or on a log event's second.
        await db.execute(sql`insert into case_message (company_id, case_id, case_binding, author_kind,
            author_user_id, author_user_type, key_id, sealed, created_at)
          values (${row.company_id}, ${row.case_id}, ${row.case_binding}, 'handler', 7, 2, 'k', 'x',
            ${new Date(filedMs + r.int(0, 60) * DAY + r.int(0, 999)).toISOString()})`);
        break;
      case 2: // The log moved on: acknowledged, answered, or answered at once.
        await db.execute(sql`update case_clock set log_acknowledged_at = ${wall(filedMs + r.int(0, 9) * DAY)},
          log_answered_at = case when ${r.chance(0.5)} then ${wall(filedMs + r.int(10, 120) * DAY)} end where ${of}`);
        break;
      case 3: // Clock facts read for the first time (or again, of this incarnation).
        await db.execute(sql`insert into case_clock (company_id, case_id, case_binding, filed_at, ack_days,
            feedback_months, status_id_seen, log_acknowledged_at, log_answered_at)
          values (${row.company_id}, ${row.case_id}, ${row.case_binding}, ${row.filed_at}, ${r.int(1, 30)},
            ${r.int(1, 12)}, 2, ${wall(filedMs + r.int(0, 20) * DAY)}, null)
          on conflict (company_id, case_id) do update set case_binding = excluded.case_binding,
            filed_at = excluded.filed_at, log_acknowledged_at = excluded.log_acknowledged_at`);
        break;
      case 4: // The retention purge: the clock facts and the handler messages go.
        await db.execute(sql`delete from case_clock where ${of}`);
        await db.execute(sql`delete from case_message where ${of} and author_kind = 'handler'`);
        break;
      case 5: // The case detail adopts unbound rows of this incarnation.
        await db.execute(sql`update case_message set case_binding = ${row.case_binding}
          where ${of} and case_binding is null`);
        break;
      case 6: // The legacy no longer has the case.
        await db.execute(sql`delete from case_index where ${of}`);
        break;
      case 7: // A new status (counted as it stands, nothing kept changes).
        await db.execute(sql`update case_index set status_id = ${r.pick(STATUSES)} where ${of}`);
        break;
      case 8: // The watcher writes the same facts again.
        await db.execute(sql`update case_clock set updated_at = now() where ${of}`);
        break;
      default:
        break;
    }
  }
  // A company's own deadlines changed: reports with none kept follow them when counted.
  await db.execute(sql`insert into handling_deadline (company_id, ack_days, feedback_months)
    values (${CHANGED_DEADLINES.companyId}, ${CHANGED_DEADLINES.ackDays}, ${CHANGED_DEADLINES.feedbackMonths})
    on conflict (company_id) do update set ack_days = excluded.ack_days, feedback_months = excluded.feedback_months`);
}

export type OpenedStore = { store: Store; url: string | null; close(): Promise<void> };

/** A store on a database of its own (PostgreSQL) or in memory (PGlite). */
export async function openStore(engine: (typeof ENGINES)[number]['engine']): Promise<OpenedStore> {
  const testDatabase = engine === 'postgresql' ? await createTestDatabase() : null;
  const database: Database = testDatabase
    ? await openPostgres(testDatabase.url, () => {})
    : await openEmbedded(MEMORY_DATA_DIR);
  return {
    store: {
      db: database.db,
      engine: database.engine,
      embedded: database.embedded,
      sealer: sealer([{ id: 'k', key: randomBytes(32) }]),
      cases: caseBinder(randomBytes(32), () => {}),
    },
    url: testDatabase?.url ?? null,
    close: async () => {
      await database.close();
      await testDatabase?.drop();
    },
  };
}

/** A store of its own for the enclosing `describe`, opened before its tests and closed after them. */
export function storeForEach(engine: (typeof ENGINES)[number]['engine']): () => Store {
  let opened: OpenedStore | undefined;
  beforeAll(async () => {
    opened = await openStore(engine);
  }, 120_000);
  afterAll(() => opened?.close());
  return () => {
    if (!opened) throw new Error('the store is opened before the tests');
    return opened.store;
  };
}
