import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setSinkRefuse, sinkMessages, startSinkProcess, waitForMails } from '../support/mail.ts';
import { type MailSink, startMailSink } from './sink.ts';

/**
 * A minimal SMTP client that says exactly what a test needs and reports every reply code, so the
 * sink's answers are seen as a client sees them. Stops at the first refusal; `closed` when the
 * server hung up first.
 */
async function smtpSend(
  port: number,
  mail: { from: string; to: string; message: string },
): Promise<{ codes: number[]; closed: boolean }> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  let closed = false;
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  /** The next complete reply's code (the last line of a multi-line reply is "NNN text"). */
  const reply = async (): Promise<number | null> => {
    for (;;) {
      const match = /^(\d{3}) .*\r\n/m.exec(buffer);
      if (match) {
        buffer = buffer.slice((match.index ?? 0) + match[0].length);
        return Number(match[1]);
      }
      if (closed) return null;
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  const codes: number[] = [];
  const steps: (string | null)[] = [
    null,
    'EHLO test.localhost',
    `MAIL FROM:<${mail.from}>`,
    `RCPT TO:<${mail.to}>`,
    'DATA',
    `${mail.message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`,
  ];
  for (const step of steps) {
    if (step !== null) socket.write(`${step}\r\n`);
    const code = await reply();
    if (code === null) return { codes, closed: true };
    codes.push(code);
    if (code >= 400) break;
  }
  socket.end('QUIT\r\n');
  return { codes, closed: false };
}

const MESSAGE = [
  'From: WBS <no-reply@wbs.invalid>',
  'To: analis@example.co.id',
  'Subject: =?UTF-8?Q?Laporan_baru_<b>tebal</b>_=C3=A9?=',
  'Message-ID: <notice.1@wbs.invalid>',
  'Date: Tue, 12 Jan 2027 07:00:00 +0000',
  'List-Unsubscribe:',
  ' <https://wbs.example.co.id/u?t=1>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Ada 1 pemberitahuan baru.',
  '.titik di awal baris',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Ada <script>alert(1)</script> pemberitahuan</p>',
  '--b1--',
  '',
].join('\n');

const mail = (to = 'analis@example.co.id') => ({ from: 'no-reply@wbs.invalid', to, message: MESSAGE });

const sinks: MailSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});
async function sink(options: Parameters<typeof startMailSink>[0] = {}) {
  const started = await startMailSink(options);
  sinks.push(started);
  return started;
}

describe('mail sink', () => {
  it('keeps a mail it received, parsed, and serves it as JSON', async () => {
    const started = await sink();
    expect(await smtpSend(started.smtpPort, mail())).toEqual({
      codes: [220, 250, 250, 250, 354, 250],
      closed: false,
    });

    const [message] = await sinkMessages(started.url);
    expect(message).toMatchObject({
      id: 1,
      envelope: { from: 'no-reply@wbs.invalid', to: ['analis@example.co.id'] },
      from: '"WBS" <no-reply@wbs.invalid>',
      to: ['analis@example.co.id'],
      subject: 'Laporan baru <b>tebal</b> é',
      date: '2027-01-12T07:00:00.000Z',
      messageId: '<notice.1@wbs.invalid>',
      text: 'Ada 1 pemberitahuan baru.\n.titik di awal baris',
      html: '<p>Ada <script>alert(1)</script> pemberitahuan</p>',
    });
    expect(message?.headers['list-unsubscribe']).toEqual(['<https://wbs.example.co.id/u?t=1>']);
    expect(message?.headers['message-id']).toEqual(['<notice.1@wbs.invalid>']);
    expect(message?.raw).toContain('Subject: =?UTF-8?Q?Laporan_baru');
    expect(started.messages()).toEqual([message]);

    const cleared = await fetch(`${started.url}/api/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await sinkMessages(started.url)).toEqual([]);
  });

  it('shows the mails on a page, everything escaped, HTML as text and the raw source', async () => {
    const started = await sink();
    await smtpSend(started.smtpPort, mail());
    const list = await fetch(started.url);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const listHtml = await list.text();
    expect(listHtml).toContain('Kotak surat pengembangan WBS');
    expect(listHtml).toContain('<a href="/messages/1">Laporan baru &lt;b&gt;tebal&lt;/b&gt; é</a>');
    expect(listHtml).not.toContain('<b>tebal</b>');

    const detail = await (await fetch(`${started.url}/messages/1`)).text();
    expect(detail).toContain('&lt;p&gt;Ada &lt;script&gt;alert(1)&lt;/script&gt; pemberitahuan&lt;/p&gt;');
    expect(detail).not.toContain('<script>');
    expect(detail).toContain('Ada 1 pemberitahuan baru.');
    const raw = await fetch(`${started.url}/messages/1/raw`);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await raw.text()).toContain('<p>Ada <script>alert(1)</script> pemberitahuan</p>');
    expect((await fetch(`${started.url}/messages/99`)).status).toBe(404);
  });

  it('keeps only the last mails, and refuses one over the size limit', async () => {
    const started = await sink({ maxMessages: 2, maxSize: 4_000 });
    for (const to of ['a@example.co.id', 'b@example.co.id', 'c@example.co.id'])
      await smtpSend(started.smtpPort, mail(to));
    expect(started.messages().map((m) => [m.id, m.envelope.to[0]])).toEqual([
      [2, 'b@example.co.id'],
      [3, 'c@example.co.id'],
    ]);
    const big = await smtpSend(started.smtpPort, {
      ...mail(),
      message: `${MESSAGE}${'x'.repeat(78)}\n`.repeat(60),
    });
    expect(big.codes.at(-1)).toBe(552);
    expect(started.messages()).toHaveLength(2);
  });

  it('refuses with 4xx, 5xx or hangs up while the knob says so, and only as long as it says', async () => {
    const started = await sink();
    await setSinkRefuse(started.url, 'temporary');
    expect((await smtpSend(started.smtpPort, mail())).codes).toEqual([220, 250, 451]);
    await setSinkRefuse(started.url, 'permanent');
    expect((await smtpSend(started.smtpPort, mail())).codes).toEqual([220, 250, 250, 550]);
    await setSinkRefuse(started.url, 'drop');
    expect(await smtpSend(started.smtpPort, mail())).toEqual({ codes: [], closed: true });
    expect(await (await fetch(`${started.url}/api/knobs`)).json()).toEqual({ refuse: 'drop', until: null });

    await setSinkRefuse(started.url, 'temporary', 300);
    expect((await smtpSend(started.smtpPort, mail())).codes).toEqual([220, 250, 451]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await smtpSend(started.smtpPort, mail())).codes.at(-1)).toBe(250);
    await setSinkRefuse(started.url, null);
    expect(started.messages()).toHaveLength(1);
  });

  it('answers only requests naming its own host, and checks the knobs it is given', async () => {
    const started = await sink();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port: started.httpPort,
          path: '/api/messages',
          headers: { host: 'evil.example' },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(421);
    const knob = (body: string, type = 'application/json') =>
      fetch(`${started.url}/api/knobs`, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await knob('{"refuse":"sometimes"}')).status).toBe(400);
    expect((await knob('{"refuse":"drop","forMs":-1}')).status).toBe(400);
    expect((await knob('refuse=drop', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect(started.refusal()).toBeNull();
    const wipe = await fetch(`${started.url}/hapus`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(wipe.status).toBe(403);
  });
});

describe('mail sink as a process (scripts/support/mail.ts)', () => {
  it('starts on free ports, says so in one JSON line, and waits for mails', async () => {
    const running = await startSinkProcess();
    try {
      expect(running.smtpUrl).toBe(`smtp://127.0.0.1:${running.smtpPort}`);
      await smtpSend(running.smtpPort, mail('a@example.co.id'));
      await smtpSend(running.smtpPort, mail('b@example.co.id'));
      const found = await waitForMails(
        running.url,
        1,
        (m) => m.envelope.to.includes('b@example.co.id'),
        3_000,
      );
      expect(found.map((m) => m.id)).toEqual([2]);
      await expect(waitForMails(running.url, 3, () => true, 300)).rejects.toThrow(
        /the sink holds 2 matching/,
      );
      await running.setRefuse('permanent');
      expect((await smtpSend(running.smtpPort, mail())).codes.at(-1)).toBe(550);
      await running.clear();
      expect(await running.messages()).toEqual([]);
    } finally {
      await running.stop();
    }
    await expect(fetch(running.url)).rejects.toThrow();
  });
});
