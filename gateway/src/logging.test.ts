import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logging.ts';

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
