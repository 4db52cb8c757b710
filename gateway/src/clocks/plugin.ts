/**
 * The handling clocks as an app plugin: one input cache per app, and `request.clocks`, the clock
 * context of a request (who asks, the store, the group's default deadlines, the cache, the log).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { decorateRequestOnce } from '../request-once.ts';
import { type ClockContext, inputCache } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    clocks: ClockContext;
  }
}

export const clocksPlugin = fp(
  async (app: FastifyInstance) => {
    const cache = inputCache();
    decorateRequestOnce(
      app,
      'clocks',
      (request): ClockContext => ({
        caller: request.caller,
        store: () => request.server.store.open(),
        defaults: request.server.config.handlingDeadlines,
        cache,
        log: request.log,
      }),
    );
  },
  { name: 'wbs-clocks', dependencies: ['wbs-policy', 'wbs-store'] },
);
