/**
 * A real SMTP server for tests (smtp-server on a random loopback port, every mail parsed with
 * mailparser) and a transport that sends to it through nodemailer, answering like the gateway's mail
 * transport: an error with `retryable` (true for a server that is away or answers 4xx, false for a
 * 5xx refusal). `refuse` makes the server refuse a recipient the way real ones do: quoting it.
 */

import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const require = createRequire(import.meta.url);
type Transport = { sendMail(mail: object): Promise<unknown>; close(): void };
const nodemailer = require('nodemailer') as { createTransport(options: object): Transport };

export type ReceivedMail = {
  /** The envelope's recipients (RCPT TO). */
  rcptTo: string[];
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header line as received, unfolded. */
  headerLines: string[];
  raw: string;
};

export type SentMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers?: Record<string, string>;
};

export class TestMailError extends Error {
  readonly retryable: boolean;
  readonly responseCode: number | undefined;
  constructor(message: string, retryable: boolean, responseCode?: number) {
    super(message);
    this.name = 'MailError';
    this.retryable = retryable;
    this.responseCode = responseCode;
  }
}

export type SmtpSink = {
  port: number;
  mails: ReceivedMail[];
  /** Sends through nodemailer to this server; throws TestMailError. */
  mailer: { send(mail: SentMail): Promise<void> };
  /** Recipients the server refuses with a 550 that quotes them. */
  refuse: Set<string>;
  /** While true the transport finds no server (connection refused): a retryable failure. */
  down: boolean;
  close(): Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = new Error(`<${address.address}>: Recipient address rejected: User unknown`) as Error & {
          responseCode: number;
        };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            const to = parsed.to;
            mails.push({
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              to: Array.isArray(to) ? to.map((a) => a.text).join(', ') : (to?.text ?? ''),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              messageId: parsed.messageId ?? '',
              headerLines: parsed.headerLines.map((h) => h.line),
              raw,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const sink: SmtpSink = {
    port,
    mails,
    refuse,
    down: false,
    mailer: {
      async send(mail) {
        // A port nothing listens on: the transport finds no server, as when the relay is down.
        const transport = nodemailer.createTransport({
          host: '127.0.0.1',
          port: sink.down ? 1 : port,
          secure: false,
          ignoreTLS: true,
          connectionTimeout: 2_000,
        });
        try {
          await transport.sendMail({
            from: 'WBS <noreply@wbs.example>',
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            messageId: mail.messageId,
            ...(mail.headers ? { headers: mail.headers } : {}),
          });
        } catch (error) {
          const e = error as { message?: string; responseCode?: number };
          const code = e.responseCode;
          throw new TestMailError(
            e.message ?? 'send failed',
            code === undefined || (code >= 400 && code < 500),
            code,
          );
        } finally {
          transport.close();
        }
      },
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}
