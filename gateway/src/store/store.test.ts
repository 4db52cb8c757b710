/**
 * The store against both engines: the machine's PostgreSQL (a database of its own per run) and the
 * embedded PGlite (in memory, and in a data folder reopened across restarts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockInputsOf } from '../clocks/store.ts';
import { createTestDatabase, ENGINES, queryTestDatabase, type TestDatabase } from '../test/databases.ts';
import { type BindingTable, caseBinder, loadBindingKey } from './case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres } from './database.ts';
import { type SQL, sql } from './drizzle.ts';
import { listIdentityAccess, recordIdentityAccess } from './identity-access.ts';
import { SealError, type StoreKey, sealer } from './keyring.ts';
import {
  type CaseRef,
  listMessages,
  MAX_MESSAGES_PER_SIDE,
  markSeen,
  postMessage,
  seenOf,
} from './messages.ts';
import type { Store } from './plugin.ts';

const keyA: StoreKey = { id: 'a', key: randomBytes(32) };
const keyB: StoreKey = { id: 'b', key: randomBytes(32) };
const HMAC = 'test-hmac-key-0123456789-abcdefghijklmnop';
const SECRET_TEXT = 'Kepala gudang menerima suap 120 juta';

/** Rows of another incarnation each read left out, as the store reported them. */
const mismatches: { table: BindingTable; caseId: number; rows: number }[] = [];
const binder = caseBinder(randomBytes(32), (table, ref, rows) =>
  mismatches.push({ table, caseId: ref.caseId, rows }),
);

const storeOf = (database: Database, keys: StoreKey[]): Store => ({
  db: database.db,
  engine: database.engine,
  embedded: database.embedded,
  sealer: sealer(keys),
  cases: binder,
});

/** The case list's unread marks of `cases` (read with the clocks' inputs), by case id. */
const unreadFromReporter = async (store: Store, companyId: number, cases: CaseRef[]) =>
  [...(await clockInputsOf(store, companyId, cases)).unread]
    .map(([caseId, unread]) => ({ caseId, unread }))
    .sort((a, b) => a.caseId - b.caseId);

/** A case incarnation: company, id, and (what a reissued id changes) its number and filing time. */
const caseOf = (
  companyId: number,
  caseId: number,
  number = `WBS-${caseId}`,
  created = '2026-01-05T08:00:00',
) => binder.bind({ caseCompanyId: companyId, caseId, caseNumber: number, caseCreated: created });

describe.each(ENGINES)('store on $engine', ({ engine }) => {
  let pgDatabase: TestDatabase | undefined;
  const opened: Database[] = [];
  const open = async () => {
    const database =
      engine === 'postgresql'
        ? await openPostgres(pgDatabase!.url, () => {})
        : await openEmbedded(MEMORY_DATA_DIR);
    opened.push(database);
    return database;
  };
  let database: Database;
  /** Raw rows of a query (both drivers answer `{ rows }`). */
  const rowsOf = async (query: SQL) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  beforeAll(async () => {
    if (engine === 'postgresql') pgDatabase = await createTestDatabase();
    database = await open();
  }, 120_000);
  afterAll(async () => {
    for (const d of opened) await d.close().catch(() => {});
    await pgDatabase?.drop();
  });

  it('is migrated, answers pings, and migrating again changes nothing', async () => {
    expect(await database.ping(1000)).toBe(true);
    if (engine === 'postgresql') {
      // Two replicas starting together: the advisory lock lets each migrate (or skip) in turn.
      const [x, y] = await Promise.all([open(), open()]);
      expect(await x.ping(1000)).toBe(true);
      expect(await y.ping(1000)).toBe(true);
    }
    const tables = await rowsOf(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    expect(tables.map((r) => r.table_name)).toEqual([
      'audit_chain_head',
      'audit_record',
      'case_clock',
      'case_conversation',
      'case_disposal',
      'case_event',
      'case_handling',
      'case_handling_stale',
      'case_index',
      'case_message',
      'case_return',
      'case_watch',
      'event_cursor',
      'handling_deadline',
      'identity_access',
      'notice',
      'notice_mail_window',
      'notice_preference',
      'notice_recipient',
      'reporter_confirmation_send',
      'reporter_subscription',
      'retention_period',
      'retention_scan',
      'second_factor_failure',
      'second_factor_passkey',
      'second_factor_recovery',
      'second_factor_totp',
      'store_secret',
    ]);
  });

  it('stores messages sealed: the table holds no text, and a new key still reads old rows', async () => {
    const store = storeOf(database, [keyA]);
    const ref = caseOf(1, 101);
    const handler = { kind: 'handler' as const, userId: 7, userType: 2, name: 'Budi Santoso' };
    await postMessage(
      store,
      ref,
      handler,
      { text: 'Mohon kirim faktur', authorName: 'Budi Santoso' },
      { key: null, hmacKey: HMAC },
    );
    await postMessage(store, ref, { kind: 'reporter' }, { text: SECRET_TEXT }, { key: null, hmacKey: HMAC });

    const dump = JSON.stringify(await rowsOf(sql`select * from case_message where case_id = 101`));
    for (const clear of ['faktur', 'suap', 'Budi', 'Santoso']) expect(dump).not.toContain(clear);

    const rotated = storeOf(database, [keyA, keyB]);
    await postMessage(
      rotated,
      ref,
      handler,
      { text: 'Terima kasih', authorName: 'Budi Santoso' },
      { key: null, hmacKey: HMAC },
    );
    const messages = await listMessages(rotated, ref);
    expect(messages.map((m) => [m.from, m.content.text])).toEqual([
      ['handler', 'Mohon kirim faktur'],
      ['reporter', SECRET_TEXT],
      ['handler', 'Terima kasih'],
    ]);
    const keyIds = await rowsOf(sql`select key_id from case_message where case_id = 101 order by id`);
    expect(keyIds.map((r) => r.key_id)).toEqual(['a', 'a', 'b']);

    // Without key a the old rows are refused, never misread.
    await expect(listMessages(storeOf(database, [keyB]), ref)).rejects.toThrow(SealError);
    // A row moved to another case does not open there.
    await database.db.execute(
      sql`update case_message set case_id = 102 where case_id = 101 and author_kind = 'reporter'`,
    );
    // Moved alone it belongs to no incarnation of case 102: left out, never opened.
    expect(await listMessages(rotated, caseOf(1, 102))).toEqual([]);
    await database.db.execute(
      sql`update case_message set case_binding = ${caseOf(1, 102).binding} where case_id = 102`,
    );
    await expect(listMessages(rotated, caseOf(1, 102))).rejects.toThrow(SealError);
    // A tampered ciphertext is detected.
    await database.db.execute(
      sql`update case_message set sealed = overlay(sealed placing 'AAAA' from 30 for 4) where case_id = 101 and id = (select min(id) from case_message where case_id = 101)`,
    );
    await expect(listMessages(rotated, ref)).rejects.toThrow(SealError);
  });

  it('stores a post once per Idempotency-Key, even for parallel retries; other content is refused', async () => {
    const store = storeOf(database, [keyA]);
    const ref = caseOf(1, 201);
    const send = (text: string) =>
      postMessage(store, ref, { kind: 'reporter' }, { text }, { key: 'retry-key-123', hmacKey: HMAC });
    const results = await Promise.all([send('Jawaban saya'), send('Jawaban saya'), send('Jawaban saya')]);
    const ids = new Set(results.map((r) => ('id' in r ? r.id : null)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'replayed')).toHaveLength(2);
    expect(await send('Isi lain')).toEqual({ outcome: 'key-reused' });
    // The same key on another case, or from the other side, is another post.
    const other = await postMessage(
      store,
      caseOf(1, 202),
      { kind: 'reporter' },
      { text: 'x' },
      { key: 'retry-key-123', hmacKey: HMAC },
    );
    expect(other.outcome).toBe('created');
    expect(await listMessages(store, ref)).toHaveLength(1);
    // Two handlers who happen to use the same key each get their own message.
    const byHandler = (userId: number, text: string) =>
      postMessage(
        store,
        caseOf(1, 203),
        { kind: 'handler', userId, userType: 2, name: `H${userId}` },
        { text },
        { key: 'shared-key-123', hmacKey: HMAC },
      );
    expect((await byHandler(1, 'satu')).outcome).toBe('created');
    expect((await byHandler(2, 'dua')).outcome).toBe('created');
    expect((await byHandler(1, 'satu')).outcome).toBe('replayed');
    const keys = await rowsOf(sql`select idempotency_key from case_message where case_id = 201`);
    expect(JSON.stringify(keys)).not.toContain('retry-key-123');
  });

  it('counts reporter messages no handler has read, per case and company; seen marks never go back', async () => {
    const store = storeOf(database, [keyA]);
    const a = caseOf(3, 301);
    const b = caseOf(3, 302);
    const handler = { kind: 'handler' as const, userId: 1, userType: 2, name: 'H' };
    const none = { key: null, hmacKey: HMAC };
    await postMessage(store, a, { kind: 'reporter' }, { text: '1' }, none);
    const second = await postMessage(store, a, { kind: 'reporter' }, { text: '2' }, none);
    await postMessage(store, b, handler, { text: 'q' }, none);
    await postMessage(store, caseOf(4, 301), { kind: 'reporter' }, { text: 'x' }, none);
    expect(await unreadFromReporter(store, 3, [a, b, caseOf(3, 303)])).toEqual([{ caseId: 301, unread: 2 }]);
    if (second.outcome !== 'created') throw new Error('not created');
    await markSeen(store, a, 'handler', second.id);
    await markSeen(store, a, 'handler', 1);
    expect((await seenOf(store, a)).handlerSeenId).toBe(second.id);
    expect(await unreadFromReporter(store, 3, [a, b])).toEqual([]);
    // A handler's reply marks what it answered as read.
    await postMessage(store, b, { kind: 'reporter' }, { text: 'a' }, none);
    expect(await unreadFromReporter(store, 3, [b])).toEqual([{ caseId: 302, unread: 1 }]);
    await postMessage(store, b, handler, { text: 'r' }, none);
    expect(await unreadFromReporter(store, 3, [b])).toEqual([]);
    expect(await unreadFromReporter(store, 3, [])).toEqual([]);
  });

  it('keeps the identity-access history per case, newest first, with no reader name or id', async () => {
    const store = storeOf(database, [keyA]);
    const ref = caseOf(5, 501);
    await recordIdentityAccess(store, ref, { userType: 2, role: 1 }, 'case-read');
    await recordIdentityAccess(store, ref, { userType: 4, role: 1 }, 'case-read');
    await recordIdentityAccess(store, caseOf(5, 502), { userType: 3, role: 1 }, 'case-read');
    const rows = await listIdentityAccess(store, ref);
    expect(rows.map((r) => r.readerUserType)).toEqual([4, 2]);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['accessedAt', 'kind', 'readerRole', 'readerUserType']);
  });

  it('shows a reissued case id nothing of the earlier case: messages, marks, history, keys', async () => {
    const store = storeOf(database, [keyA]);
    const none = { key: null, hmacKey: HMAC };
    const handler = { kind: 'handler' as const, userId: 9, userType: 2, name: 'Budi' };
    // The earlier case 601 of company 6: a conversation, unread marks and identity reads.
    const earlier = caseOf(6, 601, 'WBS-60000001', '2026-01-05T08:00:00');
    await postMessage(store, earlier, handler, { text: 'Mohon kirim bukti' }, none);
    const answer = await postMessage(store, earlier, { kind: 'reporter' }, { text: SECRET_TEXT }, none);
    await postMessage(store, earlier, { kind: 'reporter' }, { text: 'lagi' }, none);
    await recordIdentityAccess(store, earlier, { userType: 2, role: 1 }, 'contact-reveal');
    const idempotent = { key: 'same-key-42', hmacKey: HMAC };
    await postMessage(store, earlier, { kind: 'reporter' }, { text: 'kunci' }, idempotent);
    if (answer.outcome !== 'created') throw new Error('not created');
    await markSeen(store, earlier, 'reporter', answer.id);

    // The legacy issues 601 again (a restored backup): another number, another filing time.
    const later = caseOf(6, 601, 'WBS-60000099', '2026-02-01T09:30:00');
    mismatches.length = 0;
    expect(await listMessages(store, later)).toEqual([]);
    expect(await seenOf(store, later)).toEqual({ handlerSeenId: 0, reporterSeenId: 0 });
    expect(await listIdentityAccess(store, later)).toEqual([]);
    expect(await unreadFromReporter(store, 6, [later])).toEqual([]);
    expect(mismatches).toEqual([
      { table: 'case_message', caseId: 601, rows: 4 },
      { table: 'case_conversation', caseId: 601, rows: 1 },
      { table: 'identity_access', caseId: 601, rows: 1 },
    ]);
    // The same Idempotency-Key on the new case is a new message, not a replay of the old one.
    expect(
      (await postMessage(store, later, { kind: 'reporter' }, { text: 'baru' }, idempotent)).outcome,
    ).toBe('created');
    const seen = await listMessages(store, later);
    expect(seen.map((m) => m.content.text)).toEqual(['baru']);
    await markSeen(store, later, 'reporter', seen[0]?.id ?? 0);
    expect((await seenOf(store, later)).handlerSeenId).toBe(0);
    expect(await unreadFromReporter(store, 6, [later])).toEqual([{ caseId: 601, unread: 1 }]);
    // The earlier case's rows stay its own (a later restore of its legacy data finds them again).
    expect((await listMessages(store, earlier)).map((m) => m.content.text)).toEqual([
      'Mohon kirim bukti',
      SECRET_TEXT,
      'lagi',
      'kunci',
    ]);
    expect(await listIdentityAccess(store, earlier)).toHaveLength(1);
  });

  it('binds rows from before bindings on first read, only where the filing time proves them its own', async () => {
    const store = storeOf(database, [keyA]);
    const none = { key: null, hmacKey: HMAC };
    // Filed 2026-01-05 08:00 WIB = 01:00 UTC.
    const filed = caseOf(7, 701, 'WBS-70000001', '2026-01-05T08:00:00');
    for (const text of ['sebelum', 'sesaat', 'sesudah']) {
      await postMessage(store, filed, { kind: 'reporter' }, { text }, none);
      await recordIdentityAccess(store, filed, { userType: 2, role: 1 }, 'case-read');
    }
    // As an older gateway wrote them: no binding; made a day before, 30 s before and after filing.
    for (const table of ['case_message', 'identity_access']) {
      const at = table === 'case_message' ? 'created_at' : 'accessed_at';
      await database.db.execute(
        sql.raw(`update ${table} set case_binding = null,
           ${at} = (array['2026-01-04T01:00:00Z', '2026-01-05T00:59:30Z', '2026-01-06T00:00:00Z']::timestamptz[])[
             (select count(*) from ${table} t where t.case_id = 701 and t.id < ${table}.id) + 1]
          where case_id = 701`),
      );
    }
    await database.db.execute(sql`update case_conversation set case_binding = null where case_id = 701`);
    mismatches.length = 0;
    expect((await listMessages(store, filed)).map((m) => m.content.text)).toEqual(['sesaat', 'sesudah']);
    expect(await listIdentityAccess(store, filed)).toHaveLength(2);
    expect((await seenOf(store, filed)).reporterSeenId).toBeGreaterThan(0);
    expect(mismatches).toEqual([
      { table: 'case_message', caseId: 701, rows: 1 },
      { table: 'identity_access', caseId: 701, rows: 1 },
    ]);
    // Bound now: the two proven rows carry the binding, the unproven one stays unbound and unshown.
    const bindings = await rowsOf(
      sql`select case_binding from case_message where case_id = 701 order by created_at`,
    );
    expect(bindings.map((r) => r.case_binding)).toEqual([null, filed.binding, filed.binding]);
    const history = await rowsOf(
      sql`select case_binding from identity_access where case_id = 701 order by accessed_at`,
    );
    expect(history.map((r) => r.case_binding)).toEqual([null, filed.binding, filed.binding]);
    // A case filed later under the same id proves none of them its own.
    const reissued = caseOf(7, 701, 'WBS-70000002', '2026-03-01T08:00:00');
    expect(await listMessages(store, reissued)).toEqual([]);
    expect(await unreadFromReporter(store, 7, [reissued])).toEqual([]);
  });

  it('caps each side of a conversation on its own: a full reporter side cannot silence the handlers', async () => {
    const store = storeOf(database, [keyA]);
    const none = { key: null, hmacKey: HMAC };
    const ref = caseOf(8, 801);
    const sealed = store.sealer.seal(JSON.stringify({ text: 'banjir' }), 'case_message|8|801|reporter');
    await database.db.execute(sql`insert into case_message
        (company_id, case_id, case_binding, author_kind, key_id, sealed)
      select 8, 801, ${ref.binding}, 'reporter', ${sealed.keyId}, ${sealed.sealed}
        from generate_series(1, ${MAX_MESSAGES_PER_SIDE})`);
    expect(await postMessage(store, ref, { kind: 'reporter' }, { text: 'satu lagi' }, none)).toEqual({
      outcome: 'full',
      limit: MAX_MESSAGES_PER_SIDE,
    });
    const handler = { kind: 'handler' as const, userId: 1, userType: 2, name: 'H' };
    expect((await postMessage(store, ref, handler, { text: 'masih bisa menjawab' }, none)).outcome).toBe(
      'created',
    );
    // Another incarnation of the case starts with room on both sides.
    const reissued = caseOf(8, 801, 'WBS-80000002', '2026-03-01T08:00:00');
    expect((await postMessage(store, reissued, { kind: 'reporter' }, { text: 'baru' }, none)).outcome).toBe(
      'created',
    );
  });

  it('keeps one binding key per store: made once, re-sealed with the newest ring key', async () => {
    const first = await loadBindingKey(database.db, sealer([keyA]));
    expect(first).toHaveLength(32);
    const [a, b] = await Promise.all([
      loadBindingKey(database.db, sealer([keyA])),
      loadBindingKey(database.db, sealer([keyA])),
    ]);
    expect(a.equals(first) && b.equals(first)).toBe(true);
    // Rotated: the key is the same and now sealed with the newest ring key, so keyA can be dropped.
    expect((await loadBindingKey(database.db, sealer([keyA, keyB]))).equals(first)).toBe(true);
    const [row] = await rowsOf(sql`select key_id from store_secret where name = 'case-binding-key'`);
    expect(row?.key_id).toBe('b');
    expect((await loadBindingKey(database.db, sealer([keyB]))).equals(first)).toBe(true);
    // Without any key that opens it the store does not start on a key it cannot read.
    await expect(loadBindingKey(database.db, sealer([{ id: 'c', key: randomBytes(32) }]))).rejects.toThrow(
      /STORE_ENCRYPTION_KEYS cannot open the store's case binding key \(sealed with key b\)/,
    );
  });
});

describe('embedded store in a data folder', () => {
  it('creates the folder, migrates once, and keeps rows across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wbs-store-'));
    try {
      const dataDir = join(dir, 'nested', 'store');
      const first = await openEmbedded(dataDir);
      const store = storeOf(first, [keyA]);
      await postMessage(
        store,
        caseOf(1, 1),
        { kind: 'reporter' },
        { text: 'tetap ada' },
        { key: null, hmacKey: HMAC },
      );
      await first.close();
      const second = await openEmbedded(dataDir);
      try {
        const messages = await listMessages(storeOf(second, [keyA]), caseOf(1, 1));
        expect(messages.map((m) => m.content.text)).toEqual(['tetap ada']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('store on a PostgreSQL server that drops a connection', () => {
  it('fails only the transaction whose connection was lost; the process and the pool go on', async () => {
    const server = await createTestDatabase();
    const lost: Error[] = [];
    const database = await openPostgres(server.url, (error) => lost.push(error));
    try {
      const failed = database.db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
          rows: { pid: number }[];
        };
        // The server ends this connection between two statements (a restart, a failover, an admin).
        await queryTestDatabase(server.url, 'select pg_terminate_backend($1)', [rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 1`);
      });
      // Without a listener on the checked-out client, its 'error' event would end the process.
      await expect(failed).rejects.toThrow();
      expect(await database.ping(5_000)).toBe(true);
    } finally {
      await database.close();
      await server.drop();
    }
  }, 60_000);
});
