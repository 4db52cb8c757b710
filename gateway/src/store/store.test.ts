/**
 * The store against both engines: the machine's PostgreSQL (a database of its own per run) and the
 * embedded PGlite (in memory, and in a data folder reopened across restarts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres } from './database.ts';
import { type SQL, sql } from './drizzle.ts';
import { listIdentityAccess, recordIdentityAccess } from './identity-access.ts';
import { SealError, type StoreKey, sealer } from './keyring.ts';
import { listMessages, markSeen, postMessage, seenOf, unreadFromReporter } from './messages.ts';
import type { Store } from './plugin.ts';
import { createTestDatabase, ENGINES, queryTestDatabase, type TestDatabase } from './test-databases.ts';

const keyA: StoreKey = { id: 'a', key: randomBytes(32) };
const keyB: StoreKey = { id: 'b', key: randomBytes(32) };
const HMAC = 'test-hmac-key-0123456789-abcdefghijklmnop';
const SECRET_TEXT = 'Kepala gudang menerima suap 120 juta';

const storeOf = (database: Database, keys: StoreKey[]): Store => ({
  db: database.db,
  engine: database.engine,
  sealer: sealer(keys),
});

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
      'case_message',
      'handling_deadline',
      'identity_access',
    ]);
  });

  it('stores messages sealed: the table holds no text, and a new key still reads old rows', async () => {
    const store = storeOf(database, [keyA]);
    const ref = { companyId: 1, caseId: 101 };
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
    await expect(listMessages(rotated, { companyId: 1, caseId: 102 })).rejects.toThrow(SealError);
    // A tampered ciphertext is detected.
    await database.db.execute(
      sql`update case_message set sealed = overlay(sealed placing 'AAAA' from 30 for 4) where case_id = 101 and id = (select min(id) from case_message where case_id = 101)`,
    );
    await expect(listMessages(rotated, ref)).rejects.toThrow(SealError);
  });

  it('stores a post once per Idempotency-Key, even for parallel retries; other content is refused', async () => {
    const store = storeOf(database, [keyA]);
    const ref = { companyId: 1, caseId: 201 };
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
      { companyId: 1, caseId: 202 },
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
        { companyId: 1, caseId: 203 },
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
    const a = { companyId: 3, caseId: 301 };
    const b = { companyId: 3, caseId: 302 };
    const handler = { kind: 'handler' as const, userId: 1, userType: 2, name: 'H' };
    const none = { key: null, hmacKey: HMAC };
    await postMessage(store, a, { kind: 'reporter' }, { text: '1' }, none);
    const second = await postMessage(store, a, { kind: 'reporter' }, { text: '2' }, none);
    await postMessage(store, b, handler, { text: 'q' }, none);
    await postMessage(store, { companyId: 4, caseId: 301 }, { kind: 'reporter' }, { text: 'x' }, none);
    expect(await unreadFromReporter(store, 3, [301, 302, 303])).toEqual([{ caseId: 301, unread: 2 }]);
    if (second.outcome !== 'created') throw new Error('not created');
    await markSeen(store, a, 'handler', second.id);
    await markSeen(store, a, 'handler', 1);
    expect((await seenOf(store, a)).handlerSeenId).toBe(second.id);
    expect(await unreadFromReporter(store, 3, [301, 302])).toEqual([]);
    // A handler's reply marks what it answered as read.
    await postMessage(store, b, { kind: 'reporter' }, { text: 'a' }, none);
    expect(await unreadFromReporter(store, 3, [302])).toEqual([{ caseId: 302, unread: 1 }]);
    await postMessage(store, b, handler, { text: 'r' }, none);
    expect(await unreadFromReporter(store, 3, [302])).toEqual([]);
    expect(await unreadFromReporter(store, 3, [])).toEqual([]);
  });

  it('keeps the identity-access history per case, newest first, with no reader name or id', async () => {
    const store = storeOf(database, [keyA]);
    const ref = { companyId: 5, caseId: 501 };
    await recordIdentityAccess(store, ref, { userType: 2, role: 1 }, 'case-read');
    await recordIdentityAccess(store, ref, { userType: 4, role: 1 }, 'case-read');
    await recordIdentityAccess(store, { companyId: 5, caseId: 502 }, { userType: 3, role: 1 }, 'case-read');
    const rows = await listIdentityAccess(store, ref);
    expect(rows.map((r) => r.readerUserType)).toEqual([4, 2]);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['accessedAt', 'kind', 'readerRole', 'readerUserType']);
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
        { companyId: 1, caseId: 1 },
        { kind: 'reporter' },
        { text: 'tetap ada' },
        { key: null, hmacKey: HMAC },
      );
      await first.close();
      const second = await openEmbedded(dataDir);
      try {
        const messages = await listMessages(storeOf(second, [keyA]), { companyId: 1, caseId: 1 });
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
