/**
 * The two mail jobs: a confirmation link for a pending address, and a notice of a reply for a
 * confirmed one. The routes and the message hook only queue a row id; the mail is made here, from
 * the store, when the job runs, so an address never sits in the queue's tables and a mail refused by
 * a transport that is down is retried with back-off (the queue keeps it across restarts).
 *
 * Mails say only that there is something to open: no complaint number, no password, no case detail,
 * and no link carrying a secret of the case (the links' tokens only confirm or stop the mails).
 * A transport error is never logged or rethrown as it came: SMTP replies often quote the recipient.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Store } from '../store/plugin.ts';
import type { ReporterAudience } from '../store/schema.ts';
import { noticeCounter } from './context.ts';
import { CONFIRMATION_QUEUE, NOTICE_QUEUE, type NoticeEvent, type NoticeLog } from './notify.ts';
import {
  isRetryableMailError,
  type JobQueue,
  jobQueueOf,
  type Mailer,
  mailerOf,
  type OutgoingMail,
  publicUrlOf,
  type QueueDefinition,
  reporterConfirmationMail,
  reporterNoticeMail,
} from './seams.ts';
import { noticeTarget, prepareConfirmation } from './store.ts';

/** Retried for a few hours with back-off: a confirmation link lives 48 h, a reply waits in the case. */
export const CONFIRMATION_JOB: QueueDefinition = {
  name: CONFIRMATION_QUEUE,
  retryLimit: 8,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
};
export const NOTICE_JOB: QueueDefinition = {
  name: NOTICE_QUEUE,
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 120,
};

/** The page paths the links open (web/src/notices/). The token goes in the fragment, never to a server. */
export const CONFIRM_PATH = '/notifikasi/konfirmasi';
export const OPT_OUT_PATH = '/notifikasi/berhenti';
/** Where the reporter reads the reply: Pantau Laporan for the tracker, signing in for the pelapor. */
const TRACK_PATHS: Record<ReporterAudience, string> = { tracker: '/admin/checkcase', account: '/auth/login' };

export type MailJobDeps = {
  store: Store;
  mailer: Mailer | null;
  /** PUBLIC_URL: the site's own address, which every link starts with. */
  publicUrl: string | null;
  log: NoticeLog;
  count: (event: NoticeEvent) => void;
  now?: () => Date;
};

/** Thrown for the queue to retry later; says nothing of the mail or its recipient. */
export class MailRetry extends Error {
  constructor(queue: string) {
    super(`${queue}: mail transport unavailable, retrying later`);
    this.name = 'MailRetry';
  }
}

const jobData = v.object({ subscriptionId: v.pipe(v.number(), v.integer(), v.minValue(1)) });

const linkBase = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

function messageIdFor(publicUrl: string): string {
  let host = 'wbs.invalid';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // An unreadable PUBLIC_URL still gets a unique id.
  }
  return `<${randomUUID()}@${host}>`;
}

/** What a refusal may tell the ops log: the transport's codes, never its text. */
function refusalOf(error: unknown): Record<string, unknown> {
  const e = (error ?? {}) as { name?: unknown; code?: unknown; responseCode?: unknown };
  return {
    error: typeof e.name === 'string' ? e.name : 'unknown',
    ...(typeof e.code === 'string' && /^[A-Z_]{1,40}$/.test(e.code) ? { code: e.code } : {}),
    ...(typeof e.responseCode === 'number' ? { responseCode: e.responseCode } : {}),
  };
}

async function deliver(deps: MailJobDeps, queue: string, id: number, mail: OutgoingMail): Promise<void> {
  if (!deps.mailer) {
    deps.count('mail-failed');
    deps.log.warn({ queue, subscriptionId: id }, 'reporter notices: no mail transport, mail dropped');
    return;
  }
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    if (isRetryableMailError(error)) {
      deps.count('mail-retry');
      deps.log.warn({ queue, subscriptionId: id, ...refusalOf(error) }, 'reporter notices: mail deferred');
      throw new MailRetry(queue);
    }
    deps.count('mail-failed');
    deps.log.warn({ queue, subscriptionId: id, ...refusalOf(error) }, 'reporter notices: mail refused');
    return;
  }
  deps.count('mail-sent');
  deps.log.info({ queue, subscriptionId: id }, 'reporter notices: mail sent');
}

function parsed(deps: MailJobDeps, queue: string, data: unknown): number | null {
  const result = v.safeParse(jobData, data);
  if (result.success) return result.output.subscriptionId;
  deps.log.warn({ queue }, 'reporter notices: job without a subscription id, dropped');
  return null;
}

function usableUrl(deps: MailJobDeps, queue: string, id: number): string | null {
  if (deps.publicUrl) return linkBase(deps.publicUrl);
  deps.count('mail-failed');
  deps.log.warn({ queue, subscriptionId: id }, 'reporter notices: PUBLIC_URL not set, mail dropped');
  return null;
}

/** Job `reporter-confirmation`: the link that confirms a pending address (a fresh token each time). */
export async function sendConfirmationMail(deps: MailJobDeps, data: unknown): Promise<void> {
  const id = parsed(deps, CONFIRMATION_QUEUE, data);
  if (id === null) return;
  const base = usableUrl(deps, CONFIRMATION_QUEUE, id);
  if (base === null) return;
  const prepared = await prepareConfirmation(deps.store, id, deps.now?.() ?? new Date());
  // Replaced by a newer address, or stopped: nothing to confirm.
  if (!prepared) return;
  const mail = reporterConfirmationMail({
    to: prepared.address,
    messageId: messageIdFor(base),
    confirmUrl: `${base}${CONFIRM_PATH}#${prepared.token}`,
  });
  await deliver(deps, CONFIRMATION_QUEUE, id, mail);
}

/** Job `reporter-notice`: "there is a reply, open Pantau Laporan", with the opt-out link. */
export async function sendNoticeMail(deps: MailJobDeps, data: unknown): Promise<void> {
  const id = parsed(deps, NOTICE_QUEUE, data);
  if (id === null) return;
  const base = usableUrl(deps, NOTICE_QUEUE, id);
  if (base === null) return;
  const target = await noticeTarget(deps.store, id);
  // Stopped since: no mail.
  if (!target) return;
  const mail = reporterNoticeMail({
    to: target.address,
    messageId: messageIdFor(base),
    trackUrl: `${base}${TRACK_PATHS[target.audience]}`,
    optOutUrl: `${base}${OPT_OUT_PATH}#${target.optOut}`,
  });
  await deliver(deps, NOTICE_QUEUE, id, mail);
}

/**
 * Registers both jobs on the app's queue. Call once the app is ready (the queue works only then).
 * `overrides` stand in for the mail plugin's transport and PUBLIC_URL, and for the queue (tests).
 */
export async function registerReporterNoticeJobs(
  app: FastifyInstance,
  overrides: { mailer?: Mailer; publicUrl?: string; queue?: JobQueue } = {},
): Promise<void> {
  const queue = overrides.queue ?? jobQueueOf(app);
  const count = noticeCounter(app);
  const deps = async (): Promise<MailJobDeps> => ({
    store: await app.store.open(),
    mailer: overrides.mailer ?? mailerOf(app),
    publicUrl: overrides.publicUrl ?? publicUrlOf(app),
    log: app.log,
    count,
  });
  await queue.register(CONFIRMATION_JOB, async (data) => sendConfirmationMail(await deps(), data));
  await queue.register(NOTICE_JOB, async (data) => sendNoticeMail(await deps(), data));
}
