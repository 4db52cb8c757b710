/**
 * What the routes and the jobs of this module take from the app: its store, its queue (looked up at
 * each use: the jobs plugin may decorate the app after a route plugin registered), its log and the
 * `wbs_reporter_notices_total{event}` counter in the app's metrics registry.
 */
import { Counter } from '@prometheus-io/client';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/plugin.ts';
import type { NoticeDeps, NoticeEvent } from './notify.ts';
import { jobQueueOf } from './seams.ts';

const counters = new WeakMap<object, Counter<'event'>>();

/** Counts one event of this module (a queued or refused mail, a queue or transport failure). */
export function noticeCounter(app: FastifyInstance): (event: NoticeEvent) => void {
  if (!app.hasDecorator('telemetry')) return () => {};
  const { registry } = app.telemetry;
  let counter = counters.get(registry);
  if (!counter) {
    // Above 0 for enqueue-failed or mail-failed: reporters asked for mail that did not go.
    counter = new Counter({
      name: 'wbs_reporter_notices_total',
      help: 'Reporter e-mail notices: confirmation and reply mails queued, refused by a limit, failed, sent',
      labelNames: ['event'] as const,
      registers: [registry],
    });
    counters.set(registry, counter);
  }
  const known = counter;
  return (event) => known.inc({ event });
}

export type AppNoticeDeps = NoticeDeps & { store: () => Promise<Store> };

export function reporterNoticeDeps(app: FastifyInstance): AppNoticeDeps {
  const count = noticeCounter(app);
  return {
    get queue() {
      return jobQueueOf(app);
    },
    log: app.log,
    count,
    store: () => app.store.open(),
  };
}
