/**
 * Real SMTP servers for the mail tests: smtp-server on a free loopback port, keeping what it
 * received; servers that misbehave (never greet, stall, hang up); a throwaway self-signed
 * certificate (openssl) for smtps:// and STARTTLS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { SmtpSettings } from '../mail/settings.ts';
import { buildTestApp, demoAccount, type TestApp } from './helpers.ts';

export type Received = { envelopeTo: string[]; secure: boolean; raw: string; parsed: ParsedMail };

export type TestSmtp = {
  port: number;
  received: Received[];
  /** Sessions that reached the server (connected), whether or not a mail was accepted. */
  connections(): number;
  close(): Promise<void>;
};

/** smtp-server on 127.0.0.1; no authentication; `options` may replace any handler (onRcptTo, onData, …). */
export async function startTestSmtp(options: SMTPServerOptions = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              secure: session.secure,
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    received,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and then does `behaviour` (never greeting by default). */
export async function startSilentServer(
  behaviour: (socket: Socket) => void = () => {},
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    behaviour(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let certificate: { key: string; cert: string } | undefined;

/** A self-signed certificate for localhost and 127.0.0.1 (one day), made once per test file. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'wbs-smtp-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    certificate = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Settings for a test server on loopback: plain SMTP, a short bound, no CA. */
export function testSmtpSettings(port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  return {
    host: '127.0.0.1',
    port,
    secure: false,
    requireTls: false,
    ignoreTls: true,
    auth: null,
    ca: undefined,
    timeoutMs: 2_000,
    ...overrides,
  };
}

/**
 * The app with its jobs running and its mail going to a real SMTP server of its own (and the service
 * account the notices read staff records with): the set-up of the tests that follow a mail from the
 * event that makes it to the server that accepts it.
 */
export async function mailingTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; smtp: TestSmtp; close(): Promise<void> }> {
  const smtp = await startTestSmtp();
  const t = await buildTestApp({
    JOBS_ENABLED: 'true',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PUBLIC_URL: 'https://wbs.example.co.id',
    LEGACY_SERVICE_USERNAME: 'admin',
    LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
    ...env,
  });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
