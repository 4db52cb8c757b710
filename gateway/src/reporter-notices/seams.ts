/**
 * Where this module meets the mail transport (gateway/src/mail/) and the job queue
 * (gateway/src/jobs/), which are built beside it. The types below are those modules' interfaces,
 * written out here so this module compiles and is tested before they land.
 *
 * TEMPORARY, to go when they land (the wiring is listed in docs/adr/0061-reporter-mail-notices.md):
 * - `reporterConfirmationMail` / `reporterNoticeMail`: stand-in texts; re-export mail/compose.ts's.
 * - `jobQueueOf`: falls back to `StandInQueue` (records what is sent, runs nothing by itself) while the
 *   app has no `jobs` decoration; with the jobs plugin registered it answers `app.jobs`.
 * - `mailerOf` and `publicUrlOf`: read `app.mailer` and the PUBLIC_URL setting where the mail plugin
 *   is expected to put them; null until then.
 */
import type { FastifyInstance } from 'fastify';

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers?: Record<string, string>;
};

/** The transport: throws an error with `retryable: boolean` (MailError) when a mail did not go. */
export type Mailer = { send(mail: OutgoingMail): Promise<void> };

export type QueueDefinition = {
  name: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
};

export type SendOptions = {
  /** A uuid: a send with an id already queued is queued once. */
  id?: string;
  startAfterSeconds?: number;
  singletonKey?: string;
};

export type JobHandler = (data: unknown) => Promise<void>;

export type JobQueue = {
  register(queue: QueueDefinition, handler: JobHandler): Promise<void> | void;
  send(name: string, data: object, options?: SendOptions): Promise<void>;
};

/** Whether a transport error says the same mail may go later (MailError.retryable). */
export function isRetryableMailError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/** A stand-in mail text: only that there is something to open, and the link. */
function standInMail(to: string, messageId: string, subject: string, lines: string[]): OutgoingMail {
  const text = lines.join('\n\n');
  const escapeHtml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  return { to, messageId, subject, text, html };
}

export function reporterConfirmationMail(input: {
  to: string;
  messageId: string;
  confirmUrl: string;
}): OutgoingMail {
  return standInMail(input.to, input.messageId, 'Konfirmasi e-mail pemberitahuan WBS', [
    'Seseorang meminta agar alamat ini diberi tahu bila ada tanggapan atas sebuah laporan WBS.',
    `Bila itu Anda, buka tautan ini dalam 48 jam: ${input.confirmUrl}`,
    'Bila bukan Anda, abaikan e-mail ini: tanpa konfirmasi tidak ada e-mail lain yang dikirim.',
  ]);
}

export function reporterNoticeMail(input: {
  to: string;
  messageId: string;
  trackUrl: string;
  optOutUrl: string;
}): OutgoingMail {
  return standInMail(input.to, input.messageId, 'Ada tanggapan baru di WBS', [
    'Ada tanggapan baru atas laporan Anda. Buka Pantau Laporan untuk membacanya:',
    input.trackUrl,
    `Berhenti menerima e-mail ini: ${input.optOutUrl}`,
  ]);
}

/**
 * The queue of the app while it has no jobs plugin: keeps the last sends (so the routes answer as
 * they will, and tests see what was queued) and runs handlers only when `drain` is called.
 */
export class StandInQueue implements JobQueue {
  static readonly KEPT = 1000;
  readonly sent: { name: string; data: object; options: SendOptions | undefined }[] = [];
  readonly handlers = new Map<string, JobHandler>();
  #next = 0;
  register(queue: QueueDefinition, handler: JobHandler): void {
    this.handlers.set(queue.name, handler);
  }
  async send(name: string, data: object, options?: SendOptions): Promise<void> {
    if (options?.id && this.sent.some((job) => job.options?.id === options.id)) return;
    this.sent.push({ name, data, options });
    if (this.sent.length > StandInQueue.KEPT) {
      this.sent.shift();
      this.#next = Math.max(0, this.#next - 1);
    }
  }
  /** Forgets every send (tests start each case from an empty queue). */
  clear(): void {
    this.sent.length = 0;
    this.#next = 0;
  }
  /** Runs every job sent since the last drain whose queue has a handler; the errors they threw. */
  async drain(): Promise<unknown[]> {
    const errors: unknown[] = [];
    while (this.#next < this.sent.length) {
      const job = this.sent[this.#next++];
      const handler = job && this.handlers.get(job.name);
      if (!job || !handler) continue;
      try {
        await handler(job.data);
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}

const standIns = new WeakMap<object, StandInQueue>();

/** The app's job queue: `app.jobs` once the jobs plugin decorates it, else this app's stand-in. */
export function jobQueueOf(app: FastifyInstance): JobQueue {
  const jobs = (app as unknown as { jobs?: JobQueue }).jobs;
  if (jobs) return jobs;
  // One stand-in per root instance: every encapsulated child of an app shares its decorations.
  const root = app.config as object;
  let queue = standIns.get(root);
  if (!queue) {
    queue = new StandInQueue();
    standIns.set(root, queue);
  }
  return queue;
}

/** The app's stand-in queue, or null once a real one is there (tests that look at what was queued). */
export function standInQueueOf(app: FastifyInstance): StandInQueue | null {
  const queue = jobQueueOf(app);
  return queue instanceof StandInQueue ? queue : null;
}

/** The mail transport, once the mail plugin decorates `app.mailer`. */
export function mailerOf(app: FastifyInstance): Mailer | null {
  return (app as unknown as { mailer?: Mailer }).mailer ?? null;
}

/** PUBLIC_URL, the site's address that mail links start with, as the mail plugin's settings hold it. */
export function publicUrlOf(app: FastifyInstance): string | null {
  const config = app.config as unknown as { publicUrl?: unknown; mail?: { publicUrl?: unknown } };
  const url = config.publicUrl ?? config.mail?.publicUrl;
  return typeof url === 'string' && url !== '' ? url : null;
}
