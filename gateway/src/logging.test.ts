import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, REDACTED_KEYS, redactLine } from './logging.ts';

describe('ops log redaction', () => {
  it('redacts secrets and reporter identity at the top level and one level down', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions('info'), stream);
    log.info({
      password: 'p1',
      token: 't1',
      body: { newPassword: 'p2', email: 'x@y.z', caseWhistleblowerName: 'Budi', phone: '0812' },
      headers: { authorization: 'Bearer abc', cookie: 'wbs_session=abc' },
      userId: 7,
    });
    const text = lines.join('');
    for (const secret of ['p1', 't1', 'p2', 'x@y.z', 'Budi', '0812', 'Bearer abc', 'wbs_session=abc']) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(text).userId).toBe(7);
  });
});

describe('redactLine', () => {
  it('leaves a line without redacted keys as the same object, and never changes the input', () => {
    const clean = { userId: 1, req: { method: 'GET', url: '/x' } };
    expect(redactLine(clean)).toBe(clean);
    const dirty = { body: { password: 'p' }, userId: 2 };
    const out = redactLine(dirty);
    expect(out).toEqual({ body: { password: '[redacted]' }, userId: 2 });
    expect(dirty.body.password).toBe('p');
  });

  it('keeps an error an error when a field of it is censored', () => {
    const err = Object.assign(new Error('boom'), { token: 'secret-token' });
    const out = redactLine({ err }) as { err: Error & { token: string } };
    expect(out.err).toBeInstanceOf(Error);
    expect(out.err.message).toBe('boom');
    expect(out.err.token).toBe('[redacted]');
    expect(err.token).toBe('secret-token');
  });

  it('censors every redacted key at the top level and one level down, whatever else is around', () => {
    for (const key of REDACTED_KEYS) {
      const out = redactLine({ [key]: 'v1', nested: { [key]: 'v2', keep: 1 }, list: [{ [key]: 'v3' }] });
      expect(out[key]).toBe('[redacted]');
      expect(out.nested).toEqual({ [key]: '[redacted]', keep: 1 });
    }
  });
});
