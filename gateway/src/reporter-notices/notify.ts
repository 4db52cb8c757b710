/**
 * What happens when a reporter asks for notices and when a handler answers: the store is written, and
 * the mail is only QUEUED (jobs.ts makes and sends it, with retries, across restarts). Plain inputs:
 * a store, a queue, a log and a counter; the routes prove the caller first.
 */
import { randomUUID } from 'node:crypto';
import type { CaseIdentity } from '../store/case-binding.ts';
import type { Store } from '../store/plugin.ts';
import type { ReporterAudience } from '../store/schema.ts';
import type { JobQueue } from './seams.ts';
import { claimNotice, createPending, dropPending, releaseNotice } from './store.ts';

/** The queues jobs.ts registers; their data is only a row id (never an address or a token). */
export const CONFIRMATION_QUEUE = 'reporter-confirmation';
export const NOTICE_QUEUE = 'reporter-notice';
export type SubscriptionJob = { subscriptionId: number };

export type NoticeEvent =
  | 'confirmation-queued'
  | 'confirmation-limited'
  | 'notice-queued'
  | 'enqueue-failed'
  | 'mail-sent'
  | 'mail-retry'
  | 'mail-failed';

/** Ops lines only: ids and reasons, never an address, a token or a complaint number. */
export type NoticeLog = {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
};

export type NoticeDeps = {
  queue: JobQueue;
  log: NoticeLog;
  count: (event: NoticeEvent) => void;
  now?: () => Date;
};

export type RequestOutcome = 'queued' | 'limited' | 'unavailable';

/**
 * The reporter asks that `address` be told of replies on the case. Within the limits, a pending
 * address is stored and its confirmation mail queued; over them nothing changes. The caller answers
 * `queued` and `limited` alike. `unavailable`: the queue refused, and nothing was kept (the limits
 * do not count a mail that never left).
 */
export async function requestReporterNotices(
  deps: NoticeDeps,
  store: Store,
  found: CaseIdentity,
  request: { address: string; audience: ReporterAudience },
): Promise<RequestOutcome> {
  const now = deps.now?.() ?? new Date();
  const ref = store.cases.bind(found);
  const created = await createPending(store, ref, { ...request, now });
  if (created.outcome === 'limited') {
    deps.count('confirmation-limited');
    return 'limited';
  }
  try {
    await deps.queue.send(CONFIRMATION_QUEUE, { subscriptionId: created.id } satisfies SubscriptionJob, {
      id: randomUUID(),
    });
  } catch (error) {
    deps.count('enqueue-failed');
    deps.log.warn(
      { queue: CONFIRMATION_QUEUE, reason: (error as Error)?.name ?? 'unknown' },
      'reporter notices: confirmation mail not queued',
    );
    await dropPending(store, created);
    return 'unavailable';
  }
  deps.count('confirmation-queued');
  return 'queued';
}

/**
 * A handler posted message `messageId` on the case: queue one notice to the confirmed address,
 * unless a notice of the last hour covers it. NEVER throws and is not awaited by the post: a store
 * or queue failure is logged and counted, and the handler's message stands.
 */
export async function noteHandlerMessage(
  deps: NoticeDeps & { store: () => Promise<Store> },
  found: CaseIdentity,
  messageId: number,
): Promise<void> {
  try {
    const store = await deps.store();
    const claim = await claimNotice(store, store.cases.bind(found), messageId, deps.now?.() ?? new Date());
    if (!claim) return;
    try {
      await deps.queue.send(NOTICE_QUEUE, { subscriptionId: claim.id } satisfies SubscriptionJob, {
        id: randomUUID(),
      });
    } catch (error) {
      await releaseNotice(store, claim).catch(() => {});
      throw error;
    }
    deps.count('notice-queued');
  } catch (error) {
    deps.count('enqueue-failed');
    deps.log.warn(
      { queue: NOTICE_QUEUE, reason: (error as Error)?.name ?? 'unknown' },
      'reporter notices: reply notice not queued',
    );
  }
}
