/**
 * The registry's "this session is live" answers, kept in process memory and dropped the moment any
 * replica ends the session (docs/adr/0045-live-session-memory.md). A Redis read per request was about a
 * tenth of a busy
 * process's CPU, for the same answer on every request of a session.
 *
 * Why a kept answer is still right:
 * - Every ending (sign-out, password reset, removed analyst, a token the legacy refused) is written to
 *   the registry first and then published on one channel; each process drops that session from its
 *   memory when the message arrives, and the ending process drops it before it even publishes.
 *   Redis delivers the message to every subscriber before it answers the publisher, so by the time
 *   the sign-out has been answered the news is already on its way to every replica.
 * - An answer read while an ending was heard is not kept (the generation counter): a read that raced
 *   a sign-out cannot put the session back.
 * - The channel must prove it works: every process publishes a heartbeat each second and keeps
 *   answers only while its own heartbeat came back in the last 3 s. A lost, reconnecting or silently
 *   stalled subscription therefore turns the memory off (every request reads Redis again) within 3 s,
 *   and whatever was kept is forgotten once the subscription is lost.
 * - Answers live 5 s at most, and never outlive their process's view of Redis: the memory answers only
 *   what Redis itself said (never the fallback used during an outage).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { REDIS_PREFIX } from '../redis.ts';

export const LIVE_SESSION_TTL_MS = 5_000;
export const HEARTBEAT_MS = 1_000;
/** The channel is trusted while this process heard its own heartbeat within this time. */
export const HEARTBEAT_GRACE_MS = 3_000;
const MAX_ENTRIES = 10_000;
/** Session ids are base64url: a message starting with this is a heartbeat, never an id. */
const HEARTBEAT_MARK = '~';

export type LiveSessionCache = {
  /** Redis said this session was live for this user within the last seconds, and no ending was heard since.
   * */
  has(sid: string, userId: number): boolean;
  /** Taken before a registry read; `remember` keeps its answer only if nothing was heard in between. */
  generation(): number;
  remember(generation: number, sid: string, userId: number): void;
  /** Whether answers are kept now: the channel is subscribed and this process hears its own heartbeat. */
  trusted(): boolean;
  /** Forgets the sessions here and tells every other process (after the registry holds their ending). */
  announceEnded(sids: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

export function sessionsEndedChannel(namespace: string): string {
  // Channels are not keys: ioredis's keyPrefix does not apply, so the prefix is written out.
  return `${REDIS_PREFIX}${namespace}:sessions-ended`;
}

export async function liveSessionCache(
  redis: Redis,
  namespace: string,
  log: FastifyBaseLogger,
): Promise<LiveSessionCache> {
  const channel = sessionsEndedChannel(namespace);
  const heartbeat = `${HEARTBEAT_MARK}${randomBytes(9).toString('base64url')}`;
  // Session id → the user Redis said it was live for. lru-cache drops an answer once it is
  // LIVE_SESSION_TTL_MS old (a hit does not extend it) and the least recently used when full.
  const entries = new LRUCache<string, number>({ max: MAX_ENTRIES, ttl: LIVE_SESSION_TTL_MS });
  let generation = 0;
  let drops = 0;
  let subscribed = false;
  let heardAt = Number.NEGATIVE_INFINITY;
  let closed = false;

  const trusted = () => subscribed && Date.now() - heardAt < HEARTBEAT_GRACE_MS;
  const forgetAll = () => {
    subscribed = false;
    drops++;
    generation++;
    entries.clear();
  };

  let wasTrusted = false;
  const beat = () => {
    // Ops see the memory go off and come back (a line each way, not one per second).
    const now = trusted();
    if (now !== wasTrusted && !closed) {
      if (now) log.info('session memory on: endings are heard from every replica');
      else log.warn('session memory off: its Redis channel is silent, every request reads the registry');
    }
    wasTrusted = now;
    redis.publish(channel, heartbeat).catch(() => undefined);
  };
  // A subscribed connection can run nothing else, hence its own; it reconnects like the main one.
  const subscriber = redis.duplicate({
    enableAutoPipelining: false,
    lazyConnect: true,
    connectionName: `wbs-sessions-ended-${namespace}`,
  });
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    if (message === heartbeat) {
      heardAt = Date.now();
      return;
    }
    if (message.startsWith(HEARTBEAT_MARK)) return; // another process's heartbeat
    generation++;
    entries.delete(message);
  });
  for (const event of ['close', 'end', 'reconnecting'] as const) subscriber.on(event, forgetAll);
  subscriber.on('error', () => undefined); // the main connection already logs Redis trouble
  const subscribe = async () => {
    const attempt = drops;
    try {
      await subscriber.subscribe(channel);
      // A drop while subscribing voids this attempt; the next 'ready' subscribes again.
      if (attempt === drops && !closed) {
        subscribed = true;
        beat(); // trusted from its first echo, not a second later
      }
    } catch {
      // Still connected but not subscribed (a timeout): try again shortly, meanwhile read Redis.
      forgetAll();
      if (!closed) setTimeout(() => void subscribe(), HEARTBEAT_MS).unref();
    }
  };
  subscriber.on('ready', () => void subscribe());

  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  await subscriber.connect().catch(() => undefined);

  return {
    has(sid, userId) {
      if (!trusted()) return false;
      return entries.get(sid) === userId;
    },
    generation: () => generation,
    trusted,
    remember(seen, sid, userId) {
      if (seen !== generation || !trusted()) return;
      entries.set(sid, userId);
    },
    async announceEnded(sids) {
      if (sids.length === 0) return;
      generation++;
      for (const sid of sids) entries.delete(sid);
      try {
        await Promise.all(sids.map((sid) => redis.publish(channel, sid)));
      } catch (error) {
        // The others stop trusting their memory within HEARTBEAT_GRACE_MS if Redis is really gone.
        log.warn(
          { redisError: (error as NodeJS.ErrnoException).code ?? (error as Error).name },
          'session ending not announced to other replicas',
        );
      }
    },
    async close() {
      closed = true;
      clearInterval(timer);
      forgetAll();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
