/**
 * The reporter's e-mail notice of a reply through the real app, on both store engines: the tracker's
 * proof, the neutral answer and its limits, the confirmation and opt-out links (the mails made by the
 * jobs and received by a real SMTP server), one notice per handler message and hour, nothing for an
 * activity note, and the address in no log line and no staff reply.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { REPORTER_NOTICE_MESSAGES as M, PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerReporterNoticeJobs } from '../../reporter-notices/jobs.ts';
import { addressHmacOf } from '../../reporter-notices/store.ts';
import { eq, sql } from '../../store/drizzle.ts';
import type { Store } from '../../store/plugin.ts';
import { reporterConfirmationSend, reporterSubscription } from '../../store/schema.ts';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoLogins, ORIGIN, type TestApp } from '../../test/helpers.ts';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink.ts';
import { installStandInQueue, type StandInQueue } from '../../test/stand-in-queue.ts';
import { multipart } from '../../test/uploads.ts';

const FLOOR_MS = 120;
const PUBLIC_URL = 'https://wbs.example';
const [baru, investigasi, ditutup] = demoCases;
const proofOf = (c: { caseNumber: string; password: string }) => ({
  caseNumber: c.caseNumber,
  password: c.password,
});
/** Case 2 (company 1, Investigasi): the handlers of company 1 answer it. */
const PROOF = proofOf(investigasi);
const HOUR_MS = 60 * 60 * 1000;
const TOKEN = /#([A-Za-z0-9_-]{43})/;

describe.each(ENGINES)('reporter e-mail notices on $engine', ({ engine }) => {
  let t: TestApp;
  let store: Store;
  let sink: SmtpSink;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>> | undefined;
  /** Every address a test used: none may reach a log line or a staff reply. */
  const used = new Set<string>();
  let serial = 0;
  /** A fresh address of a shape no seeded reporter has (its mask is k***@s***.id). */
  const newAddress = () => {
    const address = `kabar.${++serial}.${randomUUID().slice(0, 8)}@surel-sekali.id`;
    used.add(address);
    return address;
  };

  beforeAll(async () => {
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({
      TRACKING_FAILURE_FLOOR_MS: String(FLOOR_MS),
      TRACKING_MAX_PER_NUMBER: '500',
      TRACKING_MAX_PER_CLIENT: '5000',
      RATE_LIMIT_NAMESPACE: `test-reporter-notices-${randomUUID()}`,
      ...storeEnv.env,
    });
    store = await t.app.store.open();
    sink = await startSmtpSink();
    standIn = installStandInQueue(t.app);
    await registerReporterNoticeJobs(t.app, { mailer: sink.mailer, publicUrl: PUBLIC_URL, queue: standIn });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sink?.close();
    await storeEnv?.drop();
  });
  beforeEach(async () => {
    await store.db.delete(reporterSubscription);
    await store.db.delete(reporterConfirmationSend);
    queue().clear();
    sink.mails.length = 0;
  });

  let standIn: StandInQueue;
  const queue = (): StandInQueue => standIn;
  const sentTo = (name: string) => queue().sent.filter((job) => job.name === name);
  const login = demoLogins(() => t.app);
  const tracker = (path: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/tracking/reporter-notices${path}`,
      headers: { origin: ORIGIN },
      payload,
      remoteAddress: '198.51.100.77',
    });
  const ask = (email: string, proof: object = PROOF) => tracker('', { ...proof, email });
  const status = (proof: object = PROOF) => tracker('/status', proof);
  const link = (path: 'confirm' | 'opt-out', token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/reporter-notices/${path}`,
      headers: { origin: ORIGIN },
      payload: { token },
    });
  const as = async (username: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: browser(await login(username)),
      ...(payload ? { payload } : {}),
    });
  /** A handler's Pesan on case 2; its message id. */
  const handlerSays = async (text: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/2/messages',
      headers: { ...browser(await login('admin.kahuripan')), ...headers },
      payload: { text },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { postedId: number }).postedId;
  };
  const rows = () => store.db.select().from(reporterSubscription);
  /** The hook is not awaited by the post: wait until the store saw message `id`. */
  const seen = async (id: number) => {
    for (let i = 0; i < 200; i++) {
      const [row] = await store.db
        .select({ last: reporterSubscription.lastMessageId })
        .from(reporterSubscription)
        .where(eq(reporterSubscription.state, 'confirmed'));
      if ((row?.last ?? 0) >= id) {
        // The queue's send follows the store's claim: let it land.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`message ${id} never reached the notice hook`);
  };
  /** Time passes for the limits and the coalescing: every stored moment moves `ms` earlier. */
  const age = async (ms: number) => {
    const by = sql`${`${ms} milliseconds`}::interval`;
    await store.db.update(reporterConfirmationSend).set({ sentAt: sql`sent_at - ${by}` });
    await store.db.update(reporterSubscription).set({
      lastNoticeAt: sql`last_notice_at - ${by}`,
      createdAt: sql`created_at - ${by}`,
    });
  };
  /** Asks, runs the confirmation job (a real mail to the sink) and opens the link. */
  const subscribe = async (address: string, proof: object = PROOF) => {
    expect((await ask(address, proof)).statusCode).toBe(202);
    expect(await queue().drain()).toEqual([]);
    const mail = sink.mails.findLast((m) => m.rcptTo.includes(address));
    const token = mail?.text.match(TOKEN)?.[1];
    if (!token) throw new Error('no confirmation mail');
    const confirmed = await link('confirm', token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return token;
  };

  it('with the proof: one neutral 202, one confirmation queued by row id, the address only sealed', async () => {
    const address = newAddress();
    const started = performance.now();
    const res = await ask(`  ${address} `);
    expect(performance.now() - started).toBeGreaterThanOrEqual(FLOOR_MS - 5);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: M.requested });
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ state: 'pending', audience: 'tracker', companyId: 1, caseId: 2 });
    // Trimmed as typed, sealed: no part of it readable in the row; the limit's HMAC is the store's own.
    const dump = JSON.stringify(row);
    for (const part of [address, address.split('@')[0]!, 'surel-sekali']) expect(dump).not.toContain(part);
    expect(row?.addressHmac).toBe(await addressHmacOf(store, address));
    // The queue carries the row id only.
    expect(queue().sent.map((job) => [job.name, job.data])).toEqual([
      ['reporter-confirmation', { subscriptionId: row?.id }],
    ]);
    expect((await status()).json()).toEqual({ confirmed: null, pending: 'k***@s***.id' });
  });

  it('a report seen in a final status starts its 30 days; an open one does not', async () => {
    // WBS-10000003 is Ditutup (final), WBS-10000002 Investigasi.
    expect((await ask(newAddress(), proofOf(ditutup))).statusCode).toBe(202);
    expect((await ask(newAddress())).statusCode).toBe(202);
    const byCase = new Map((await rows()).map((row) => [row.caseId, row.finalStatusAt]));
    expect(byCase.get(3)).toBeInstanceOf(Date);
    expect(byCase.get(2)).toBeNull();
  });

  it('a wrong password and an unknown number: the tracking 404, nothing stored, queued or sent', async () => {
    const address = newAddress();
    for (const proof of [
      { caseNumber: investigasi.caseNumber, password: 'Salah#2026!' },
      { caseNumber: 'WBS-99999999', password: investigasi.password },
    ]) {
      for (const res of [await ask(address, proof), await status(proof), await tracker('/stop', proof)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toBe(PROBLEM_MESSAGES.trackingFailed);
      }
    }
    expect(await rows()).toEqual([]);
    expect(queue().sent).toEqual([]);
  });

  it('one confirmation per case per hour and per address per day, every answer the same', async () => {
    const first = newAddress();
    const second = newAddress();
    const answers = [
      await ask(first),
      // The same case within the hour: another address is not mailed.
      await ask(second),
      // The same mailbox for another case within the day, however it is spelt.
      await ask(first, proofOf(baru)),
      await ask(first.toUpperCase().replace('@', '+bom@'), proofOf(ditutup)),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.body).toBe(answers[0]?.body);
    }
    expect(sentTo('reporter-confirmation')).toHaveLength(1);
    expect((await status()).json()).toEqual({ confirmed: null, pending: 'k***@s***.id' });
    expect((await status(proofOf(baru))).json()).toEqual({ confirmed: null, pending: null });

    // An hour later the case may ask again (the new address replaces the waiting one); the first
    // address is still spent for the day.
    await age(HOUR_MS + 1000);
    expect((await ask(second)).statusCode).toBe(202);
    expect((await ask(first, proofOf(baru))).statusCode).toBe(202);
    expect(sentTo('reporter-confirmation')).toHaveLength(2);
    const pending = (await rows()).filter((row) => row.caseId === 2);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.addressHmac).toBe(await addressHmacOf(store, second));
    await age(24 * HOUR_MS);
    expect((await ask(first, proofOf(baru))).statusCode).toBe(202);
    expect(sentTo('reporter-confirmation')).toHaveLength(3);
  });

  it('confirms by the link once; a used, expired or malformed token is refused alike', async () => {
    const address = newAddress();
    expect((await ask(address)).statusCode).toBe(202);
    expect(await queue().drain()).toEqual([]);
    const [mail] = sink.mails;
    expect(mail?.rcptTo).toEqual([address]);
    const token = mail?.text.match(TOKEN)?.[1] ?? '';
    expect(mail?.text).toContain(`${PUBLIC_URL}/notifikasi/konfirmasi#${token}`);
    // Only the token's hash is kept.
    expect(JSON.stringify(await rows())).not.toContain(token);

    const confirmed = await link('confirm', token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ confirmed: 'k***@s***.id' });
    expect((await status()).json()).toEqual({ confirmed: 'k***@s***.id', pending: null });
    const reused = await link('confirm', token);
    expect(reused.statusCode).toBe(404);
    expect(reused.json().detail).toBe(M.confirmFailed);

    // A new address an hour later, whose link is opened too late: the confirmed one stays.
    await age(HOUR_MS + 1000);
    expect((await ask(newAddress())).statusCode).toBe(202);
    await queue().drain();
    const late = sink.mails.at(-1)?.text.match(TOKEN)?.[1] ?? '';
    await store.db
      .update(reporterSubscription)
      .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(reporterSubscription.state, 'pending'));
    const expired = await link('confirm', late);
    expect(expired.statusCode).toBe(404);
    expect(expired.body).toBe(reused.body);
    expect((await rows()).map((row) => row.state)).toEqual(['confirmed']);

    for (const bad of ['', 'x'.repeat(42), `${token.slice(0, 42)}!`, `${token}x`, `${token.slice(1)} `]) {
      const refused = await link('confirm', bad);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().errors).toEqual({ token: M.tokenInvalid });
    }
  });

  it('a confirmed new address replaces the old one, which then gets nothing', async () => {
    const old = newAddress();
    await subscribe(old);
    await age(HOUR_MS + 1000);
    const replacement = `ganti.${randomUUID().slice(0, 8)}@lain-sekali.id`;
    used.add(replacement);
    // Until the new one is confirmed, the old one still gets the notices.
    expect((await ask(replacement)).statusCode).toBe(202);
    expect((await status()).json()).toEqual({ confirmed: 'k***@s***.id', pending: 'g***@l***.id' });
    await queue().drain();
    const token = sink.mails.at(-1)?.text.match(TOKEN)?.[1] ?? '';
    expect((await link('confirm', token)).statusCode).toBe(200);
    expect((await status()).json()).toEqual({ confirmed: 'g***@l***.id', pending: null });
    expect((await rows()).map((row) => row.state)).toEqual(['confirmed']);
    sink.mails.length = 0;
    await seen(await handlerSays('Kami sudah menerima dokumen Anda.'));
    await queue().drain();
    expect(sink.mails.map((m) => m.rcptTo)).toEqual([[replacement]]);
  });

  it("a handler's message queues one notice an hour; notes, the reporter's own messages and a retried post none", async () => {
    const address = newAddress();
    await subscribe(address);
    queue().clear();
    sink.mails.length = 0;

    await seen(await handlerSays('Mohon kirimkan salinan kontrak.'));
    expect(sentTo('reporter-notice')).toHaveLength(1);
    // Within the hour: covered by the first mail.
    await seen(await handlerSays('Juga salinan faktur, bila ada.'));
    expect(sentTo('reporter-notice')).toHaveLength(1);

    // An activity note and the reporter's own message are nothing the reporter is told of.
    const note = await multipart({ statusId: '14', message: 'Catatan internal penyidik' });
    const noted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/2/logs',
      payload: note.payload,
      headers: { ...browser(await login('admin.kahuripan')), ...note.headers },
    });
    expect(noted.statusCode, noted.body).toBe(201);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/messages',
      headers: { origin: ORIGIN },
      payload: { ...PROOF, text: 'Kontrak terlampir di Tambah Bukti.' },
    });
    expect(own.statusCode, own.body).toBe(201);
    await age(HOUR_MS + 1000);
    // A retried post (same Idempotency-Key, same text) is the same message: no new reply.
    const key = { 'idempotency-key': `retry-${randomUUID()}` };
    const replied = await handlerSays('Terima kasih, kami periksa.', key);
    await seen(replied);
    expect(sentTo('reporter-notice')).toHaveLength(2);
    await age(HOUR_MS + 1000);
    expect(await handlerSays('Terima kasih, kami periksa.', key)).toBe(replied);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sentTo('reporter-notice')).toHaveLength(2);

    expect(await queue().drain()).toEqual([]);
    expect(sink.mails).toHaveLength(2);
    for (const mail of sink.mails) {
      expect(mail.rcptTo).toEqual([address]);
      expect(mail.text).toContain(`${PUBLIC_URL}/admin/checkcase`);
      expect(mail.text).toMatch(/\/notifikasi\/berhenti#[A-Za-z0-9_-]{43}/);
      // Only that there is news: no number, password, text of the case or its messages, no id.
      for (const secret of [
        investigasi.caseNumber,
        investigasi.password,
        'kontrak',
        'faktur',
        'periksa',
        'penyidik',
        '/cases/2',
      ]) {
        expect(mail.raw.toLowerCase()).not.toContain(secret.toLowerCase());
      }
    }
  });

  it('stops by the link in every mail (the same answer twice) and by the button; nothing is mailed after', async () => {
    const address = newAddress();
    await subscribe(address);
    await seen(await handlerSays('Ada perkembangan.'));
    await queue().drain();
    const optOut = sink.mails.at(-1)?.text.match(/berhenti#([A-Za-z0-9_-]{43})/)?.[1] ?? '';
    expect(JSON.stringify(await rows())).not.toContain(optOut);
    const first = await link('opt-out', optOut);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: M.optOutDone });
    const again = await link('opt-out', optOut);
    expect(again.body).toBe(first.body);
    expect(await link('opt-out', 'A'.repeat(43)).then((r) => r.body)).toBe(first.body);
    expect(await rows()).toEqual([]);
    await age(HOUR_MS + 1000);
    queue().clear();
    await handlerSays('Perkembangan kedua.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(queue().sent).toEqual([]);

    // The tracked view's button: every address of the case goes.
    await age(HOUR_MS + 1000);
    await subscribe(newAddress());
    const stopped = await tracker('/stop', PROOF);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toEqual({ confirmed: null, pending: null });
    expect(await rows()).toEqual([]);
  });

  it('refuses anything but one plain address, and stores nothing for it', async () => {
    const injections = [
      'a@contoh.id\r\nBcc: korban@contoh.id',
      'a@contoh.id\nSubject: x',
      'a@contoh.id\r',
      'a@contoh.id, korban@contoh.id',
      'a@contoh.id;korban@contoh.id',
      'Nama <a@contoh.id>',
      '"a b"@contoh.id',
      'a@[127.0.0.1]',
      'a@contoh',
      'ä@contoh.id',
      'a@cöntoh.id',
      'a\u2028@contoh.id',
      `${'a'.repeat(65)}@contoh.id`,
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.id`,
    ];
    for (const email of injections) {
      const res = await ask(email);
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.json().errors).toEqual({ email: M.emailInvalid });
    }
    const missing = await tracker('', PROOF);
    expect(missing.json().errors).toEqual({ email: M.emailRequired });
    expect(await rows()).toEqual([]);
    expect(queue().sent).toEqual([]);
  });

  it('the signed-in pelapor on its own case; other cases and staff are refused', async () => {
    const own = await as('pelapor', 'POST', '/cases/search', {
      from: '2020-01-01',
      to: latestIndonesianToday(),
      pageSize: 100,
    });
    const caseId = (own.json().items as { id: number }[])[0]?.id;
    if (!caseId) throw new Error('the seed gives the pelapor no case');
    const address = newAddress();
    expect((await as('pelapor', 'GET', `/cases/${caseId}/reporter-notices`)).json()).toEqual({
      confirmed: null,
      pending: null,
    });
    const asked = await as('pelapor', 'POST', `/cases/${caseId}/reporter-notices`, { email: address });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ message: M.requested });
    await queue().drain();
    const token = sink.mails.at(-1)?.text.match(TOKEN)?.[1] ?? '';
    expect((await link('confirm', token)).statusCode).toBe(200);
    expect((await as('pelapor', 'GET', `/cases/${caseId}/reporter-notices`)).json()).toEqual({
      confirmed: 'k***@s***.id',
      pending: null,
    });
    // The pelapor reads its replies by signing in: that is where its notice points.
    await as('admin.kahuripan', 'POST', `/cases/${caseId}/messages`, { text: 'Mohon konfirmasi.' });
    for (let i = 0; i < 100 && sentTo('reporter-notice').length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await queue().drain();
    expect(sink.mails.at(-1)?.text).toContain(`${PUBLIC_URL}/auth/login`);
    const stopped = await as('pelapor', 'DELETE', `/cases/${caseId}/reporter-notices`);
    expect(stopped.json()).toEqual({ confirmed: null, pending: null });

    expect((await as('pelapor', 'GET', '/cases/2/reporter-notices')).statusCode).toBe(404);
    expect((await as('pelapor', 'POST', '/cases/2/reporter-notices', { email: address })).statusCode).toBe(
      404,
    );
    for (const staff of ['admin.kahuripan', 'holding', 'analis.direksi']) {
      expect((await as(staff, 'GET', `/cases/${caseId}/reporter-notices`)).statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/cases/${caseId}/reporter-notices` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("a queue that refuses: the ask answers 503 and counts nothing; the handler's post still succeeds", async () => {
    const q = queue();
    const send = q.send.bind(q);
    q.send = async () => {
      throw new Error('queue down');
    };
    try {
      const refused = await ask(newAddress());
      expect(refused.statusCode).toBe(503);
      expect(refused.json().detail).toBe(M.unavailable);
      expect(await rows()).toEqual([]);
      expect(await store.db.select().from(reporterConfirmationSend)).toEqual([]);
    } finally {
      q.send = send;
    }
    await subscribe(newAddress());
    q.send = async () => {
      throw new Error('queue down');
    };
    try {
      const before = t.logs.length;
      const id = await handlerSays('Balasan saat antrean mati.');
      await seen(id);
      for (let i = 0; i < 100 && !t.logs.slice(before).some((l) => l.queue === 'reporter-notice'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(t.logs.slice(before).find((l) => l.queue === 'reporter-notice')?.msg).toBe(
        'reporter notices: reply notice not queued',
      );
      // Given back: the next reply may try again at once.
      const [row] = await rows();
      expect(row?.lastNoticeAt).toBeNull();
    } finally {
      q.send = send;
    }
    expect(await t.app.telemetry.registry.metrics()).toMatch(
      /^wbs_reporter_notices_total\{event="enqueue-failed"\} [1-9]/m,
    );
  });

  it('no address or token in any log line, and none in any staff reply', async () => {
    const address = newAddress();
    const token = await subscribe(address);
    await seen(await handlerSays('Pesan terakhir untuk pemeriksaan log.'));
    await queue().drain();
    const staffReplies = [
      await as('admin.kahuripan', 'GET', '/cases/2'),
      await as('admin.kahuripan', 'GET', '/cases/2/messages'),
      await as('holding', 'GET', '/cases/2'),
      await as('admin.kahuripan', 'POST', '/cases/search', {
        from: '2020-01-01',
        to: latestIndonesianToday(),
        pageSize: 100,
      }),
    ];
    const masks = ['k***@s***.id', 'g***@l***.id'];
    for (const res of staffReplies) {
      expect(res.statusCode, res.body).toBe(200);
      for (const secret of [...used, ...masks]) expect(res.body).not.toContain(secret);
    }
    const logText = JSON.stringify(t.logs);
    expect(logText).toContain('reporter notices: mail sent');
    for (const secret of [...used, token, 'surel-sekali', 'lain-sekali'])
      expect(logText).not.toContain(secret);
  });
});
