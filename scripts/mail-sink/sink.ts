/**
 * The development mail sink: a real SMTP server (smtp-server) on 127.0.0.1 that keeps the last mails
 * it received in memory, and a small web page and JSON API on 127.0.0.1 to read them. `pnpm start`
 * points the gateway at it when no SMTP_URL is set, so every mail the product sends can be read at
 * http://127.0.0.1:8025; the suites start it to wait for mails and to make the server refuse or drop
 * connections for a while (fault tests). Nothing leaves the machine and nothing is written to disk.
 *
 * No authentication and no STARTTLS: it only listens on loopback, where the gateway speaks plain
 * SMTP (docs/deploy.md#mail).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export type SinkMessage = {
  /** 1, 2, 3, … in the order received (never reused until the sink restarts). */
  id: number;
  /** When the sink accepted it (ISO, UTC). */
  receivedAt: string;
  /** The SMTP envelope: MAIL FROM and RCPT TO as the client gave them. */
  envelope: { from: string; to: string[] };
  /** The From header as text (mailparser quotes the name: `"WBS" <no-reply@…>`). */
  from: string;
  /** The addresses of the To header. */
  to: string[];
  subject: string;
  /** The Date header (ISO), null when there was none. */
  date: string | null;
  /** The Message-ID header with its angle brackets, null when there was none. */
  messageId: string | null;
  /** Every header as sent (unfolded, encoded words kept), by lower-case name, repeats in order. */
  headers: Record<string, string[]>;
  text: string;
  html: string | null;
  /** The whole message as received. */
  raw: string;
};

/** How the SMTP server answers for now: normally (null), 4xx, 5xx, or hanging up at once. */
export type Refusal = 'temporary' | 'permanent' | 'drop' | null;
export const REFUSALS: readonly Refusal[] = ['temporary', 'permanent', 'drop', null];

export type MailSinkOptions = {
  /** SMTP port on 127.0.0.1; 0 (default): a free port. */
  smtpPort?: number;
  /** Web page and JSON API port on 127.0.0.1; 0 (default): a free port. */
  httpPort?: number;
  /** Mails kept; the oldest goes first (default 200). */
  maxMessages?: number;
  /** Largest mail accepted in bytes; a bigger one is refused with 552 (default 10 MB). */
  maxSize?: number;
  /** Called with every mail kept (main.ts logs its id). */
  onMessage?: (message: SinkMessage) => void;
};

export type MailSink = {
  smtpPort: number;
  httpPort: number;
  /** The web page, e.g. http://127.0.0.1:8025. */
  url: string;
  /** What the gateway's SMTP_URL should be to send here. */
  smtpUrl: string;
  /** The mails kept, oldest first. */
  messages(): SinkMessage[];
  clear(): void;
  /** Refuses (or drops) from now on; with `forMs`, only for that long. */
  setRefuse(refuse: Refusal, forMs?: number): void;
  refusal(): Refusal;
  close(): Promise<void>;
};

const HOST = '127.0.0.1';

function headersOf(parsed: ParsedMail): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const { key, line } of parsed.headerLines) {
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n(?=[ \t])/g, '')
      .trim();
    headers[key] = [...(headers[key] ?? []), value];
  }
  return headers;
}

function addressesOf(value: ParsedMail['to']): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return objects.flatMap((object) => object.value.flatMap((entry) => (entry.address ? [entry.address] : [])));
}

async function toMessage(id: number, raw: Buffer, session: SMTPServerSession): Promise<SinkMessage> {
  const parsed = await simpleParser(raw).catch(() => null);
  return {
    id,
    receivedAt: new Date().toISOString(),
    envelope: {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    },
    from: parsed?.from?.text ?? '',
    to: parsed ? addressesOf(parsed.to) : [],
    subject: parsed?.subject ?? '',
    date: parsed?.date ? parsed.date.toISOString() : null,
    messageId: parsed?.messageId ?? null,
    headers: parsed ? headersOf(parsed) : {},
    text: parsed?.text ?? '',
    html: typeof parsed?.html === 'string' ? parsed.html : null,
    raw: raw.toString('utf8'),
  };
}

const smtpError = (responseCode: number, message: string) =>
  Object.assign(new Error(message), { responseCode });

/** Listens on 127.0.0.1 and resolves with the port (the one asked for, or a free one for 0). */
async function listen(server: Server, start: (onListening: () => void) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    start(() => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const maxMessages = options.maxMessages ?? 200;
  const maxSize = options.maxSize ?? 10 * 1024 * 1024;
  let kept: SinkMessage[] = [];
  let nextId = 1;
  let refuse: Refusal = null;
  let refuseUntil = Number.POSITIVE_INFINITY;
  const refusal = (): Refusal => {
    if (refuse !== null && Date.now() >= refuseUntil) refuse = null;
    return refuse;
  };

  const smtp = new SMTPServer({
    name: 'mail-sink.localhost',
    banner: 'WBS mail sink (development)',
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    size: maxSize,
    rejectOversized: true,
    logger: false,
    socketTimeout: 30_000,
    closeTimeout: 1_000,
    onMailFrom(_address, _session, callback) {
      if (refusal() === 'temporary') {
        callback(smtpError(451, '4.3.0 Kotak surat uji sementara menolak; coba lagi nanti'));
      } else callback();
    },
    onRcptTo(_address, _session, callback) {
      if (refusal() === 'permanent') callback(smtpError(550, '5.7.1 Kotak surat uji menolak e-mail ini'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(smtpError(552, '5.3.4 Terlalu besar'));
        toMessage(nextId++, Buffer.concat(chunks), session).then((message) => {
          kept.push(message);
          if (kept.length > maxMessages) kept = kept.slice(kept.length - maxMessages);
          options.onMessage?.(message);
          callback();
        }, callback);
      });
    },
  });
  // "Drop": the connection is closed before the greeting, as a crashed or overloaded server does.
  smtp.server.prependListener('connection', (socket: Socket) => {
    if (refusal() === 'drop') socket.destroy();
  });
  smtp.on('error', () => {});

  const smtpPort = await listen(smtp.server, (done) => smtp.listen(options.smtpPort ?? 0, HOST, done));
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  let httpPort = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const hosts = [`${HOST}:${httpPort}`, `localhost:${httpPort}`];
    // A page on loopback is still reachable from a browser tab of any site (DNS rebinding): only
    // requests naming this host are answered.
    if (!hosts.includes(request.headers.host ?? '')) return send(response, 421, 'text/plain', 'Misdirected');
    const url = new URL(request.url ?? '/', `http://${HOST}:${httpPort}`);
    const path = url.pathname;
    const method = request.method ?? 'GET';
    if (path === '/api/messages' && method === 'GET') return sendJson(response, 200, kept);
    if (path === '/api/messages' && method === 'DELETE') {
      kept = [];
      return send(response, 204, 'text/plain', '');
    }
    if (path === '/api/knobs' && method === 'GET') return sendJson(response, 200, knobs());
    if (path === '/api/knobs' && method === 'POST') {
      // JSON only: a form on another site cannot send it without a CORS preflight this server never answers.
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(response, 415, { error: 'application/json expected' });
      }
      const body = await readBody(request);
      const parsed = parseKnobs(body);
      if (typeof parsed === 'string') return sendJson(response, 400, { error: parsed });
      sink.setRefuse(parsed.refuse, parsed.forMs);
      return sendJson(response, 200, knobs());
    }
    if (path === '/' && method === 'GET')
      return send(response, 200, 'text/html; charset=utf-8', listPage(kept));
    if (path === '/hapus' && method === 'POST') {
      if (request.headers.origin !== `http://${request.headers.host}`)
        return send(response, 403, 'text/plain', 'Forbidden');
      await readBody(request);
      kept = [];
      response.writeHead(303, { location: '/' }).end();
      return;
    }
    const match = /^\/messages\/(\d+)(\/raw)?$/.exec(path);
    const message = match && method === 'GET' ? kept.find((m) => m.id === Number(match[1])) : undefined;
    if (message && match?.[2]) return send(response, 200, 'text/plain; charset=utf-8', message.raw);
    if (message) return send(response, 200, 'text/html; charset=utf-8', messagePage(message));
    return send(
      response,
      404,
      'text/html; charset=utf-8',
      page('Tidak ditemukan', '<p>Tidak ada di sini.</p>'),
    );
  };
  const knobs = () => ({
    refuse: refusal(),
    until: refusal() !== null && Number.isFinite(refuseUntil) ? new Date(refuseUntil).toISOString() : null,
  });
  try {
    httpPort = await listen(http, (done) => http.listen(options.httpPort ?? 0, HOST, done));
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw error;
  }

  const sink: MailSink = {
    smtpPort,
    httpPort,
    url: `http://${HOST}:${httpPort}`,
    smtpUrl: `smtp://${HOST}:${smtpPort}`,
    messages: () => [...kept],
    clear: () => {
      kept = [];
    },
    setRefuse(value, forMs) {
      refuse = value;
      refuseUntil = value !== null && forMs !== undefined ? Date.now() + forMs : Number.POSITIVE_INFINITY;
    },
    refusal,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
  return sink;
}

function parseKnobs(body: string): { refuse: Refusal; forMs?: number } | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'body is not JSON';
  }
  const { refuse, forMs } = (value ?? {}) as { refuse?: unknown; forMs?: unknown };
  if (!REFUSALS.includes(refuse as Refusal)) return "refuse must be 'temporary', 'permanent', 'drop' or null";
  if (forMs !== undefined && (typeof forMs !== 'number' || !Number.isFinite(forMs) || forMs <= 0)) {
    return 'forMs must be a positive number of milliseconds';
  }
  return { refuse: refuse as Refusal, ...(forMs === undefined ? {} : { forMs }) };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function send(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS }).end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown) {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** An ISO moment as WIB wall time, how the product shows every time. */
const wib = (iso: string) =>
  `${new Date(Date.parse(iso) + 7 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')} WIB`;

function page(title: string, body: string, refresh = false): string {
  return `<!doctype html>
<html lang="id"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${refresh ? '<meta http-equiv="refresh" content="5">' : ''}
<style>body{font-family:sans-serif;margin:1.5em;max-width:70em}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
pre{background:#f4f4f4;padding:.8em;white-space:pre-wrap;word-break:break-all}</style></head>
<body>${body}</body></html>
`;
}

function listPage(messages: SinkMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${m.id}</td><td>${escapeHtml(wib(m.receivedAt))}</td><td>${escapeHtml(m.from)}</td>` +
        `<td>${escapeHtml(m.envelope.to.join(', '))}</td><td><a href="/messages/${m.id}">${escapeHtml(m.subject || '(tanpa subjek)')}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'Kotak surat pengembangan WBS',
    `<h1>Kotak surat pengembangan WBS</h1>
<p>E-mail yang dikirim gateway saat pengembangan berhenti di sini; tidak ada yang keluar dari mesin ini.
Halaman ini memuat ulang sendiri setiap 5 detik. ${messages.length} e-mail tersimpan (yang terbaru di atas).</p>
<form method="post" action="/hapus"><button type="submit">Hapus semua</button></form>
<table><thead><tr><th>#</th><th>Diterima</th><th>Dari</th><th>Kepada</th><th>Subjek</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">Belum ada e-mail.</td></tr>'}</tbody></table>`,
    true,
  );
}

function messagePage(m: SinkMessage): string {
  const headers = Object.entries(m.headers)
    .flatMap(([name, values]) =>
      values.map((value) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`),
    )
    .join('\n');
  return page(
    m.subject || '(tanpa subjek)',
    `<p><a href="/">← Semua e-mail</a> · <a href="/messages/${m.id}/raw">Sumber lengkap</a></p>
<h1>${escapeHtml(m.subject || '(tanpa subjek)')}</h1>
<table>
<tr><th>Diterima</th><td>${escapeHtml(wib(m.receivedAt))}</td></tr>
<tr><th>Dari</th><td>${escapeHtml(m.from)}</td></tr>
<tr><th>Kepada (amplop)</th><td>${escapeHtml(m.envelope.to.join(', '))}</td></tr>
<tr><th>Message-ID</th><td>${escapeHtml(m.messageId ?? '')}</td></tr>
</table>
<h2>Teks</h2><pre>${escapeHtml(m.text)}</pre>
<h2>HTML (sebagai teks, tidak ditampilkan)</h2><pre>${escapeHtml(m.html ?? '(tidak ada)')}</pre>
<h2>Header</h2><table>${headers}</table>`,
  );
}
