/**
 * A job queue that runs nothing by itself, for route tests that look at what a route queued and then
 * run the queued jobs one by one (`drain`). The delivery itself, through pg-boss on the store and a
 * real SMTP server, is tested in reporter-notices/delivery.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '../jobs/plugin.ts';
import type { JobQueue, QueueDefinition, SendOptions } from '../reporter-notices/seams.ts';

/** Keeps the last sends (tests see what was queued) and runs handlers only when `drain` is called. */
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
        await handler(job.data, { id: `stand-in-${this.#next}`, retryCount: 0 });
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}

/** Puts `queue` in place of the app's job queue for what its routes send. */
export function installStandInQueue(app: FastifyInstance): StandInQueue {
  const queue = new StandInQueue();
  // Looked up at each send: a test may replace the stand-in's send (a queue that refuses).
  Object.assign(app.jobs, {
    send: (name: string, data: object, options?: SendOptions) => queue.send(name, data, options),
  });
  return queue;
}
