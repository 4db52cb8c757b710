/**
 * The upload machinery of one gateway instance: the scrub worker pool, the count of live spools (the
 * process-wide cap) and, at start, the removal of spools a previous process left behind
 * (spool-dirs.ts); the drafts of resumable uploads and the lock their writers take (draft-lock.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UploadSettings } from '../config.ts';
import { draftLock, storeDraftLock } from './draft-lock.ts';
import { createDrafts, type Drafts, defaultDraftsRoot } from './drafts.ts';
import { type IdempotencyContext, idempotencyMemory } from './idempotency.ts';
import { createScrubber, type Scrubber, type ScrubContext } from './scrub.ts';
import type { UploadSlots } from './spool.ts';
import { removeStaleSpools } from './spool-dirs.ts';

export type Uploads = {
  settings: UploadSettings;
  scrubber: Scrubber;
  /** Upload slots in use right now in this instance, in all and per client (spool.ts). */
  spools: UploadSlots;
  /** Drafts of resumable uploads (drafts.ts), on disk under `settings.draftsDir`. */
  drafts: Drafts;
};

/** How often each replica removes expired drafts (any replica may remove any draft: the folder is shared). */
const DRAFT_SWEEP_MS = 10 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    uploads: Uploads;
  }
  interface FastifyRequest {
    /** What scrubbing this request's files works with (uploads/scrub.ts). */
    scrubbing: ScrubContext;
    /** Where this request's Idempotency-Key claims are kept (uploads/idempotency.ts). */
    idempotency: IdempotencyContext;
  }
}

export const uploadsPlugin = fp(
  async (app: FastifyInstance, opts: { settings: UploadSettings }) => {
    await removeStaleSpools(app.log);
    const scrubber = createScrubber(opts.settings.scrub);
    const drafts = createDrafts({
      root: opts.settings.draftsDir ?? defaultDraftsRoot(),
      secret: app.config.sessionSecret,
      // Several processes share drafts only over a PostgreSQL store (docs/deploy.md): its lock is theirs.
      lock: draftLock(app.config.store.databaseUrl ? storeDraftLock(() => app.store.open()) : null),
    });
    await drafts.ready;
    const sweep = () =>
      drafts.sweep().then(
        (removed) => removed > 0 && app.log.info({ removed }, 'expired upload drafts removed'),
        (error: Error) => app.log.warn({ err: error?.name }, 'upload draft clean-up failed'),
      );
    await sweep();
    const sweeper = setInterval(sweep, DRAFT_SWEEP_MS).unref();
    app.decorate('uploads', {
      settings: opts.settings,
      scrubber,
      spools: { active: 0, perClient: new Map() },
      drafts,
    });
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await scrubber.close();
    });
    const memory = idempotencyMemory();
    app.decorateRequest('scrubbing', {
      getter(this: FastifyRequest): ScrubContext {
        const telemetry = this.server.telemetry;
        return { scrubber, log: this.log, count: (kind) => telemetry?.uploadFile(kind) };
      },
    });
    app.decorateRequest('idempotency', {
      getter(this: FastifyRequest): IdempotencyContext {
        return { redis: this.server.redis ?? null, memory, log: this.log };
      },
    });
  },
  { name: 'wbs-uploads' },
);
