/**
 * The one way a mail leaves the gateway: a pooled nodemailer SMTP transport behind `Mailer`
 * (docs/adr/0057-mail.md). What to send and when is decided elsewhere (compose.ts writes the mails;
 * the callers queue and retry them).
 *
 * Every send is bounded (SMTP_TIMEOUT_MS, from the first connection attempt to the server's last
 * answer): a server that never greets, or stalls in the middle of a message, costs the caller that
 * long at most. A failure is a `MailError` saying whether sending the same mail again may succeed
 * (a 4xx answer, a connection or TLS failure, a timeout) or never will (a 5xx answer, a mail the
 * gateway itself refuses), so a job queue knows whether to retry with back-off or give up.
 *
 * The ops log gets the caller's Message-ID and the outcome only: never an address, a subject, the
 * mail's content or the server's answer text (servers echo the recipient in it).
 *
 * nodemailer (~15–20 MB per process) is loaded with the first send, never without SMTP_URL
 * (docs/adr/0037-start-up-memory.md).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { isPermanentResponseCode, type NodemailerError } from 'nodemailer/lib/errors';
import { isMailAddress, type MailSettings, type SmtpSettings } from './settings.ts';

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers?: Record<string, string>;
};

export type Mailer = {
  readonly configured: boolean;
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
};

/** Why a send failed; `retryable` says whether the same mail may go through later. */
export type MailFailure =
  | 'not-configured'
  | 'invalid-mail'
  | 'rejected'
  | 'deferred'
  | 'unreachable'
  | 'tls'
  | 'auth'
  | 'timeout'
  | 'closed'
  | 'failed';

/** A failed send. The message is ours and neutral: no address, no server answer text. */
export class MailError extends Error {
  readonly failure: MailFailure;
  readonly retryable: boolean;
  /** The SMTP reply code when the server answered with one (421, 451, 550, …). */
  readonly responseCode: number | undefined;
  constructor(failure: MailFailure, retryable: boolean, message: string, responseCode?: number) {
    super(message);
    this.name = 'MailError';
    this.failure = failure;
    this.retryable = retryable;
    this.responseCode = responseCode;
  }
}

/** Headers a caller may not set: the transport writes them from the mail's own fields. */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'sender',
  'reply-to',
  'subject',
  'message-id',
  'date',
  'return-path',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
]);
const HEADER_NAME = /^[A-Za-z][A-Za-z0-9-]{0,62}$/;
/** Any control character, and Unicode's own line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** A Message-ID's inside: printable ASCII without angle brackets or spaces, one @. */
const MESSAGE_ID = /^[\x21-\x3b\x3d\x3f-\x7e]{1,200}@[A-Za-z0-9.-]{1,100}$/;

/** The Message-ID in angle brackets; null when it is not one (a caller's mistake, never sent). */
export function normalMessageId(messageId: string): string | null {
  const inner = messageId.replace(/^<(.*)>$/, '$1');
  return MESSAGE_ID.test(inner) && (inner.match(/@/g) ?? []).length === 1 ? `<${inner}>` : null;
}

/** What is wrong with a mail the transport must refuse to send, or null when nothing is. */
function invalidPart(mail: OutgoingMail): string | null {
  if (!isMailAddress(mail.to)) return 'recipient is not one plain address';
  if (normalMessageId(mail.messageId) === null) return 'Message-ID is not id@domain';
  if (CONTROL.test(mail.subject) || mail.subject.length > 400) return 'subject is not one short line';
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase()))
      return 'a header name is not allowed';
    if (CONTROL.test(value) || value.length > 900) return 'a header value is not one short line';
  }
  return null;
}

/** nodemailer's message options for a mail (also how the tests see what goes on the wire). */
export function messageOptions(mail: OutgoingMail, from: MailSettings['from']) {
  return {
    from: { name: from.name, address: from.address },
    to: mail.to,
    envelope: { from: from.address, to: [mail.to] },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: normalMessageId(mail.messageId) ?? undefined,
    headers: { ...mail.headers },
    // Content is only ever the strings given: never a file or a URL nodemailer would fetch.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** A nodemailer failure as a MailError: permanent only when the server refused this mail for good. */
function mailError(error: NodemailerError, aborted: 'timeout' | 'closed' | null): MailError {
  const code = error.responseCode;
  if (aborted === 'timeout')
    return new MailError('timeout', true, 'mail: the SMTP server did not finish in time');
  if (aborted === 'closed')
    return new MailError('closed', true, 'mail: the mailer closed before the send ended');
  // A refused login is the configuration's fault, not the mail's: fixing SMTP_URL lets it go.
  if (error.code === 'EAUTH' || error.code === 'ENOAUTH') {
    return new MailError('auth', true, 'mail: the SMTP server refused the credentials', code);
  }
  // A server that cannot (or will not) upgrade is the configuration's fault too, whatever it answered.
  if (error.code === 'ETLS' || error.code === 'EREQUIRETLS') {
    return new MailError('tls', true, 'mail: TLS with the SMTP server failed');
  }
  if (typeof code === 'number' && code >= 400) {
    const permanent = error.permanent ?? isPermanentResponseCode(code);
    return permanent
      ? new MailError('rejected', false, `mail: the SMTP server refused the mail (${code})`, code)
      : new MailError('deferred', true, `mail: the SMTP server deferred the mail (${code})`, code);
  }
  if (error.code === 'ETIMEDOUT') return new MailError('timeout', true, 'mail: the SMTP server timed out');
  if (['ECONNECTION', 'ESOCKET', 'EDNS', 'EPROXY', 'ECONNREFUSED'].includes(error.code ?? '')) {
    return new MailError('unreachable', true, 'mail: the SMTP server could not be reached');
  }
  return new MailError('failed', true, 'mail: sending failed');
}

function transportOptions(smtp: SmtpSettings) {
  const { timeoutMs } = smtp;
  const step = Math.min(10_000, timeoutMs);
  return {
    pool: true as const,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ignoreTLS: smtp.ignoreTls,
    ...(smtp.auth ? { auth: { user: smtp.auth.user, pass: smtp.auth.pass } } : {}),
    tls: { minVersion: 'TLSv1.2' as const, ...(smtp.ca ? { ca: smtp.ca } : {}) },
    connectionTimeout: step,
    greetingTimeout: step,
    dnsTimeout: step,
    socketTimeout: timeoutMs,
    socketCloseTimeout: 1_000,
    maxConnections: 3,
    maxMessages: 100,
    // A connection that closes under a message gets it once more, then the failure is the caller's
    // to retry with back-off (nodemailer's default of 5 would spend the whole bound on a dead server).
    maxRequeues: 1,
    // Shorter than the socket timeout, so the pool closes an idle connection before the socket
    // timeout would fail it.
    idleTimeout: Math.max(100, Math.floor(timeoutMs / 2)),
    // nodemailer's logging would write addresses and, with debug, whole messages.
    logger: false,
    debug: false,
    transactionLog: false,
  };
}

export function mailer(settings: MailSettings, log: FastifyBaseLogger): Mailer {
  const { smtp } = settings;
  if (smtp === null) {
    return {
      configured: false,
      async send() {
        throw new MailError('not-configured', false, 'mail: SMTP_URL is not set, so no mail is sent');
      },
      async close() {},
    };
  }
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => {
      const created = nodemailer.createTransport(transportOptions(smtp));
      // A pooled connection failing between sends is reported here; the next send reconnects.
      created.on('error', (error: NodemailerError) => {
        log.warn(
          { mail: { outcome: 'connection-failed', code: error.code } },
          'mail: SMTP connection failed',
        );
      });
      return created;
    }));
  const closing = new AbortController();
  let closed = false;
  const inFlight = new Set<Promise<void>>();

  const deliver = async (mail: OutgoingMail): Promise<void> => {
    const messageId = normalMessageId(mail.messageId) ?? 'invalid';
    const invalid = invalidPart(mail);
    if (invalid !== null) {
      log.error({ mail: { messageId, outcome: 'invalid' } }, `mail: not sent, ${invalid}`);
      throw new MailError('invalid-mail', false, `mail: not sent, ${invalid}`);
    }
    if (closed) throw new MailError('closed', true, 'mail: the mailer is closed');
    const timeout = AbortSignal.timeout(smtp.timeoutMs);
    const started = performance.now();
    try {
      await (await transportOf()).sendMail({
        ...messageOptions(mail, settings.from),
        signal: AbortSignal.any([timeout, closing.signal]),
      });
    } catch (error) {
      const aborted = timeout.aborted ? 'timeout' : closing.signal.aborted ? 'closed' : null;
      const failure = mailError(error as NodemailerError, aborted);
      log.warn(
        {
          mail: {
            messageId,
            outcome: failure.retryable ? 'deferred' : 'rejected',
            failure: failure.failure,
            responseCode: failure.responseCode,
            ms: Math.round(performance.now() - started),
          },
        },
        'mail: not sent',
      );
      throw failure;
    }
    log.info(
      { mail: { messageId, outcome: 'sent', ms: Math.round(performance.now() - started) } },
      'mail: sent',
    );
  };

  return {
    configured: true,
    send(mail) {
      const sending = deliver(mail);
      const tracked = sending.catch(() => {});
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      return sending;
    },
    async close() {
      if (closed) return;
      closed = true;
      // Sends under way get a short grace to finish (a third of the bound, at most 5 s: the gateway's
      // drain must end within its own 10 s); what is left then fails as retryable.
      const grace = Math.min(Math.floor(smtp.timeoutMs / 3), 5_000);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(inFlight),
        new Promise((resolve) => (timer = setTimeout(resolve, grace))),
      ]);
      clearTimeout(timer);
      closing.abort();
      await Promise.all(inFlight);
      (await transport?.catch(() => undefined))?.close({ force: true });
    },
  };
}
