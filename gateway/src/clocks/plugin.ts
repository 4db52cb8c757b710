/**
 * The handling clocks as an app plugin: one input cache per app, and `request.clocks`, the clock
 * context of a request (who asks, the store, the group's default deadlines, the cache, the log).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ClockContext, inputCache } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    clocks: ClockContext;
  }
}

export const clocksPlugin = fp(
  async (app: FastifyInstance) => {
    const cache = inputCache();
    const contexts = new WeakMap<FastifyRequest, ClockContext>();
    app.decorateRequest('clocks', {
      getter(this: FastifyRequest) {
        let ctx = contexts.get(this);
        if (!ctx) {
          ctx = {
            caller: this.caller,
            store: () => this.server.store.open(),
            defaults: this.server.config.handlingDeadlines,
            cache,
            log: this.log,
          };
          contexts.set(this, ctx);
        }
        return ctx;
      },
    });
  },
  { name: 'wbs-clocks', dependencies: ['wbs-policy', 'wbs-store'] },
);
