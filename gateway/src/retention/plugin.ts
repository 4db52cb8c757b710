/**
 * Retention as an app plugin: `app.retention.scan()` runs ONE bounded retention scan (scan.ts) under
 * the store's lease, so one scan runs at a time across replicas whoever started it (the nightly job,
 * the start-up run, or the officer's "Periksa sekarang"); the job queue (`retention-scan`, stately)
 * runs it at 01:00 WIB, once at start-up, and again a minute after a run that left work over.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { asServiceAccount, type LegacyCaller } from '../legacy/plugin.ts';
import { runRetentionScan, type ScanActor, type ScanReport } from './scan.ts';
import { releaseScanLease, takeScanLease } from './store.ts';

export const RETENTION_QUEUE = 'retention-scan';
/** 01:00 WIB (UTC+7), as pg-boss schedules in UTC. */
export const RETENTION_CRON = '0 18 * * *';
/** Longest one run may hold the lease (a process that died holding it lets it lapse). */
const LEASE_SECONDS = 15 * 60;
/** A run that left work over asks for the next one this much later. */
const BACKLOG_PAUSE_SECONDS = 60;

export type RetentionAccess = {
  /**
   * One scan now; null when another scan holds the lease. `legacy`: the caller's own legacy access
   * (the officer's), else the gateway's service account.
   */
  scan(options?: { by?: ScanActor; legacy?: LegacyCaller }): Promise<ScanReport | null>;
};

declare module 'fastify' {
  interface FastifyInstance {
    retention: RetentionAccess;
  }
}

export const retentionPlugin = fp(
  async (app: FastifyInstance) => {
    const log = app.log.child({ job: 'retention' });
    app.decorate('retention', {
      async scan(options = {}) {
        const store = await app.store.open();
        const holder = randomUUID();
        if (!(await takeScanLease(store, holder, LEASE_SECONDS))) return null;
        try {
          const own = options.legacy;
          const report = await runRetentionScan({
            store,
            log,
            defaultMonths: app.config.retentionMonths,
            withLegacy: own
              ? (work) => work(own)
              : (work) => asServiceAccount(app, { requestId: `retention-${holder}`, log }, work),
            ...(options.by ? { by: options.by } : {}),
          });
          log.info({ ...report }, 'retention: scan done');
          return report;
        } finally {
          await releaseScanLease(store, holder).catch((error) =>
            log.warn({ err: { message: (error as Error).message } }, 'retention: lease not released'),
          );
        }
      },
    } satisfies RetentionAccess);

    // Without a service account the legacy cannot be read outside a request: the officer's
    // "Periksa sekarang" still scans with the officer's own access.
    if (!app.config.legacyService) return;
    app.jobs.register(
      {
        name: RETENTION_QUEUE,
        policy: 'stately',
        retryLimit: 3,
        expireInSeconds: LEASE_SECONDS,
        deadLetters: false,
      },
      async () => {
        const report = await app.retention.scan();
        if (report?.more) {
          await app.jobs
            .send(RETENTION_QUEUE, {}, { singletonKey: 'backlog', startAfterSeconds: BACKLOG_PAUSE_SECONDS })
            .catch((error) =>
              log.warn({ err: { message: (error as Error).message } }, 'retention: next run not asked'),
            );
        }
      },
    );
    app.jobs.schedule(RETENTION_QUEUE, RETENTION_CRON);
    app.addHook('onReady', async () => {
      if (!app.jobs.enabled) return;
      await app.jobs
        .send(RETENTION_QUEUE, {}, { singletonKey: 'start' })
        .catch((error) =>
          log.warn({ err: { message: (error as Error).message } }, 'retention: start-up run not asked'),
        );
    });
  },
  { name: 'wbs-retention', dependencies: ['wbs-legacy', 'wbs-store', 'wbs-jobs', 'wbs-audit-trail'] },
);
