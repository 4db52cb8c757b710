/**
 * Outgoing mail as an app plugin: `app.mailer` (transport.ts) for whoever decides to send a mail,
 * closed when the app closes (sends under way get a short grace, then fail as retryable). Without
 * SMTP_URL the mailer says `configured: false` and refuses every send.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MailSettings } from './settings.ts';
import { type Mailer, mailer } from './transport.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export const mailPlugin = fp(
  async (app: FastifyInstance, opts: { settings: MailSettings }) => {
    const { smtp } = opts.settings;
    const instance = mailer(opts.settings, app.log.child({ component: 'mail' }));
    app.decorate('mailer', instance);
    app.addHook('onClose', async () => instance.close());
    if (smtp === null) app.log.info('mail: SMTP_URL is not set, so no mail is sent');
    else {
      const tls = smtp.secure ? 'smtps' : smtp.requireTls ? 'starttls' : 'none (loopback)';
      app.log.info({ mail: { host: smtp.host, port: smtp.port, tls } }, 'mail: SMTP server set');
    }
  },
  { name: 'wbs-mail' },
);
