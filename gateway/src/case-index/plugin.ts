/**
 * The case index as an app plugin: `app.caseIndex.poll()` runs ONE watcher poll (watcher.ts
 * `watchOnce`) with the app's legacy client, the gateway's own legacy account
 * (LEGACY_SERVICE_USERNAME, its token kept for the app's life), the store, the group's default
 * deadlines and the app's metrics.
 *
 * The job queue runs the polls (`case-watch`, docs/adr/0058-case-index-watcher.md): one at a time
 * across replicas (pg-boss `stately`), each sending the next WATCH_INTERVAL_SECONDS later, and a
 * schedule each minute restarting the chain if a process died holding it. A poll that found
 * something asks the notifier to run at once; then the reports it changed get their handling
 * durations derived again (clocks/durations.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refreshDurations } from '../clocks/durations.ts';
import { backgroundLegacy } from '../legacy/plugin.ts';
import { type WatchBudget, type WatchReport, watchOnce } from './watcher.ts';

/** The watcher's queue: one poll at a time across replicas. */
export const WATCH_QUEUE = 'case-watch';

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
    const log = app.log.child({ job: 'case-index' });
    app.decorate('caseIndex', {
      async poll(budget) {
        const store = await app.store.open();
        const report = await watchOnce({
          legacy: backgroundLegacy(app, { requestId: `case-index-${randomUUID()}`, log }),
          account: app.serviceAccount,
          store,
          log,
          ...(budget ? { budget } : {}),
          deadlines: app.config.handlingDeadlines,
          metrics: app.telemetry,
        });
        // Its news go out first: deriving durations must not hold a "Laporan baru" back.
        if (report.newCases + report.changes > 0) app.notices.deliverSoon();
        // What the poll wrote is derived now rather than by the next Statistik request, which would
        // otherwise wait for it (a first sweep writes every report of the group).
        await refreshDurations(store, log).catch((error) =>
          log.warn({ err: { message: (error as Error).message } }, 'case index: durations not refreshed'),
        );
        return report;
      },
    } satisfies CaseIndexAccess);

    // Without a service account the legacy cannot be read outside a request: no index, no watcher.
    if (!app.config.legacyService) return;
    const interval = app.config.jobs.watchIntervalSeconds;
    app.jobs.register(
      // A poll cut off by a stopping process blocks the next one only until it expires.
      { name: WATCH_QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: 120, deadLetters: false },
      async () => {
        try {
          await app.caseIndex.poll();
        } finally {
          await app.jobs
            .send(WATCH_QUEUE, {}, { singletonKey: 'next', startAfterSeconds: interval })
            .catch((error) =>
              log.warn({ err: { message: (error as Error).message } }, 'case index: next poll not asked'),
            );
        }
      },
      { pollingIntervalSeconds: 1 },
    );
    app.jobs.schedule(WATCH_QUEUE, '* * * * *');
    // The first poll at start, not at the next minute (the queue starts in an earlier onReady hook).
    app.addHook('onReady', async () => {
      if (!app.jobs.enabled) return;
      await app.jobs
        .send(WATCH_QUEUE, {}, { singletonKey: 'next' })
        .catch((error) =>
          log.warn({ err: { message: (error as Error).message } }, 'case index: first poll not asked'),
        );
    });
  },
  {
    name: 'wbs-case-index',
    dependencies: ['wbs-legacy', 'wbs-store', 'wbs-metrics', 'wbs-jobs', 'wbs-notifications'],
  },
);
