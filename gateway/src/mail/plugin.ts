/**
 * Outgoing mail as an app plugin: `app.mailer` (transport.ts) for whoever decides to send a mail,
 * closed when the app closes (sends under way get a short grace, then fail as retryable). Without
 * SMTP_URL the mailer says `configured: false` and refuses every send.
 */
import { Counter } from '@prometheus-io/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MailSettings } from './settings.ts';
import { MailError, type Mailer, mailer } from './transport.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Every send counted by outcome (`sent`, or the MailError's failure: `deferred`, `unreachable`, …):
 * what ops watch beside the queues' own gauges. No label names a recipient.
 */
function counted(app: FastifyInstance, inner: Mailer): Mailer {
  if (!app.hasDecorator('telemetry')) return inner;
  const sends = new Counter({
    name: 'wbs_mail_sends_total',
    help: 'Mails handed to the SMTP server, by outcome (sent, or why not)',
    labelNames: ['outcome'],
    registers: [app.telemetry.registry],
  });
  return {
    configured: inner.configured,
    async send(mail) {
      try {
        await inner.send(mail);
        sends.inc({ outcome: 'sent' });
      } catch (error) {
        sends.inc({ outcome: error instanceof MailError ? error.failure : 'failed' });
        throw error;
      }
    },
    close: () => inner.close(),
  };
}

export const mailPlugin = fp(
  async (app: FastifyInstance, opts: { settings: MailSettings }) => {
    const { smtp } = opts.settings;
    const instance = counted(app, mailer(opts.settings, app.log.child({ component: 'mail' })));
    app.decorate('mailer', instance);
    app.addHook('onClose', async () => instance.close());
    if (smtp === null) app.log.info('mail: SMTP_URL is not set, so no mail is sent');
    else {
      const tls = smtp.secure ? 'smtps' : smtp.requireTls ? 'starttls' : 'none (loopback)';
      app.log.info({ mail: { host: smtp.host, port: smtp.port, tls } }, 'mail: SMTP server set');
    }
  },
  { name: 'wbs-mail', dependencies: ['wbs-metrics'] },
);
