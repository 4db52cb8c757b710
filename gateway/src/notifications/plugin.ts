/**
 * Notifications as an app plugin (docs/product/notifications.md): registers the jobs that turn case
 * events into notices and send their mails, and decorates `app.notices` for the producers (routes
 * that record a case event ask for a prompt delivery instead of waiting for the next minute).
 */
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { serviceAccount } from '../legacy/service-account.ts';
import { notifyCaseEvents } from './notifier.ts';
import { handlerDirectory } from './recipients.ts';
import { addNotices, saveRecipients } from './store.ts';

/** The queue of the notifier: one run at a time across replicas, one more waiting at most. */
export const DELIVER_QUEUE = 'notices-deliver';

export type Notices = {
  /** Asks for the case events recorded so far to be turned into notices soon (never throws). */
  deliverSoon(): void;
  /**
   * A staff user signed in from a browser not seen before: a security notice, always mailed at once
   * (docs/product/notifications.md#handlers). Runs after the reply; never fails the sign-in.
   */
  signedInFromNewDevice(user: { id: number; email: string | null; userTypeId: number }): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    notices: Notices;
  }
}

export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    const log = app.log.child({ module: 'notices' });
    const account = serviceAccount(app.config.legacyService);
    const directory = handlerDirectory();
    const deps = {
      log,
      directory,
      withLegacy: <T>(work: (legacy: LegacyCaller) => Promise<T>) =>
        account.run(app.backgroundLegacy(log, null), (auth) => work(app.backgroundLegacy(log, auth))),
    };

    app.jobs.register(
      { name: DELIVER_QUEUE, policy: 'stately', retryLimit: 20, retryDelaySeconds: 15, expireInSeconds: 120 },
      async () => {
        const store = await app.store.open();
        for (let run = 0; run < 50; run++) {
          const result = await notifyCaseEvents({ ...deps, store });
          if (!result.more) break;
        }
      },
      { pollingIntervalSeconds: 1 },
    );
    // A safety net: events recorded while no one asked (a replica that died before asking) are
    // delivered within a minute.
    app.jobs.schedule(DELIVER_QUEUE, '* * * * *');

    app.decorate('notices', {
      deliverSoon() {
        if (!app.jobs.enabled) return;
        app.jobs
          .send(DELIVER_QUEUE, {}, { singletonKey: 'deliver' })
          .catch((error) =>
            log.warn({ err: { message: (error as Error).message } }, 'notices: delivery not asked'),
          );
      },
      signedInFromNewDevice(user) {
        if (user.userTypeId > 5) return;
        const email = user.email?.trim() || null;
        void (async () => {
          const store = await app.store.open();
          await saveRecipients(store, [{ userId: user.id, email }]);
          const [added] = await addNotices(store.db, [
            {
              userId: user.id,
              kind: 'new-device',
              companyId: null,
              companyName: null,
              caseId: null,
              caseBinding: null,
              dedupe: `sign-in:${randomUUID()}`,
              mail: email && app.mailer.configured ? 'immediate' : 'off',
            },
          ]);
          if (added?.mail === 'immediate') await mailSoon(user.id);
        })().catch((error) =>
          log.warn({ err: { message: (error as Error).message } }, 'notices: new-device notice not recorded'),
        );
      },
    } satisfies Notices);
  },
  { name: 'wbs-notifications', dependencies: ['wbs-jobs', 'wbs-store', 'wbs-legacy'] },
);
