/**
 * The gateway's shared state between replicas. With `REDIS_URL` set, `app.redis` is an ioredis client
 * used by the state that must be the same on every replica (tracking attempt limits, idempotency
 * keys of case submissions); without it `app.redis` is null and that state lives in process memory,
 * which is right for a single gateway (the default `pnpm start`).
 *
 * Redis being briefly unreachable must not take reporter routes down with it, so commands fail fast
 * (no offline queue, bounded retries) and each user of the client decides how to degrade.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}

/** Every key the gateway writes starts with this, so one Redis can serve other tenants too. */
export const REDIS_PREFIX = 'wbs:gw:';

export const redisPlugin = fp(
  async (app: FastifyInstance, opts: { config: Pick<Config, 'redisUrl'> }) => {
    if (!opts.config.redisUrl) {
      app.decorate('redis', null);
      return;
    }
    const redis = new Redis(opts.config.redisUrl, {
      keyPrefix: REDIS_PREFIX,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: 2_000,
    });
    // The URL may hold a password: log only that the connection failed, never the error's text.
    redis.on('error', (error: NodeJS.ErrnoException) => {
      app.log.warn({ redisError: error.code ?? error.name }, 'redis unavailable');
    });
    await redis.connect().catch((error: NodeJS.ErrnoException) => {
      app.log.warn({ redisError: error.code ?? error.name }, 'redis not reachable at start-up');
    });
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'wbs-redis' },
);
