/**
 * The case index as an app plugin: `app.caseIndex.poll()` runs ONE watcher poll (watcher.ts
 * `watchOnce`) with the app's legacy client, the gateway's own legacy account
 * (LEGACY_SERVICE_USERNAME, its token kept for the app's life), the store, the group's default
 * deadlines and the app's metrics. Nothing here schedules a poll: the job queue calls it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { backgroundLegacy } from '../legacy/plugin.ts';
import { serviceAccount } from '../legacy/service-account.ts';
import { type WatchBudget, type WatchReport, watchOnce } from './watcher.ts';

export type CaseIndexAccess = {
  /** One poll over every company (bounded by `budget`); see watcher.ts. */
  poll(budget?: Partial<WatchBudget>): Promise<WatchReport>;
};

declare module 'fastify' {
  interface FastifyInstance {
    caseIndex: CaseIndexAccess;
  }
}

export const caseIndexPlugin = fp(
  async (app: FastifyInstance) => {
    const account = serviceAccount(app.config.legacyService);
    const log = app.log.child({ job: 'case-index' });
    app.decorate('caseIndex', {
      async poll(budget) {
        return watchOnce({
          legacy: backgroundLegacy(app, { requestId: `case-index-${randomUUID()}`, log }),
          account,
          store: await app.store.open(),
          log,
          ...(budget ? { budget } : {}),
          deadlines: app.config.handlingDeadlines,
          metrics: app.telemetry,
        });
      },
    } satisfies CaseIndexAccess);
  },
  { name: 'wbs-case-index', dependencies: ['wbs-legacy', 'wbs-store', 'wbs-metrics'] },
);
