/**
 * Handlers' notice mails through the whole app with its jobs running, against a real SMTP server: a
 * reporter's message reaches each handler of the company as one content-free mail, a burst of
 * messages is one mail with a count, a retried job repeats no mail already accepted, and the digest
 * carries a one-click unsubscribe that works. A burst of wrong second-factor codes is a security
 * notice mailed at once, once per run.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, demoAccount, type TestApp } from '../test/helpers.ts';
import { enrolTotp, passwordSignIn } from '../test/second-factor.ts';
import { mailingTestApp, type TestSmtp } from '../test/smtp.ts';
import { until } from '../test/until.ts';
import { sendDigest } from './mail-jobs.ts';
import { pendingMail } from './store.ts';

const [first, investigasi] = demoCases;
const HOLDING = 'wbs@holding-airminum.example.id';
const HANDLERS = ['admin.kahuripan@wbs.example.id', HOLDING, 'staff.holding@wbs.example.id'];

describe('notice mails', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const mailsTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));
  const post = (tracked: (typeof demoCases)[number], text: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/messages',
      headers: { origin: 'http://localhost', 'idempotency-key': randomUUID() },
      payload: { caseNumber: tracked.caseNumber, password: tracked.password, text },
    });

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

  it('tells of a burst of messages in one mail per handler with the count', async () => {
    const before = mailsTo(HANDLERS[0]!).length;
    // Several reporters answer at once (two cases of company 1, a few messages each).
    for (let i = 0; i < 3; i++) {
      expect((await post(first, `Tambahan ${i}`)).statusCode).toBe(201);
      expect((await post(investigasi, `Jawaban ${i}`)).statusCode).toBe(201);
    }
    await until(() => mailsTo(HANDLERS[0]!).length > before);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const mails = mailsTo(HANDLERS[0]!).slice(before);
    // However the six messages fell into mail jobs, each was told exactly once.
    const counted = mails.reduce(
      (sum, m) => sum + Number(/Ada (\d+) pemberitahuan/.exec(m.parsed.text ?? '')?.[1] ?? 0),
      0,
    );
    expect(counted).toBe(6);
    expect(mails.length).toBeLessThan(6);
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
