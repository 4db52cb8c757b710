/**
 * The window of handlers' immediate mails (docs/product/notifications.md#handlers), against a real
 * SMTP server and the store, with explicit clocks: after a mail of a kind and company, the next
 * notices of the same wait until the window ends and then go as one mail with their count; other
 * kinds and companies, and sign-ins from new devices, are not held; what the user opened on the bell
 * meanwhile is not mailed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { NoticeKind } from '@wbs/shared/notices';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../mail/transport.ts';
import { caseBinder } from '../store/case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded } from '../store/database.ts';
import { sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { notice, noticeMailWindow, noticeRecipient } from '../store/schema.ts';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.ts';
import { type ImmediateDeps, sendImmediateNotices } from './mail-jobs.ts';
import { addNotices, markRead, pendingMail, saveRecipients } from './store.ts';

const WINDOW_MS = 15 * 60_000;
const USER = 41;
const ADDRESS = 'admin.kahuripan@wbs.example.id';
const T0 = new Date('2027-03-01T02:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

let database: Database;
let store: Store;
let sink: SmtpSink;

beforeAll(async () => {
  database = await openEmbedded(MEMORY_DATA_DIR);
  store = {
    db: database.db,
    engine: database.engine,
    embedded: database.embedded,
    sealer: sealer([{ id: 'k', key: randomBytes(32) }]),
    cases: caseBinder(randomBytes(32), () => {}),
  };
  sink = await startSmtpSink();
}, 120_000);
afterAll(async () => {
  await sink?.close();
  await database?.close();
});
beforeEach(async () => {
  await store.db.delete(notice);
  await store.db.delete(noticeMailWindow);
  await store.db.delete(noticeRecipient);
  await saveRecipients(store, [{ userId: USER, email: ADDRESS }]);
  sink.mails.length = 0;
});

const deps = (windowMs = WINDOW_MS): ImmediateDeps => ({
  store,
  mailer: { configured: true, send: (mail) => sink.mailer.send(mail), close: async () => {} } as Mailer,
  from: { name: 'WBS', address: 'no-reply@wbs.example.id' },
  publicUrl: 'https://wbs.example.co.id',
  secret: 'a-session-secret-for-the-window-tests-0123456789',
  log: pino({ level: 'silent' }),
  windowMs,
});

/** One notice waiting for an immediate mail; its id. */
async function noticeOf(kind: NoticeKind, companyId: number | null = 1): Promise<number> {
  await addNotices(store.db, [
    {
      userId: USER,
      kind,
      companyId,
      companyName: companyId === null ? null : `PDAM ${companyId}`,
      caseId: companyId === null ? null : 7,
      caseBinding: null,
      dedupe: `test:${randomUUID()}`,
      mail: 'immediate',
    },
  ]);
  const rows = await pendingMail(store, USER, 'immediate');
  return rows[rows.length - 1]?.id ?? 0;
}

const counts = () => sink.mails.map((m) => Number(/Ada (\d+) pemberitahuan/.exec(m.text)?.[1] ?? 0));

describe('the window of immediate mails', () => {
  it('mails the first notice of a kind and company at once and holds the next ones until the window ends', async () => {
    await noticeOf('reporter-message');
    expect(await sendImmediateNotices(deps(), USER, T0)).toEqual({ sent: 1, nextAt: null });
    for (let i = 1; i <= 5; i++) {
      await noticeOf('reporter-message');
      // Each message a few seconds after the one before, as a reporter (or a flood) writes them.
      const result = await sendImmediateNotices(deps(), USER, at(i * 2_500));
      expect(result).toEqual({ sent: 0, nextAt: at(WINDOW_MS) });
    }
    expect(sink.mails).toHaveLength(1);
    expect(await sendImmediateNotices(deps(), USER, at(WINDOW_MS - 1))).toEqual({
      sent: 0,
      nextAt: at(WINDOW_MS),
    });
    // The window ends: the five that waited are one mail with their count, and a new window starts.
    expect(await sendImmediateNotices(deps(), USER, at(WINDOW_MS))).toEqual({ sent: 1, nextAt: null });
    expect(counts()).toEqual([1, 5]);
    expect(sink.mails.every((m) => m.rcptTo.join() === ADDRESS)).toBe(true);
    expect(await pendingMail(store, USER, 'immediate')).toEqual([]);
    await noticeOf('reporter-message');
    expect(await sendImmediateNotices(deps(), USER, at(WINDOW_MS + 1_000))).toEqual({
      sent: 0,
      nextAt: at(2 * WINDOW_MS),
    });
  });

  it('holds only its own kind and company: another kind or another company is mailed at once', async () => {
    await noticeOf('reporter-message', 1);
    await sendImmediateNotices(deps(), USER, T0);
    await noticeOf('reporter-message', 1);
    await noticeOf('reporter-evidence', 1);
    await noticeOf('reporter-message', 2);
    expect(await sendImmediateNotices(deps(), USER, at(10_000))).toEqual({ sent: 2, nextAt: at(WINDOW_MS) });
    expect(sink.mails.map((m) => m.subject)).toEqual([
      'WBS: Pesan baru dari pelapor (1) di PDAM 1',
      'WBS: Bukti tambahan dari pelapor (1) di PDAM 1',
      'WBS: Pesan baru dari pelapor (1) di PDAM 2',
    ]);
  });

  it('does not mail what the user opened on the bell while it waited', async () => {
    await noticeOf('new-report');
    await sendImmediateNotices(deps(), USER, T0);
    const opened = await noticeOf('new-report');
    await noticeOf('new-report');
    await markRead(store, USER, [opened]);
    await sendImmediateNotices(deps(), USER, at(WINDOW_MS));
    expect(counts()).toEqual([1, 1]);
    // Everything read before the window ends: no mail at all, and the window is not started again.
    await noticeOf('new-report');
    await markRead(store, USER, 'all');
    expect(await sendImmediateNotices(deps(), USER, at(2 * WINDOW_MS))).toEqual({ sent: 0, nextAt: null });
    expect(sink.mails).toHaveLength(2);
    expect(await pendingMail(store, USER, 'immediate')).toEqual([]);
    await noticeOf('new-report');
    expect(await sendImmediateNotices(deps(), USER, at(2 * WINDOW_MS + 1))).toEqual({
      sent: 1,
      nextAt: null,
    });
  });

  it('mails every sign-in from a new device at once, however many came before', async () => {
    for (let i = 0; i < 3; i++) {
      await noticeOf('new-device', null);
      expect(await sendImmediateNotices(deps(), USER, at(i * 1_000))).toEqual({ sent: 1, nextAt: null });
    }
    expect(sink.mails.map((m) => m.subject)).toEqual(Array(3).fill('WBS: masuk dari perangkat baru'));
  });

  it('holds nothing with a window of 0 seconds', async () => {
    for (let i = 0; i < 3; i++) {
      await noticeOf('reporter-message');
      expect(await sendImmediateNotices(deps(0), USER, at(i))).toEqual({ sent: 1, nextAt: null });
    }
    expect(counts()).toEqual([1, 1, 1]);
  });
});
