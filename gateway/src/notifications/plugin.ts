/**
 * Notifications as an app plugin (docs/product/notifications.md): registers the jobs that turn case
 * events into notices and send their mails, and decorates `app.notices` for the producers (routes
 * that record a case event ask for a prompt delivery instead of waiting for the next minute).
 */

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JobFailure } from '../jobs/plugin.ts';
import { asServiceAccount, type LegacyCaller } from '../legacy/plugin.ts';
import { caseStatusTable } from '../legacy/reference.ts';
import { registerReporterNoticeJobs } from '../reporter-notices/jobs.ts';
import { finalStatusIdsOf, purgeReporterSubscriptions } from '../reporter-notices/store.ts';
import { scanDeadlines } from './deadlines.ts';
import {
  DIGEST_CRON,
  DIGEST_PLAN_QUEUE,
  DIGEST_QUEUE,
  digestDay,
  jobIdFor,
  NOTICE_MAIL_QUEUE,
  sendDigest,
  sendImmediateNotices,
} from './mail-jobs.ts';
import { notifyCaseEvents } from './notifier.ts';
import { handlerDirectory } from './recipients.ts';
import { addNotices, saveRecipients, usersWithPendingMail } from './store.ts';

/** The queue of the notifier: one run at a time across replicas, one more waiting at most. */
export const DELIVER_QUEUE = 'notices-deliver';
const MAIL_SWEEP_QUEUE = 'notice-mail-sweep';
/** Asks for a user's mail job when a kind and company waiting for its window may be mailed. */
const MAIL_LATER_QUEUE = 'notice-mail-later';
const REPORTER_PURGE_QUEUE = 'reporter-notices-purge';
export const DEADLINE_QUEUE = 'notice-deadlines';
/**
 * Mail jobs outlast an SMTP outage of more than an hour (40 tries, waits growing from 30 s to at most
 * 2 minutes by default: about 78 minutes) and catch up within the longest wait of its end; then the
 * dead letters. The waits are settings (MAIL_RETRY_DELAY_SECONDS, MAIL_RETRY_MAX_DELAY_SECONDS), so a
 * suite can prove the same catch-up over an outage of seconds.
 */
const mailRetries = (retry: { delaySeconds: number; maxDelaySeconds: number }) => ({
  retryLimit: 40,
  retryDelaySeconds: retry.delaySeconds,
  retryBackoff: true,
  retryDelayMaxSeconds: retry.maxDelaySeconds,
});

export type Notices = {
  /** Asks for the case events recorded so far to be turned into notices soon (never throws). */
  deliverSoon(): void;
  /**
   * A staff user signed in from a browser not seen before: a security notice, always mailed at once
   * (docs/product/notifications.md#handlers). Runs after the reply; never fails the sign-in.
   */
  signedInFromNewDevice(user: { id: number; email: string | null; userTypeId: number }): void;
  /**
   * Wrong second-factor codes were typed in a row after the user's right password (the first burst
   * of a run, docs/product/second-factor.md): a security notice like the one above.
   */
  secondFactorGuessed(user: { id: number; email: string | null; userTypeId: number }): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    notices: Notices;
  }
}

export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    const log = app.log.child({ module: 'notices' });
    const directory = handlerDirectory();
    const deps = {
      log,
      directory,
      withLegacy: <T>(work: (legacy: LegacyCaller) => Promise<T>) =>
        asServiceAccount(app, { requestId: `notices-${randomUUID()}`, log }, work),
    };

    app.jobs.register(
      { name: DELIVER_QUEUE, policy: 'stately', retryLimit: 20, retryDelaySeconds: 15, expireInSeconds: 120 },
      async () => {
        const store = await app.store.open();
        for (let run = 0; run < 50; run++) {
          const result = await notifyCaseEvents({ ...deps, store, mailOff: !app.mailer.configured });
          for (const userId of result.mailNow) await mailSoon(userId);
          if (!result.more) break;
        }
      },
      { pollingIntervalSeconds: 1 },
    );
    // A safety net: events recorded while no one asked (a replica that died before asking) are
    // delivered within a minute.
    app.jobs.schedule(DELIVER_QUEUE, '* * * * *');

    const MAIL_RETRIES = mailRetries(app.config.mailRetry);
    const mailDeps = async () => ({
      store: await app.store.open(),
      mailer: app.mailer,
      from: app.config.mail.from,
      publicUrl: app.config.publicUrl,
      secret: app.config.sessionSecret,
      log,
    });
    const mailSoon = (userId: number) =>
      app.jobs.send(NOTICE_MAIL_QUEUE, { userId }, { singletonKey: String(userId) });
    const userOf = (data: unknown) => {
      const userId = (data as { userId?: unknown })?.userId;
      if (typeof userId !== 'number' || !Number.isInteger(userId))
        throw new JobFailure('bad-job-data', false);
      return userId;
    };

    // Not a delayed job on the mail queue itself: its one waiting job per user would hold back the
    // notices of every other kind and company until then. One ask per user and moment (its id), a
    // second late so the window has surely ended; the sweep below asks again if this one is lost.
    const mailLater = (userId: number, at: Date) =>
      app.jobs.send(
        MAIL_LATER_QUEUE,
        { userId },
        {
          id: jobIdFor(`notice-mail-later|${userId}|${at.getTime()}`),
          startAfterSeconds: Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000) + 1),
        },
      );
    // One mail job per user at a time (stately per user): notices made while one waits are in it.
    const windowMs = app.config.notices.mailWindowSeconds * 1000;
    app.jobs.register(
      { name: NOTICE_MAIL_QUEUE, policy: 'stately', expireInSeconds: 120, ...MAIL_RETRIES },
      async (data) => {
        const userId = userOf(data);
        const { nextAt } = await sendImmediateNotices({ ...(await mailDeps()), windowMs }, userId);
        if (nextAt) await mailLater(userId, nextAt);
      },
      { pollingIntervalSeconds: 1, localConcurrency: 2 },
    );
    app.jobs.register({ name: MAIL_LATER_QUEUE, deadLetters: false }, async (data) => {
      await mailSoon(userOf(data));
    });
    app.jobs.register({ name: DIGEST_QUEUE, expireInSeconds: 120, ...MAIL_RETRIES }, async (data) => {
      const { day, cutoff } = data as { day?: unknown; cutoff?: unknown };
      if (typeof day !== 'string' || typeof cutoff !== 'string') throw new JobFailure('bad-job-data', false);
      await sendDigest(await mailDeps(), userOf(data), day, new Date(cutoff));
    });
    app.jobs.register({ name: DIGEST_PLAN_QUEUE, policy: 'stately', deadLetters: false }, async () => {
      const deps = await mailDeps();
      const now = new Date();
      const day = digestDay(now);
      for (const userId of await usersWithPendingMail(deps.store, 'digest', now)) {
        // One job per user and day, whichever replica planned it and however often.
        await app.jobs.send(
          DIGEST_QUEUE,
          { userId, day, cutoff: now.toISOString() },
          { id: jobIdFor(`digest|${userId}|${day}`) },
        );
      }
    });
    app.jobs.schedule(DIGEST_PLAN_QUEUE, DIGEST_CRON);
    // Immediate mails whose job was never sent (a process that died between the notice and the send,
    // or before it asked for the end of a window) are asked for again: pg-boss keeps one waiting job
    // per user, so asking twice costs nothing, and a group still in its window only asks for later.
    app.jobs.register({ name: MAIL_SWEEP_QUEUE, policy: 'stately', deadLetters: false }, async () => {
      if (!app.mailer.configured) return;
      const deps = await mailDeps();
      for (const userId of await usersWithPendingMail(
        deps.store,
        'immediate',
        new Date(Date.now() - 60_000),
      )) {
        await mailSoon(userId);
      }
    });
    app.jobs.schedule(MAIL_SWEEP_QUEUE, '*/5 * * * *');

    // The reporter's own notices (reporter-notices/): confirmation and reply mails, and the daily
    // deletion of addresses 30 days after their case's final status (at 02:00 WIB).
    await registerReporterNoticeJobs(app);
    app.jobs.register({ name: REPORTER_PURGE_QUEUE, policy: 'stately', deadLetters: false }, async () => {
      const store = await app.store.open();
      const table = await deps.withLegacy((legacy) => caseStatusTable(legacy));
      const result = await purgeReporterSubscriptions(store, { finalStatusIds: finalStatusIdsOf(table) });
      log.info({ ...result }, 'reporter notices: daily clean-up');
    });
    app.jobs.schedule(REPORTER_PURGE_QUEUE, '0 19 * * *');

    // Deadline notices: once an hour (at :15), every open report of a seeded company.
    app.jobs.register({ name: DEADLINE_QUEUE, policy: 'stately', deadLetters: false }, async () => {
      const table = await deps.withLegacy((legacy) => caseStatusTable(legacy));
      const result = await scanDeadlines({
        ...deps,
        store: await app.store.open(),
        defaults: app.config.handlingDeadlines,
        finalStatusIds: finalStatusIdsOf(table),
        mailOff: !app.mailer.configured,
      });
      for (const userId of result.mailNow) await mailSoon(userId);
    });
    app.jobs.schedule(DEADLINE_QUEUE, '15 * * * *');

    /**
     * A security notice of a staff user: the bell's row and a mail at once, whatever the preferences
     * say. Runs after the reply; never fails the request that caused it. Not for a pelapor (type 6):
     * a reporter's mailbox may be read by the very person reported, and it has no bell.
     */
    function securityNotice(
      user: { id: number; email: string | null; userTypeId: number },
      kind: 'new-device' | 'second-factor-failures',
      what: string,
    ): void {
      if (user.userTypeId > 5) return;
      const email = user.email?.trim() || null;
      void (async () => {
        const store = await app.store.open();
        await saveRecipients(store, [{ userId: user.id, email }]);
        const [added] = await addNotices(store.db, [
          {
            userId: user.id,
            kind,
            companyId: null,
            companyName: null,
            caseId: null,
            caseBinding: null,
            dedupe: `${what}:${randomUUID()}`,
            mail: email && app.mailer.configured ? 'immediate' : 'off',
          },
        ]);
        if (added?.mail === 'immediate') await mailSoon(user.id);
      })().catch((error) =>
        log.warn(
          { err: { message: (error as Error).message }, kind },
          'notices: security notice not recorded',
        ),
      );
    }

    app.decorate('notices', {
      deliverSoon() {
        if (!app.jobs.enabled) return;
        app.jobs
          .send(DELIVER_QUEUE, {}, { singletonKey: 'deliver' })
          .catch((error) =>
            log.warn({ err: { message: (error as Error).message } }, 'notices: delivery not asked'),
          );
      },
      signedInFromNewDevice: (user) => securityNotice(user, 'new-device', 'sign-in'),
      secondFactorGuessed: (user) => securityNotice(user, 'second-factor-failures', 'second-factor'),
    } satisfies Notices);
  },
  { name: 'wbs-notifications', dependencies: ['wbs-jobs', 'wbs-store', 'wbs-legacy', 'wbs-mail'] },
);
