/** Password and case-password hashes: scrypt with a per-hash random salt (Node built-in). */
import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const memo = new Map<string, string>();

/** Cost of the seeded demo hashes: their passwords are published in the README anyway. */
export const SEED_COST = 4096;

/**
 * Hashes a password. `salt` is only given by the deterministic seed, whose hashes are memoized so
 * that resetting the sim (tests do it often) costs no scrypt time after the first seed.
 */
export async function hashPassword(password: string, salt?: Buffer): Promise<string> {
  const memoKey = salt ? `${salt.toString('base64')}:${password}` : null;
  const known = memoKey ? memo.get(memoKey) : undefined;
  if (known) return known;
  const s = salt ?? randomBytes(16);
  const n = salt ? SEED_COST : N;
  const key = await derive(password, s, n);
  const hash = `scrypt$${n}$${R}$${P}$${s.toString('base64')}$${key.toString('base64')}`;
  if (memoKey) memo.set(memoKey, hash);
  return hash;
}

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random initial password (12 characters, letters and digits plus '#'). */
export function randomPassword(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${out}#${randomInt(10)}`;
}
