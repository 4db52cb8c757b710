import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseKeyRing, SealError, type StoreKey, sealer } from './keyring.ts';

const key = (id: string): StoreKey => ({ id, key: randomBytes(32) });
const ring = (...keys: StoreKey[]) => keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',');
const CONTEXT = 'case_message|1|2|reporter';

describe('store key ring', () => {
  it('parses id:base64 lists and names what is wrong without echoing a key', () => {
    const a = key('2026a');
    const b = key('2026b');
    expect(parseKeyRing(` ${ring(a, b)} `)).toEqual([a, b]);
    const short = Buffer.alloc(16).toString('base64');
    for (const [list, problem] of [
      ['', /at least one key/],
      [`k1:${short}`, /k1 must be 32 bytes/],
      [short, /id:base64key/],
      [`bad id:${a.key.toString('base64')}`, /id:base64key/],
      [`${ring(a)},${ring(a)}`, /listed twice/],
    ] as const) {
      const result = parseKeyRing(list);
      expect(result).toMatch(problem);
      expect(String(result)).not.toContain(a.key.toString('base64'));
    }
  });

  it('round-trips text, with a fresh nonce each time, and the newest key writing', () => {
    const old = key('old');
    const current = key('new');
    const s = sealer([old, current]);
    const one = s.seal('Mohon kirim bukti faktur', CONTEXT);
    const two = s.seal('Mohon kirim bukti faktur', CONTEXT);
    expect(one.keyId).toBe('new');
    expect(one.sealed).not.toBe(two.sealed);
    expect(Buffer.from(one.sealed, 'base64').toString('latin1')).not.toContain('faktur');
    expect(s.open(one, CONTEXT)).toBe('Mohon kirim bukti faktur');
  });

  it('rotates: rows of an older key still open after a new key is appended', () => {
    const old = key('old');
    const written = sealer([old]).seal('pesan lama', CONTEXT);
    const rotated = sealer([old, key('new')]);
    expect(rotated.open(written, CONTEXT)).toBe('pesan lama');
    expect(rotated.seal('pesan baru', CONTEXT).keyId).toBe('new');
  });

  it('refuses an unknown key id, a wrong key under the same id, another row context and any tampering', () => {
    const k = key('k');
    const s = sealer([k]);
    const written = s.seal('isi laporan', CONTEXT);
    expect(() => sealer([key('other')]).open(written, CONTEXT)).toThrow(SealError);
    expect(() => sealer([{ id: 'k', key: randomBytes(32) }]).open(written, CONTEXT)).toThrow(SealError);
    expect(() => s.open(written, 'case_message|1|3|reporter')).toThrow(SealError);
    expect(() => s.open({ ...written, keyId: 'k2' }, CONTEXT)).toThrow(SealError);
    const bytes = Buffer.from(written.sealed, 'base64');
    // Every single flipped byte (format, nonce, tag, body) is detected.
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] = (altered[i] ?? 0) ^ 0x01;
      expect(() => s.open({ keyId: 'k', sealed: altered.toString('base64') }, CONTEXT)).toThrow(SealError);
    }
    expect(() => s.open({ keyId: 'k', sealed: bytes.subarray(0, 20).toString('base64') }, CONTEXT)).toThrow(
      SealError,
    );
  });
});
