/**
 * The subscriptions in the store on both engines: the limits hold under parallel requests, a sealed
 * address opens only in its own case, and the daily clean-up deletes what the product says must go
 * (30 days after a final status, another incarnation's rows, dead links, old limit records).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { caseBinder } from '../store/case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded, openPostgres } from '../store/database.ts';
import { eq } from '../store/drizzle.ts';
import { SealError, sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { caseIndex, reporterConfirmationSend, reporterSubscription } from '../store/schema.ts';
import { createTestDatabase, ENGINES, type TestDatabase } from '../test/databases.ts';
import {
  CONFIRM_TTL_MS,
  claimNotice,
  confirmByToken,
  createPending,
  KEEP_AFTER_FINAL_MS,
  NOTICE_GAP_MS,
  noticeTarget,
  observeCaseStatus,
  prepareConfirmation,
  purgeReporterSubscriptions,
  subscriptionStatus,
} from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const binder = caseBinder(randomBytes(32), () => {});
const caseOf = (companyId: number, caseId: number, number = `WBS-${caseId}`) =>
  binder.bind({ caseCompanyId: companyId, caseId, caseNumber: number, caseCreated: '2026-01-05T08:00:00' });
const FINAL = 21;
const OPEN = 14;

describe.each(ENGINES)('reporter subscriptions on $engine', ({ engine }) => {
  let pg: TestDatabase | undefined;
  let database: Database;
  let store: Store;

  beforeAll(async () => {
    if (engine === 'postgresql') pg = await createTestDatabase();
    database = pg ? await openPostgres(pg.url, () => {}) : await openEmbedded(MEMORY_DATA_DIR);
    store = {
      db: database.db,
      engine: database.engine,
      embedded: database.embedded,
      sealer: sealer([{ id: 'k1', key: randomBytes(32) }]),
      cases: binder,
    };
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });
  beforeEach(async () => {
    await store.db.delete(reporterSubscription);
    await store.db.delete(reporterConfirmationSend);
    await store.db.delete(caseIndex);
  });

  /** A confirmed address on `ref`, confirmed at `now`. */
  const confirmed = async (ref: ReturnType<typeof caseOf>, address: string, now: Date) => {
    const created = await createPending(store, ref, { address, audience: 'tracker', now });
    if (created.outcome !== 'created') throw new Error('limited');
    const prepared = await prepareConfirmation(store, created.id, now);
    if (!prepared) throw new Error('not prepared');
    expect(await confirmByToken(store, prepared.token, now)).toEqual({ masked: expect.any(String) });
    return created.id;
  };

  it('parallel requests pass each limit once: one per case, one per address', async () => {
    const now = new Date();
    const one = caseOf(1, 10);
    const sameCase = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createPending(store, one, { address: `a${i}@contoh.id`, audience: 'tracker', now }),
      ),
    );
    expect(sameCase.filter((r) => r.outcome === 'created')).toHaveLength(1);
    const sameAddress = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createPending(store, caseOf(2, 100 + i), { address: 'Satu+x@Contoh.ID', audience: 'tracker', now }),
      ),
    );
    expect(sameAddress.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(await store.db.select().from(reporterConfirmationSend)).toHaveLength(2);
  });

  it('a sealed address opens only in its own case incarnation', async () => {
    const now = new Date();
    const ref = caseOf(1, 20);
    const id = await confirmed(ref, 'budi@contoh.id', now);
    expect((await noticeTarget(store, id))?.address).toBe('budi@contoh.id');
    // The sealed value moved to another case (or another incarnation of the same ids) does not open.
    const other = caseOf(1, 20, 'WBS-REISSUED');
    await store.db
      .update(reporterSubscription)
      .set({ caseBinding: other.binding })
      .where(eq(reporterSubscription.id, id));
    await expect(noticeTarget(store, id)).rejects.toBeInstanceOf(SealError);
    // And the reissued case's reporter sees nothing of it.
    await store.db.update(reporterSubscription).set({ caseBinding: ref.binding });
    expect(await subscriptionStatus(store, other, now)).toEqual({ confirmed: null, pending: null });
    expect(await subscriptionStatus(store, ref, now)).toEqual({ confirmed: 'b***@c***.id', pending: null });
  });

  it('coalesces notices to one an hour, and a message id seen before is no new reply', async () => {
    const now = new Date();
    const ref = caseOf(1, 30);
    const id = await confirmed(ref, 'rina@contoh.id', now);
    expect(await claimNotice(store, ref, 5, now)).toMatchObject({ id });
    expect(await claimNotice(store, ref, 6, new Date(now.getTime() + NOTICE_GAP_MS - 1))).toBeNull();
    const later = new Date(now.getTime() + NOTICE_GAP_MS);
    expect(await claimNotice(store, ref, 6, later)).toBeNull();
    expect(await claimNotice(store, ref, 7, later)).toMatchObject({ id });
    // Another incarnation's messages notify nobody here.
    expect(
      await claimNotice(store, caseOf(1, 30, 'WBS-OTHER'), 99, new Date(later.getTime() + DAY_MS)),
    ).toBeNull();
  });

  it('the clean-up: 30 days after a final status, another incarnation, dead links, old limit records', async () => {
    const start = new Date('2026-03-01T00:00:00Z');
    const closing = caseOf(1, 40);
    const reopened = caseOf(1, 41);
    const reissued = caseOf(1, 42);
    const seenFinal = caseOf(1, 43);
    for (const [ref, address] of [
      [closing, 'a@contoh.id'],
      [reopened, 'b@contoh.id'],
      [reissued, 'c@contoh.id'],
      [seenFinal, 'd@contoh.id'],
    ] as const) {
      await confirmed(ref, address, start);
    }
    // A pending address whose link was never opened, and one whose mail was never made.
    const dead = await createPending(store, caseOf(1, 44), {
      address: 'e@contoh.id',
      audience: 'tracker',
      now: start,
    });
    if (dead.outcome === 'created') await prepareConfirmation(store, dead.id, start);
    await createPending(store, caseOf(1, 45), { address: 'f@contoh.id', audience: 'account', now: start });

    const index = (ref: ReturnType<typeof caseOf>, statusId: number, binding = ref.binding) =>
      store.db
        .insert(caseIndex)
        .values({
          companyId: ref.companyId,
          caseId: ref.caseId,
          caseBinding: binding,
          statusId,
          filedAt: 'x',
        })
        .onConflictDoUpdate({ target: [caseIndex.companyId, caseIndex.caseId], set: { statusId } });
    await index(closing, FINAL);
    await index(reopened, FINAL);
    await index(reissued, OPEN, caseOf(1, 42, 'WBS-NEW').binding);
    // The tracker's own visit saw this one final (no case index row for it).
    await observeCaseStatus(store, seenFinal, true, start);

    const first = await purgeReporterSubscriptions(store, { finalStatusIds: [FINAL, 13], now: start });
    expect(first).toMatchObject({ finalised: 2, reopened: 0 });
    const ids = async () =>
      (await store.db.select({ caseId: reporterSubscription.caseId }).from(reporterSubscription))
        .map((r) => r.caseId)
        .sort();
    // Another incarnation's row goes at once; the others wait.
    expect(await ids()).toEqual([40, 41, 43, 44, 45]);

    await index(reopened, OPEN);
    const dayAfterLinks = new Date(start.getTime() + CONFIRM_TTL_MS + 1000);
    expect(
      await purgeReporterSubscriptions(store, { finalStatusIds: [FINAL], now: dayAfterLinks }),
    ).toMatchObject({
      reopened: 1,
      sendsDeleted: 6,
    });
    expect(await ids()).toEqual([40, 41, 43]);

    const after = new Date(start.getTime() + KEEP_AFTER_FINAL_MS + 1000);
    await purgeReporterSubscriptions(store, { finalStatusIds: [FINAL], now: after });
    // 40 and 43 were final 30 days ago; 41 was opened again.
    expect(await ids()).toEqual([41]);
    // An unknown status table finalises nothing, and still deletes what is due.
    expect(await purgeReporterSubscriptions(store, { finalStatusIds: [], now: after })).toMatchObject({
      finalised: 0,
      reopened: 0,
      deleted: 0,
    });
  });

  it('a visit that sees the case open again stops the 30 days', async () => {
    const now = new Date();
    const ref = caseOf(1, 50);
    await confirmed(ref, 'g@contoh.id', now);
    await observeCaseStatus(store, ref, true, now);
    await observeCaseStatus(store, ref, true, new Date(now.getTime() + DAY_MS));
    const [row] = await store.db.select().from(reporterSubscription);
    expect(row?.finalStatusAt?.getTime()).toBe(now.getTime());
    await observeCaseStatus(store, ref, false, now);
    const [open] = await store.db.select().from(reporterSubscription);
    expect(open?.finalStatusAt).toBeNull();
  });
});
