import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { selfSignedCertificate } from '../test/smtp.ts';
import { isLoopbackHost } from './settings.ts';

const valid = {
  SESSION_SECRET: 's'.repeat(32),
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...valid, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('mail settings', () => {
  it('default: no SMTP server, a placeholder sender, links to the local gateway', () => {
    const config = loadConfig(valid);
    expect(config.mail).toEqual({ smtp: null, from: { name: 'WBS', address: 'no-reply@wbs.invalid' } });
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ ...valid, SMTP_URL: '  ', MAIL_FROM: '', PUBLIC_URL: '' }).mail.smtp).toBeNull();
  });

  it('smtps:// is TLS from the first byte; credentials are percent-decoded', () => {
    const { smtp } = loadConfig({
      ...valid,
      SMTP_URL: 'smtps://wbs%40pdam:p%40ss%3Aw0rd@mail.example.co.id',
    }).mail;
    expect(smtp).toMatchObject({
      host: 'mail.example.co.id',
      port: 465,
      secure: true,
      requireTls: false,
      ignoreTls: false,
      auth: { user: 'wbs@pdam', pass: 'p@ss:w0rd' },
      timeoutMs: 30_000,
    });
  });

  it('smtp:// requires STARTTLS unless the host is loopback, where it is plain', () => {
    const remote = loadConfig({ ...valid, SMTP_URL: 'smtp://relay.internal:2525' }).mail.smtp;
    expect(remote).toMatchObject({
      port: 2525,
      secure: false,
      requireTls: true,
      ignoreTls: false,
      auth: null,
    });
    expect(loadConfig({ ...valid, SMTP_URL: 'smtp://relay.internal' }).mail.smtp?.port).toBe(587);
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '127.0.0.53']) {
      const local = loadConfig({ ...valid, SMTP_URL: `smtp://${host}:1025` }).mail.smtp;
      expect(local).toMatchObject({ requireTls: false, ignoreTls: true });
    }
    expect(isLoopbackHost('127.evil.example')).toBe(false);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });

  it('refuses a wrong SMTP_URL with a message that never echoes it (it may hold a password)', () => {
    const cases: [string, RegExp][] = [
      ['mail.example.co.id', /SMTP_URL must be a URL/],
      ['https://user:Sekret99@mail.example.co.id', /SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
      ['smtp://user:Sekret99@mail.example.co.id/inbox', /SMTP_URL must not have a path, query or fragment/],
      ['smtp://user:Sekret99@mail.example.co.id?tls=no', /SMTP_URL must not have a path, query or fragment/],
      ['smtp://user@mail.example.co.id', /SMTP_URL must give both a user name and a password/],
      ['smtps://u:%E0%A4%A@mail.example.co.id', /SMTP_URL has a user name or password that is not valid/],
    ];
    for (const [url, message] of cases) {
      const found = problems({ SMTP_URL: url });
      expect(found.join('\n')).toMatch(message);
      expect(found.join('\n')).not.toContain('Sekret99');
    }
  });

  it('bounds each send with SMTP_TIMEOUT_MS', () => {
    expect(
      loadConfig({ ...valid, SMTP_URL: 'smtp://127.0.0.1', SMTP_TIMEOUT_MS: '5000' }).mail.smtp?.timeoutMs,
    ).toBe(5000);
    expect(problems({ SMTP_TIMEOUT_MS: '0' }).join()).toMatch(/SMTP_TIMEOUT_MS must be at least 100/);
  });

  it('reads the private CA of SMTP_CA_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wbs-ca-'));
    try {
      const { cert } = selfSignedCertificate();
      writeFileSync(join(dir, 'ca.pem'), cert);
      writeFileSync(join(dir, 'not.pem'), 'hello');
      const ca = loadConfig({
        ...valid,
        SMTP_URL: 'smtps://mail.internal',
        SMTP_CA_FILE: join(dir, 'ca.pem'),
      });
      expect(ca.mail.smtp?.ca).toBe(cert);
      expect(problems({ SMTP_URL: 'smtps://mail.internal', SMTP_CA_FILE: join(dir, 'not.pem') })).toEqual([
        'SMTP_CA_FILE must be a PEM certificate file',
      ]);
      expect(problems({ SMTP_URL: 'smtps://mail.internal', SMTP_CA_FILE: join(dir, 'gone.pem') })).toEqual([
        'SMTP_CA_FILE cannot be read',
      ]);
      expect(problems({ SMTP_CA_FILE: join(dir, 'ca.pem') })).toEqual([
        'SMTP_CA_FILE is set but SMTP_URL is not',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('MAIL_FROM is one address, with or without a display name', () => {
    const from = (text: string) => loadConfig({ ...valid, MAIL_FROM: text }).mail.from;
    expect(from('no-reply@wbs.pdam.co.id')).toEqual({ name: '', address: 'no-reply@wbs.pdam.co.id' });
    expect(from('WBS Perumda <wbs@pdam.co.id>')).toEqual({ name: 'WBS Perumda', address: 'wbs@pdam.co.id' });
    expect(from('"WBS, Holding" <wbs@pdam.co.id>')).toEqual({
      name: 'WBS, Holding',
      address: 'wbs@pdam.co.id',
    });
    for (const bad of [
      'wbs',
      'a@b@c.id',
      'x@pdam.co.id, y@pdam.co.id',
      'WBS <wbs@pdam.co.id',
      'W"B <w@pdam.co.id>',
    ]) {
      expect(problems({ MAIL_FROM: bad }).join()).toMatch(/^MAIL_FROM must/);
    }
    expect(problems({ MAIL_FROM: 'WBS <wbs@pdam.co.id>\r\nBcc: x@y.id' })).toEqual([
      'MAIL_FROM must be one line without control characters',
    ]);
  });

  it('PUBLIC_URL is an http(s) base without query or fragment, kept without a trailing slash', () => {
    const base = (text: string) => loadConfig({ ...valid, PUBLIC_URL: text }).publicUrl;
    expect(base('https://wbs.pdam.co.id/')).toBe('https://wbs.pdam.co.id');
    expect(base('https://pdam.co.id/wbs/')).toBe('https://pdam.co.id/wbs');
    expect(base('http://localhost:8080')).toBe('http://localhost:8080');
    expect(problems({ PUBLIC_URL: 'wbs.pdam.co.id' }).join()).toMatch(
      /PUBLIC_URL must be an absolute http\(s\) URL/,
    );
    expect(problems({ PUBLIC_URL: 'ftp://wbs.pdam.co.id' }).join()).toMatch(
      /PUBLIC_URL must be an absolute http/,
    );
    expect(problems({ PUBLIC_URL: 'https://wbs.pdam.co.id/?a=1' }).join()).toMatch(/must not have a query/);
    expect(problems({ PUBLIC_URL: 'https://wbs.pdam.co.id/#x' }).join()).toMatch(/must not have a query/);
    expect(problems({ PUBLIC_URL: 'https://wbs.pdam.co.id?' }).join()).toMatch(/must not have a query/);
    expect(problems({ PUBLIC_URL: 'https://u:p@wbs.pdam.co.id' }).join()).toMatch(
      /must not hold a user name/,
    );
  });
});
