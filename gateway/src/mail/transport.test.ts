import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/helpers.ts';
import {
  selfSignedCertificate,
  startSilentServer,
  startTestSmtp,
  type TestSmtp,
  testSmtpSettings,
} from '../test/smtp.ts';
import { handlerDigestMail } from './compose.ts';
import type { MailSettings, SmtpSettings } from './settings.ts';
import { MailError, type Mailer, mailer, type OutgoingMail } from './transport.ts';

const FROM = { name: 'WBS Uji', address: 'no-reply@wbs.invalid' };
const RECIPIENT = 'analis.rahasia@example.co.id';

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines, text: () => JSON.stringify(lines) };
}

function mail(overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    ...handlerDigestMail({
      to: RECIPIENT,
      messageId: '<digest.7.2027-01-12@wbs.invalid>',
      day: '2027-01-12',
      items: [{ kind: 'new-report', companyName: 'Perumda Tirta Kahuripan', count: 2 }],
      signInUrl: 'https://wbs.example.co.id/auth/login',
      preferencesUrl: 'https://wbs.example.co.id/admin/notifikasi',
      unsubscribeUrl: 'https://wbs.example.co.id/api/v1/mail/unsubscribe?t=abc',
      unsubscribePageUrl: 'https://wbs.example.co.id/notifikasi/ringkasan#abc',
    }),
    ...overrides,
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // Mailers first (they were opened after their servers), so a server finds its clients gone.
  for (const thing of open.splice(0).reverse()) await thing.close();
});

function mailerFor(smtp: SmtpSettings | null) {
  const captured = captureLog();
  const settings: MailSettings = { smtp, from: FROM };
  const instance = mailer(settings, captured.log);
  open.push(instance);
  return { mailer: instance, ...captured };
}

async function server(options: Parameters<typeof startTestSmtp>[0] = {}): Promise<TestSmtp> {
  const started = await startTestSmtp(options);
  open.push(started);
  return started;
}

async function failure(sending: Promise<void>): Promise<MailError> {
  const error = await sending.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MailError);
  return error as MailError;
}

/** The log never holds the recipient, the subject or any of the mail's text. */
function expectDiscreetLog(text: string, sent: OutgoingMail) {
  expect(text).not.toContain(RECIPIENT);
  expect(text).not.toContain('analis.rahasia');
  expect(text).not.toContain(sent.subject);
  expect(text).not.toContain('Kahuripan');
}

describe('mailer', () => {
  it('delivers the mail as given, with the sender, Message-ID and one-click unsubscribe headers', async () => {
    const smtp = await server();
    const { mailer: instance, lines, text } = mailerFor(testSmtpSettings(smtp.port));
    expect(instance.configured).toBe(true);
    const sent = mail();
    await instance.send(sent);

    expect(smtp.received).toHaveLength(1);
    const [got] = smtp.received;
    expect(got?.envelopeTo).toEqual([RECIPIENT]);
    expect(got?.parsed.messageId).toBe('<digest.7.2027-01-12@wbs.invalid>');
    expect(got?.parsed.subject).toBe(sent.subject);
    expect(got?.parsed.from?.value).toEqual([{ name: 'WBS Uji', address: 'no-reply@wbs.invalid' }]);
    expect(got?.parsed.text?.trim()).toBe(sent.text.trim());
    expect(got?.parsed.html).toContain('Perumda Tirta Kahuripan');
    const unfolded = got?.raw.replace(/\r\n(?=[ \t])/g, '');
    expect(unfolded).toMatch(
      /^List-Unsubscribe: <https:\/\/wbs\.example\.co\.id\/api\/v1\/mail\/unsubscribe\?t=abc>\r$/m,
    );
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);

    const line = lines.find((entry) => entry.msg === 'mail: sent');
    expect(line?.mail).toMatchObject({ messageId: '<digest.7.2027-01-12@wbs.invalid>', outcome: 'sent' });
    expectDiscreetLog(text(), sent);
  });

  it('sends many mails over the pool', async () => {
    const smtp = await server();
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => instance.send(mail({ messageId: `<n.${i}@wbs.invalid>` }))),
    );
    expect(smtp.received.map((r) => r.parsed.messageId).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `<n.${i}@wbs.invalid>`).sort(),
    );
    expect(smtp.connections()).toBeLessThanOrEqual(3);
  });

  it('a 4xx answer is retryable and its text (which echoes the address) is never logged', async () => {
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        callback(
          Object.assign(new Error(`Mailbox ${address.address} busy, try later`), { responseCode: 451 }),
        );
      },
    });
    const { mailer: instance, text } = mailerFor(testSmtpSettings(smtp.port));
    const error = await failure(instance.send(mail()));
    expect(error).toMatchObject({ retryable: true, failure: 'deferred', responseCode: 451 });
    expect(error.message).not.toContain(RECIPIENT);
    expect(smtp.received).toHaveLength(0);
    expectDiscreetLog(text(), mail());
    expect(text()).toContain('<digest.7.2027-01-12@wbs.invalid>');
  });

  it('a 5xx answer is permanent', async () => {
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        callback(Object.assign(new Error(`No such user ${address.address}`), { responseCode: 550 }));
      },
    });
    const { mailer: instance, text } = mailerFor(testSmtpSettings(smtp.port));
    const error = await failure(instance.send(mail()));
    expect(error).toMatchObject({ retryable: false, failure: 'rejected', responseCode: 550 });
    expect(error.message).not.toContain(RECIPIENT);
    expectDiscreetLog(text(), mail());
  });

  it('a 5xx answer to the message itself is permanent, a 4xx one retryable', async () => {
    let answer = 554;
    const smtp = await server({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('refused'), { responseCode: answer })));
      },
    });
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port));
    expect(await failure(instance.send(mail()))).toMatchObject({ retryable: false, responseCode: 554 });
    answer = 452;
    expect(await failure(instance.send(mail()))).toMatchObject({ retryable: true, responseCode: 452 });
  });

  it('a server that accepts the connection but never greets costs a bounded time', async () => {
    const silent = await startSilentServer();
    open.push(silent);
    const { mailer: instance, text } = mailerFor(testSmtpSettings(silent.port, { timeoutMs: 400 }));
    const started = performance.now();
    const error = await failure(instance.send(mail()));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ retryable: true, failure: 'timeout' });
    expectDiscreetLog(text(), mail());
  });

  it('a server that stalls in the middle of the message costs a bounded time too', async () => {
    const smtp = await server({
      onData(stream) {
        stream.resume(); // reads the message, never answers it
      },
    });
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port, { timeoutMs: 500 }));
    const started = performance.now();
    const error = await failure(instance.send(mail()));
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(error).toMatchObject({ retryable: true, failure: 'timeout' });
  });

  it('a refused or dropped connection is retryable', async () => {
    const dropping = await startSilentServer((socket) => socket.destroy());
    open.push(dropping);
    const { mailer: instance } = mailerFor(testSmtpSettings(dropping.port));
    expect(await failure(instance.send(mail()))).toMatchObject({ retryable: true });

    const gone = await startSilentServer();
    const port = gone.port;
    await gone.close();
    const { mailer: nothing } = mailerFor(testSmtpSettings(port));
    expect(await failure(nothing.send(mail()))).toMatchObject({ retryable: true, failure: 'unreachable' });
  });

  it('logs in with the credentials of SMTP_URL; a refused login is retryable (the setting is wrong, not the mail)', async () => {
    const smtp = await server({
      disabledCommands: [],
      authMethods: ['PLAIN'],
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'wbs' && auth.password === 'rahasia-smtp') callback(null, { user: 'wbs' });
        else callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
      },
    });
    const { mailer: right } = mailerFor(
      testSmtpSettings(smtp.port, { auth: { user: 'wbs', pass: 'rahasia-smtp' } }),
    );
    await right.send(mail());
    expect(smtp.received).toHaveLength(1);

    const { mailer: wrong, text } = mailerFor(
      testSmtpSettings(smtp.port, { auth: { user: 'wbs', pass: 'salah' } }),
    );
    expect(await failure(wrong.send(mail()))).toMatchObject({ retryable: true, failure: 'auth' });
    expect(text()).not.toContain('salah');
    expect(smtp.received).toHaveLength(1);
  });

  it('speaks TLS from the first byte to smtps://, trusting only the CA it is given', async () => {
    const { key, cert } = selfSignedCertificate();
    const smtp = await server({ secure: true, key, cert });
    const { mailer: trusting } = mailerFor(
      testSmtpSettings(smtp.port, { secure: true, ignoreTls: false, ca: cert }),
    );
    await trusting.send(mail());
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.secure).toBe(true);

    const { mailer: doubting } = mailerFor(testSmtpSettings(smtp.port, { secure: true, ignoreTls: false }));
    expect(await failure(doubting.send(mail()))).toMatchObject({ retryable: true });
    expect(smtp.received).toHaveLength(1);
  });

  it('with STARTTLS required, upgrades before sending and refuses a server without it', async () => {
    const { key, cert } = selfSignedCertificate();
    const offering = await server({ key, cert });
    const required = { requireTls: true, ignoreTls: false, ca: cert, host: 'localhost' };
    const { mailer: instance } = mailerFor(testSmtpSettings(offering.port, required));
    await instance.send(mail());
    expect(offering.received[0]?.secure).toBe(true);

    const plain = await server({ disabledCommands: ['AUTH', 'STARTTLS'] });
    const { mailer: refusing } = mailerFor(testSmtpSettings(plain.port, required));
    expect(await failure(refusing.send(mail()))).toMatchObject({ retryable: true });
    expect(plain.received).toHaveLength(0);
  });

  it('refuses, before any connection, a mail that could smuggle a header or a second recipient', async () => {
    const smtp = await server();
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port));
    const bad: Partial<OutgoingMail>[] = [
      { to: `${RECIPIENT}\r\nBcc: x@example.com` },
      { to: `${RECIPIENT}, x@example.com` },
      { to: `Nama <${RECIPIENT}>` },
      { subject: 'Halo\r\nBcc: x@example.com' },
      { messageId: 'no-at-sign' },
      { messageId: '<a@b>\r\nBcc: x@example.com' },
      { headers: { Bcc: 'x@example.com' } },
      { headers: { 'X-Ok': 'a\nBcc: x@example.com' } },
      { headers: { 'X Bad': 'v' } },
    ];
    for (const overrides of bad) {
      expect(await failure(instance.send(mail(overrides)))).toMatchObject({
        retryable: false,
        failure: 'invalid-mail',
      });
    }
    expect(smtp.connections()).toBe(0);
  });

  it('without SMTP_URL says so and refuses every send for good', async () => {
    const { mailer: instance } = mailerFor(null);
    expect(instance.configured).toBe(false);
    expect(await failure(instance.send(mail()))).toMatchObject({
      retryable: false,
      failure: 'not-configured',
    });
  });

  it('after close, a send is refused as retryable (another process may send it)', async () => {
    const smtp = await server();
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port));
    await instance.send(mail());
    await instance.close();
    expect(await failure(instance.send(mail()))).toMatchObject({ retryable: true, failure: 'closed' });
  });

  it('close gives a send under way a grace, then ends it as retryable', async () => {
    const smtp = await server({ onData: (stream) => stream.resume() });
    // A grace of a third of the bound: closed after ~1 s, long before the 3 s bound would end it.
    const { mailer: instance } = mailerFor(testSmtpSettings(smtp.port, { timeoutMs: 3_000 }));
    const sending = failure(instance.send(mail()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await instance.close();
    expect(performance.now() - started).toBeGreaterThan(900);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(await sending).toMatchObject({ retryable: true, failure: 'closed' });
  });
});

describe('mail plugin', () => {
  it('decorates app.mailer from SMTP_URL and closes it with the app', async () => {
    const smtp = await server();
    const { app, close } = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    let mailerOfApp: Mailer;
    try {
      mailerOfApp = app.mailer;
      expect(mailerOfApp.configured).toBe(true);
      await mailerOfApp.send(mail());
      expect(smtp.received).toHaveLength(1);
    } finally {
      await close();
    }
    expect(await failure(mailerOfApp.send(mail()))).toMatchObject({ failure: 'closed' });
  });

  it('without SMTP_URL the app still starts, with a mailer that is not configured', async () => {
    const { app, close } = await buildTestApp();
    try {
      expect(app.mailer.configured).toBe(false);
    } finally {
      await close();
    }
  });
});
