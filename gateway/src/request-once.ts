/**
 * A request decoration computed on its first use and kept on the request itself (`request.caller`,
 * `request.legacy`, `request.clocks`). The value sits in a hidden slot declared with the request's
 * shape, so every request keeps one shape; a WeakMap keyed by requests did the same with an entry
 * per request that each garbage collection traces apart (ephemerons), on every API call.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function decorateRequestOnce<T extends object>(
  app: FastifyInstance,
  name: string,
  create: (request: FastifyRequest) => T,
): void {
  const slot = Symbol(name);
  app.decorateRequest(slot, null);
  // Typed where it is declared (each plugin's `declare module 'fastify'`), as Fastify asks.
  app.decorateRequest<unknown>(name, {
    getter(this: FastifyRequest): unknown {
      const held = this as unknown as Record<symbol, T | null>;
      let value = held[slot];
      if (!value) {
        value = create(this);
        held[slot] = value;
      }
      return value;
    },
  });
}
