/**
 * Handlers' notices end to end through the real app: a reporter's message becomes one notice for each
 * handler of the case's company (under the case list's scope rules) and for nobody else; the bell, its
 * read marks and the preferences are each user's own; the digest's unsubscribe link works only as
 * signed; the dead letters are the administrator's.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import type { NoticeListReply, NoticePreferencesReply } from '@wbs/shared/api/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceAccount, type LegacyCaller } from '../../legacy/plugin.ts';
import { notifyCaseEvents } from '../../notifications/notifier.ts';
import { handlerDirectory } from '../../notifications/recipients.ts';
import { unsubscribeToken } from '../../notifications/unsubscribe.ts';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoAccount, TEST_SECRET, type TestApp } from '../../test/helpers.ts';
import { as } from '../../test/sessions.ts';

const [, investigasi] = demoCases;

describe.each(ENGINES)('notices on $engine', ({ engine }) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  const cookies = new Map<string, string>();
  const cookieOf = async (username: string) => {
    let cookie = cookies.get(username);
    if (!cookie) {
      cookie = await as(t, username);
      cookies.set(username, cookie);
    }
    return cookie;
  };
  /** The user's notices about cases (each first sign-in here also makes a new-device notice). */
  const bell = async (username: string): Promise<NoticeListReply> => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notices',
      headers: browser(await cookieOf(username)),
    });
    expect(res.statusCode, username).toBe(200);
    const reply = res.json() as NoticeListReply;
    const items = reply.items.filter((item) => item.kind !== 'new-device');
    return { ...reply, items, unread: items.filter((item) => !item.read).length };
  };
  const deliver = async () => {
    const log = t.app.log;
    return notifyCaseEvents({
      store: await t.app.store.open(),
      directory: handlerDirectory(),
      log,
      withLegacy: <T>(work: (legacy: LegacyCaller) => Promise<T>) =>
        asServiceAccount(t.app, { requestId: 'notices-test', log }, work),
    });
  };

  beforeAll(async () => {
    const store = await storeTestEnv(engine);
    drop = store.drop;
    t = await buildTestApp({
      ...store.env,
      LEGACY_SERVICE_USERNAME: 'admin',
      LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
      TRACKING_FAILURE_FLOOR_MS: '50',
    });
    await t.app.store.open();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it("tells each handler of the case's company once of a reporter's message, and nobody else", async () => {
    const text = 'Jawaban pelapor yang tidak boleh bocor';
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/messages',
      headers: { origin: 'http://localhost', 'idempotency-key': randomUUID() },
      payload: { caseNumber: investigasi.caseNumber, password: investigasi.password, text },
    });
    expect(post.statusCode).toBe(201);
    const first = await deliver();
    expect(first.events).toBe(1);
    // Company 1's admin, the partner and both partner staff; the analysts only on the case's line.
    for (const username of ['admin.kahuripan', 'holding', 'staff.holding', 'staff.holding2']) {
      const { items, unread } = await bell(username);
      expect(items, username).toHaveLength(1);
      expect(items[0]).toMatchObject({ kind: 'reporter-message', companyId: 1, read: false });
      expect(items[0]?.companyName).toBeTruthy();
      expect(unread).toBe(1);
      expect(JSON.stringify(items)).not.toContain(investigasi.caseNumber);
    }
    for (const username of ['admin.pakuan']) expect((await bell(username)).items, username).toHaveLength(0);
    const caseId = (await bell('holding')).items[0]?.caseId;
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cases/${caseId}`,
      headers: browser(await cookieOf('admin.kahuripan')),
    });
    const lineId = detail.json().caseLineId as number | null;
    for (const [username, line] of [
      ['analis.direksi', 1],
      ['analis.spi', 3],
    ] as const) {
      expect((await bell(username)).items, username).toHaveLength(line === lineId ? 1 : 0);
    }

    // Delivering again (a retry, a second replica) adds nothing.
    const again = await deliver();
    expect(again).toMatchObject({ events: 0, notices: 0 });
    expect((await bell('holding')).items).toHaveLength(1);
    // Nothing of the message's text reached a notice or a log line.
    expect(JSON.stringify(t.logs)).not.toContain(text);
  });

  it("marks only the user's own notices read", async () => {
    const holding = await bell('holding');
    const own = holding.items[0]!.id;
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notices/read',
      headers: browser(await cookieOf('admin.kahuripan')),
      payload: { ids: [own] },
    });
    expect(admin.statusCode).toBe(200);
    expect((await bell('holding')).unread).toBe(1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notices/read',
      headers: browser(await cookieOf('holding')),
      payload: { ids: [own] },
    });
    expect(res.statusCode).toBe(200);
    expect((await bell('holding')).items[0]?.read).toBe(true);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notices/read',
      headers: browser(await cookieOf('admin.kahuripan')),
      payload: { all: true },
    });
    expect(all.json()).toEqual({ unread: 0 });
    // Every kind, the security notice of the sign-in too.
    const raw = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notices',
      headers: browser(await cookieOf('admin.kahuripan')),
    });
    expect((raw.json() as NoticeListReply).items.every((item) => item.read)).toBe(true);
  });

  it('keeps each choice of mail, except that security notices are always mailed at once', async () => {
    const cookie = await cookieOf('staff.holding');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/notice-preferences',
      headers: browser(cookie),
      payload: {
        items: [
          { kind: 'new-report', mail: 'digest' },
          { kind: 'new-device', mail: 'off' },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    const got = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notice-preferences',
      headers: browser(cookie),
    });
    const prefs = got.json() as NoticePreferencesReply;
    const mode = (kind: string) => prefs.items.find((i) => i.kind === kind);
    expect(mode('new-report')).toMatchObject({ mail: 'digest', locked: false });
    expect(mode('new-device')).toMatchObject({ mail: 'immediate', locked: true });
    expect(prefs.hasEmail).toBe(true);
    // Another user's choices are their own.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notice-preferences',
      headers: browser(await cookieOf('staff.holding2')),
    });
    expect((other.json() as NoticePreferencesReply).items.find((i) => i.kind === 'new-report')?.mail).toBe(
      'immediate',
    );
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/notice-preferences',
      headers: browser(cookie),
      payload: { items: [{ kind: 'new-report', mail: 'sometimes' }] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('stops the digests of the user a signed unsubscribe link names, and of nobody for a forged one', async () => {
    const cookie = await cookieOf('staff.holding');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
    const userId = me.json().user.id as number;
    const token = unsubscribeToken(TEST_SECRET, userId);
    const forged = unsubscribeToken('another-secret-another-secret-xx', userId);
    for (const [value, status] of [
      [forged, 404],
      [`${token}x`, 404],
      ['bm90LWEtbnVtYmVy.abc', 404],
      [token, 200],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/notice-preferences/unsubscribe?token=${encodeURIComponent(value)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode, value).toBe(status);
    }
    const prefs = (
      await t.app.inject({ method: 'GET', url: '/api/v1/notice-preferences', headers: browser(cookie) })
    ).json() as NoticePreferencesReply;
    expect(prefs.items.filter((i) => i.mail === 'digest')).toEqual([]);
  });

  it("keeps the mail queues' dead letters to the administrator", async () => {
    const staff = await t.app.inject({
      method: 'GET',
      url: '/api/v1/mail/dead-letters',
      headers: browser(await cookieOf('admin.kahuripan')),
    });
    expect(staff.statusCode).toBe(403);
    const admin = await t.app.inject({
      method: 'GET',
      url: '/api/v1/mail/dead-letters',
      headers: browser(await cookieOf('admin')),
    });
    expect(admin.statusCode).toBe(200);
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/v1/mail/dead-letters/${randomUUID()}/retry`,
      headers: browser(await cookieOf('admin')),
    });
    expect(retry.statusCode).toBe(404);
  });
});
