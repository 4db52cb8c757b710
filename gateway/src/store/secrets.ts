/**
 * Named keys the store keeps for itself in `store_secret` (HMAC keys of addresses and recovery codes):
 * made by the first process that needs one (replicas agree on the first insert), kept sealed with the
 * key ring, re-sealed with the ring's newest key when an older one sealed it. One promise per store
 * and name, forgotten when it fails so a later call tries again.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from './drizzle.ts';
import type { Store } from './plugin.ts';
import { storeSecret } from './schema.ts';

const loaded = new WeakMap<object, Map<string, Promise<Buffer>>>();

export function storeKey(store: Store, name: string): Promise<Buffer> {
  let keys = loaded.get(store.db);
  if (!keys) {
    keys = new Map();
    loaded.set(store.db, keys);
  }
  let key = keys.get(name);
  if (!key) {
    key = load(store, name);
    key.catch(() => keys.delete(name));
    keys.set(name, key);
  }
  return key;
}

async function load(store: Store, name: string): Promise<Buffer> {
  const context = `store_secret|${name}`;
  const fresh = store.sealer.seal(randomBytes(32).toString('base64'), context);
  await store.db
    .insert(storeSecret)
    .values({ name, keyId: fresh.keyId, sealed: fresh.sealed })
    .onConflictDoNothing();
  const [row] = await store.db.select().from(storeSecret).where(eq(storeSecret.name, name));
  if (!row) throw new Error('store secret missing after insert');
  const value = store.sealer.open({ keyId: row.keyId, sealed: row.sealed }, context);
  if (row.keyId !== fresh.keyId) {
    const resealed = store.sealer.seal(value, context);
    // Only over the value read: a replica re-sealing at the same time writes the same secret.
    await store.db
      .update(storeSecret)
      .set({ keyId: resealed.keyId, sealed: resealed.sealed })
      .where(and(eq(storeSecret.name, name), eq(storeSecret.sealed, row.sealed)));
  }
  return Buffer.from(value, 'base64');
}
