/**
 * Where this module meets the mail transport (gateway/src/mail/) and the job queue (gateway/src/jobs/):
 * the mails are mail/compose.ts's, the queue is `app.jobs`, the transport `app.mailer`.
 */
import type { FastifyInstance } from 'fastify';
import type { Jobs, QueueSpec, SendOptions } from '../jobs/plugin.ts';
import type { Mailer as AppMailer, OutgoingMail } from '../mail/transport.ts';

export { reporterConfirmationMail, reporterNoticeMail } from '../mail/compose.ts';
export type { OutgoingMail };

/** The transport: throws an error with `retryable: boolean` (MailError) when a mail did not go. */
export type Mailer = Pick<AppMailer, 'send'>;

export type QueueDefinition = QueueSpec;
export type { SendOptions };
export type JobHandler = (data: unknown) => Promise<void>;
/** What this module uses of the app's queue (`app.jobs`). */
export type JobQueue = Pick<Jobs, 'register' | 'send'>;

/** Whether a transport error says the same mail may go later (MailError.retryable). */
export function isRetryableMailError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/** The app's job queue. */
export function jobQueueOf(app: FastifyInstance): JobQueue {
  return app.jobs;
}

/** The mail transport (null without SMTP_URL: nothing can be sent). */
export function mailerOf(app: FastifyInstance): Mailer | null {
  return app.mailer.configured ? app.mailer : null;
}

/** PUBLIC_URL, the site's address that mail links start with. */
export function publicUrlOf(app: FastifyInstance): string | null {
  return app.config.publicUrl || null;
}
