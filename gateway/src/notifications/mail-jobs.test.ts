/**
 * Handlers' notice mails through the whole app with its jobs running, against a real SMTP server: a
 * reporter's message reaches each handler of the company as one content-free mail, a reporter writing
 * message after message is one mail at once and one with the rest when the window ends (not a mail
 * per message), and the digest carries a one-click unsubscribe that works. A burst of wrong
 * second-factor codes is a security notice mailed at once, once per run.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, rowsOf, sql } from '../store/drizzle.ts';
import { notice, noticeMailWindow } from '../store/schema.ts';
import { browser, demoAccount, type TestApp } from '../test/helpers.ts';
import { enrolTotp, passwordSignIn } from '../test/second-factor.ts';
import { mailingTestApp, type TestSmtp } from '../test/smtp.ts';
import { until } from '../test/until.ts';
import { sendDigest, sendImmediateNotices } from './mail-jobs.ts';
import { pendingMail } from './store.ts';

const investigasi = demoCases[1];
const HOLDING = 'wbs@holding-airminum.example.id';
const HANDLERS = ['admin.kahuripan@wbs.example.id', HOLDING, 'staff.holding@wbs.example.id'];

const postTo = (t: TestApp, tracked: (typeof demoCases)[number], text: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/tracking/messages',
    headers: { origin: 'http://localhost', 'idempotency-key': randomUUID() },
    payload: { caseNumber: tracked.caseNumber, password: tracked.password, text },
  });

describe('notice mails', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const mailsTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));
  const post = (tracked: (typeof demoCases)[number], text: string) => postTo(t, tracked, text);

  let mailing: Awaited<ReturnType<typeof mailingTestApp>> | undefined;
  beforeAll(async () => {
    mailing = await mailingTestApp({ TRACKING_FAILURE_FLOOR_MS: '50' });
    ({ t, smtp } = mailing);
  }, 60_000);
  afterAll(async () => mailing?.close());

  it("mails each handler of the company once, saying nothing of the case or the reporter's words", {
    timeout: 60_000,
  }, async () => {
    const text = 'Isi pesan pelapor tentang gudang zamrud';
    expect((await post(investigasi, text)).statusCode).toBe(201);
    await until(() => HANDLERS.every((address) => mailsTo(address).length >= 1));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const address of HANDLERS) {
      const mails = mailsTo(address);
      expect(mails, address).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.parsed.subject).toContain('Pesan baru dari pelapor');
      expect(mail?.raw).toContain('https://wbs.example.co.id/auth/login');
      for (const secret of [investigasi.caseNumber, investigasi.password, text, 'zamrud']) {
        expect(mail?.raw, address).not.toContain(secret);
      }
    }
    // Counted for ops, by outcome.
    expect(await t.app.telemetry.registry.metrics()).toMatch(
      /^wbs_mail_sends_total\{outcome="sent"\} [1-9]/m,
    );
    // Another company's admin hears nothing.
    expect(mailsTo('admin.pakuan@wbs.example.id')).toHaveLength(0);
    // Nothing in the logs names an address or the text.
    const logged = JSON.stringify(t.logs);
    for (const address of HANDLERS) expect(logged).not.toContain(address);
    expect(logged).not.toContain(text);
  });

  it("sends a digest with a one-click unsubscribe that stops that user's digests", async () => {
    const store = await t.app.store.open();
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { origin: 'http://localhost' },
      payload: { username: 'holding', password: demoAccount('holding').password },
    });
    const cookie = String(session.headers['set-cookie']).split(';')[0] as string;
    const userId = session.json().user.id as number;
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/notice-preferences',
      headers: { cookie, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      payload: { items: [{ kind: 'reporter-message', mail: 'digest' }] },
    });
    expect((await post(investigasi, 'Untuk ringkasan')).statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await pendingMail(store, userId, 'digest')).length).toBe(1);
    const before = mailsTo(HOLDING).length;
    await sendDigest(
      {
        store,
        mailer: t.app.mailer,
        from: t.app.config.mail.from,
        publicUrl: t.app.config.publicUrl,
        secret: t.app.config.sessionSecret,
        log: t.app.log,
      },
      userId,
      '2026-11-26',
      new Date(),
    );
    const digest = mailsTo(HOLDING).slice(before);
    expect(digest).toHaveLength(1);
    // Headers as sent, unfolded.
    const raw = (digest[0]?.raw ?? '').replace(/\r\n[ \t]+/g, ' ');
    const header = /^List-Unsubscribe: (<[^>]+>)/m.exec(raw)?.[1] ?? '';
    expect(header).toMatch(
      /^<https:\/\/wbs\.example\.co\.id\/api\/v1\/notice-preferences\/unsubscribe\?token=/,
    );
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // The stop link a reader clicks opens a page that asks first: a browser's GET changes nothing.
    expect(digest[0]?.parsed.text).toContain('https://wbs.example.co.id/notifikasi/ringkasan#');
    expect(digest[0]?.parsed.text).not.toContain('/api/v1/notice-preferences/unsubscribe');
    expect((await pendingMail(store, userId, 'digest')).length).toBe(0);
    // The mail client's one click, as RFC 8058 has it.
    const url = new URL(String(header).slice(1, -1));
    const click = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);
    const prefs = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notice-preferences',
      headers: { cookie },
    });
    expect(prefs.json().items.find((i: { kind: string }) => i.kind === 'reporter-message').mail).toBe('off');
  });
});

describe('security notice mails', () => {
  let mailing: Awaited<ReturnType<typeof mailingTestApp>> | undefined;
  beforeAll(async () => {
    mailing = await mailingTestApp({
      SECOND_FACTOR_TYPES: '1,2,3,4,5',
      SIGNIN_FREE_FAILURES: '3',
      SIGNIN_FAILURE_FLOOR_MS: '1',
    });
  }, 60_000);
  afterAll(async () => mailing?.close());

  it('mails the owner once when wrong second-factor codes come in a burst', { timeout: 60_000 }, async () => {
    const { t, smtp } = mailing!;
    const username = 'analis.direksi';
    const { agent, reply } = await passwordSignIn(t.app, username, demoAccount(username).password);
    const email = (reply as unknown as { user: { email: string } }).user.email;
    await enrolTotp(agent);
    const guesser = (await passwordSignIn(t.app, username, demoAccount(username).password)).agent.cookie();
    for (let n = 0; n < 5; n++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/session/second-factor',
        headers: browser(guesser),
        remoteAddress: `10.8.0.${n + 1}`,
        payload: { method: 'recovery', code: `aaaaa-bbbb${'cdefg'[n]}` },
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    const told = () =>
      smtp.received.filter(
        (m) =>
          m.envelopeTo.includes(email) && m.parsed.subject === 'WBS: kode verifikasi salah berulang kali',
      );
    await until(() => told().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(told()).toHaveLength(1);
    expect(told()[0]?.parsed.text).toContain('ganti kata sandi');
  });
});

describe('a reporter writing message after message', () => {
  /** Everyone told of WBS-10000002 who has an address: the company, the partner and its staff, the case line's analyst. */
  const CASE_HANDLERS = [...HANDLERS, 'staff.holding2@wbs.example.id', 'analis.spi@wbs.example.id'];
  let t: TestApp;
  let smtp: TestSmtp;
  const mailsTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));
  const counted = (address: string) =>
    mailsTo(address).map((m) => Number(/Ada (\d+) pemberitahuan/.exec(m.parsed.text ?? '')?.[1] ?? 0));

  let mailing: Awaited<ReturnType<typeof mailingTestApp>> | undefined;
  beforeAll(async () => {
    // The product's own window (NOTICE_MAIL_WINDOW_SECONDS unset): 15 minutes.
    mailing = await mailingTestApp({ TRACKING_FAILURE_FLOOR_MS: '50' });
    ({ t, smtp } = mailing);
  }, 60_000);
  afterAll(async () => mailing?.close());

  /**
   * Every handler has a notice of each of the `messages` posted, and nothing of them is still under
   * way: no delivery job and no mail job waiting or running (a mail due now has been sent).
   */
  const settled = (messages: number) => async () => {
    const store = await t.app.store.open();
    const notices = await store.db
      .select({ userId: notice.userId })
      .from(notice)
      .where(and(eq(notice.kind, 'reporter-message'), inArray(notice.mail, ['immediate', 'sent'])));
    const perUser = new Map<number, number>();
    for (const { userId } of notices) perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
    if (perUser.size < CASE_HANDLERS.length || [...perUser.values()].some((n) => n < messages)) return false;
    const [jobs] = await rowsOf<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from pgboss.job
           where name in ('notices-deliver', 'notice-mail') and state::text in ('created', 'retry', 'active')`,
    );
    return jobs?.n === 0;
  };

  it('six reporter messages in a minute reach each handler as one mail, and the other five as one more when the window ends', {
    timeout: 120_000,
  }, async () => {
    const store = await t.app.store.open();
    // As the reporter (or someone flooding the handlers) writes them: each after the one before has
    // been told, so a mail per message would have gone out by the next.
    for (let i = 1; i <= 6; i++) {
      expect((await postTo(t, investigasi, `Tambahan keterangan ${i}`)).statusCode).toBe(201);
      await until(settled(i), 30_000);
    }
    for (const address of CASE_HANDLERS) expect(counted(address), address).toEqual([1]);
    // Nothing is lost: every handler's bell holds the six, five of them waiting for the window's end.
    const mailed = await store.db
      .select({ userId: notice.userId })
      .from(notice)
      .where(inArray(notice.mail, ['immediate', 'sent']));
    const userIds = [...new Set(mailed.map((r) => r.userId))];
    expect(userIds).toHaveLength(CASE_HANDLERS.length);
    for (const userId of userIds) expect(await pendingMail(store, userId, 'immediate')).toHaveLength(5);

    // The plugin asked for each handler's mail job at the window's end.
    const windows = await store.db
      .select()
      .from(noticeMailWindow)
      .where(and(inArray(noticeMailWindow.userId, userIds), eq(noticeMailWindow.kind, 'reporter-message')));
    expect(windows).toHaveLength(CASE_HANDLERS.length);
    const asked = await rowsOf<{ user_id: number; start_after: Date }>(
      store.db,
      sql`select (data->>'userId')::int as user_id, start_after from pgboss.job where name = 'notice-mail-later'`,
    );
    for (const window of windows) {
      const ask = asked.find((a) => a.user_id === window.userId);
      const endsAt = window.lastMailAt.getTime() + 15 * 60_000;
      expect(new Date(ask?.start_after ?? 0).getTime()).toBeGreaterThanOrEqual(endsAt);
      expect(new Date(ask?.start_after ?? 0).getTime()).toBeLessThan(endsAt + 10_000);
    }

    // That run, on the clock of the window's end: one more mail each, with the five that waited.
    const deps = {
      store,
      mailer: t.app.mailer,
      from: t.app.config.mail.from,
      publicUrl: t.app.config.publicUrl,
      secret: t.app.config.sessionSecret,
      log: t.app.log,
      windowMs: t.app.config.notices.mailWindowSeconds * 1000,
    };
    for (const window of windows) {
      const end = new Date(window.lastMailAt.getTime() + deps.windowMs);
      expect(await sendImmediateNotices(deps, window.userId, end)).toEqual({ sent: 1, nextAt: null });
    }
    for (const address of CASE_HANDLERS) expect(counted(address), address).toEqual([1, 5]);
    expect(smtp.received).toHaveLength(2 * CASE_HANDLERS.length);
  });
});
