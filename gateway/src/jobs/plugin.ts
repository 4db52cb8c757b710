/**
 * Background jobs on the gateway's own store (docs/adr/0059-jobs-on-pg-boss.md): pg-boss keeps its
 * queues in the store's database (the `pgboss` schema beside the store's tables), on the PostgreSQL
 * server with `DATABASE_URL` or in the embedded PGlite otherwise. So a job sent is as durable as a
 * message written, every replica works the same queues (each job runs once, whoever fetches it), a
 * schedule fires once across replicas, and nothing waits in a process's memory across a restart.
 *
 * Features register their queues while the app is built (`app.jobs.register`, `app.jobs.schedule`);
 * the queue starts when the app is ready and stops (letting running jobs finish) when it closes. A
 * job that fails is retried with back-off; one that fails every retry is copied to its queue's dead
 * letters (`<name>.dead`), which the administrator reads and sends back (jobs/dead-letters.ts).
 *
 * Job data goes into the database in clear: it holds ids only, never an address, a name or a text
 * (the mail jobs look the address up when they send). An error a job throws is kept by pg-boss, so
 * handlers throw `JobFailure` with a code, and anything else is reduced to its class name.
 */

import { Counter, Gauge } from '@prometheus-io/client';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fromPglite, PgBoss } from 'pg-boss';
import { ApiProblem } from '../errors.ts';

/** The pg-boss schema in the store's database. */
export const JOBS_SCHEMA = 'pgboss';
/** Suffix of a queue's dead letters. */
export const DEAD_SUFFIX = '.dead';

export type QueueSpec = {
  name: string;
  /** Retries after the first attempt (default 8: with back-off from 30 s that is about two hours). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Longest a retry waits, whatever the back-off says. */
  retryDelayMaxSeconds?: number;
  /** A job running longer than this counts as failed (a process that died holding it). */
  expireInSeconds?: number;
  /**
   * `stately`: at most one job queued and one running (a poller that must not run twice at once);
   * `standard`: any number.
   */
  policy?: 'standard' | 'stately';
  /** Keep failed jobs as dead letters the administrator may send back (default true). */
  deadLetters?: boolean;
};

export type WorkOptions = { pollingIntervalSeconds?: number; localConcurrency?: number };

export type SendOptions = {
  /** A UUID: sending the same id twice keeps one job (a retried producer enqueues once). */
  id?: string;
  startAfterSeconds?: number;
  singletonKey?: string;
};

/** What a job throws so that pg-boss keeps a code, never a message that might name someone. */
export class JobFailure extends Error {
  readonly code: string;
  /** False: retrying cannot help (a permanent refusal); the job goes to its dead letters at once. */
  readonly retryable: boolean;
  constructor(code: string, retryable = true) {
    super(code);
    this.name = 'JobFailure';
    this.code = code;
    this.retryable = retryable;
  }
}

export type JobHandler = (data: unknown, job: { id: string; retryCount: number }) => Promise<void>;

export type Jobs = {
  /** False in tests and tools that never run jobs (JOBS_ENABLED=false): `send` then refuses. */
  readonly enabled: boolean;
  register(queue: QueueSpec, handler: JobHandler, options?: WorkOptions): void;
  /** Sends `name` a job on a cron schedule (UTC), once across replicas. */
  schedule(name: string, cron: string, data?: object): void;
  send(name: string, data: object, options?: SendOptions): Promise<void>;
  /** The running pg-boss, for the dead-letter module and tests (null before ready or when off). */
  boss(): PgBoss | null;
  /** The queues registered, by name. */
  queues(): ReadonlyMap<string, QueueSpec>;
};

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

type Registration = { queue: QueueSpec; handler: JobHandler; options: WorkOptions };

/** What a failed attempt leaves in pg-boss: a code, never the error's own text. */
/** What the log and the job's output say of a failure: a problem's type, never its text. */
function failureCode(error: unknown): string {
  if (error instanceof JobFailure) return error.code;
  if (error instanceof ApiProblem) return `problem:${error.type}`;
  return error instanceof Error ? error.name : 'error';
}

async function createQueue(boss: PgBoss, queue: QueueSpec): Promise<void> {
  const deadLetter = queue.deadLetters === false ? undefined : `${queue.name}${DEAD_SUFFIX}`;
  if (deadLetter) {
    // Dead letters wait for the administrator, who has weeks to look: they are never worked.
    await boss.createQueue(deadLetter, {
      retentionSeconds: 60 * 24 * 3600,
      deleteAfterSeconds: 7 * 24 * 3600,
    });
  }
  const options = {
    policy: queue.policy ?? 'standard',
    retryLimit: queue.retryLimit ?? 8,
    retryDelay: queue.retryDelaySeconds ?? 30,
    retryBackoff: queue.retryBackoff ?? true,
    // pg-boss takes a ceiling only for a back-off.
    ...((queue.retryBackoff ?? true) ? { retryDelayMax: queue.retryDelayMaxSeconds ?? 3600 } : {}),
    expireInSeconds: queue.expireInSeconds ?? 300,
    // Completed jobs are kept a day (enough to see what ran), pending ones two weeks (an outage of
    // days loses nothing).
    deleteAfterSeconds: 24 * 3600,
    retentionSeconds: 14 * 24 * 3600,
    ...(deadLetter ? { deadLetter } : {}),
  };
  if (await boss.getQueue(queue.name)) {
    const { policy: _policy, deadLetter: _dead, ...updatable } = options;
    await boss.updateQueue(queue.name, updatable);
  } else {
    await boss.createQueue(queue.name, options);
  }
}

function metricsOf(app: FastifyInstance) {
  const { registry } = app.telemetry;
  return {
    done: new Counter({
      name: 'wbs_jobs_completed_total',
      help: 'Jobs that ran to completion, by queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
    failed: new Counter({
      name: 'wbs_jobs_failed_attempts_total',
      help: 'Job attempts that failed (each is retried with back-off until its dead letters), by queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
    queued: new Gauge({
      name: 'wbs_jobs_queued',
      help: 'Jobs waiting (queued or waiting for a retry), by queue',
      labelNames: ['queue'],
      registers: [registry],
      // Every worker reads the same shared queues: their sum would count each job once per worker.
      aggregator: 'max',
    }),
    dead: new Gauge({
      name: 'wbs_jobs_dead_letters',
      help: 'Jobs that failed every retry and wait for the administrator, by queue',
      labelNames: ['queue'],
      registers: [registry],
      // Every worker reads the same shared queues: their sum would count each job once per worker.
      aggregator: 'max',
    }),
    oldest: new Gauge({
      name: 'wbs_jobs_oldest_pending_seconds',
      help: 'Age of the oldest job still waiting to run, by queue (0: none)',
      labelNames: ['queue'],
      registers: [registry],
      // Every worker reads the same shared queues: their sum would count each job once per worker.
      aggregator: 'max',
    }),
  };
}

/** Refreshes the queue gauges from the database (every replica reports the same shared queues). */
async function refreshGauges(
  boss: PgBoss,
  names: readonly string[],
  gauges: ReturnType<typeof metricsOf>,
): Promise<void> {
  const queues = await boss.getQueues([...names, ...names.map((n) => `${n}${DEAD_SUFFIX}`)]);
  const byName = new Map(queues.map((q) => [q.name, q]));
  const { rows } = await boss.getDb().executeSql(
    `SELECT name, extract(epoch FROM now() - min(created_on))::float8 AS age FROM ${JOBS_SCHEMA}.job
       WHERE name = ANY($1) AND state IN ('created', 'retry') AND start_after <= now() GROUP BY name`,
    [names],
  );
  const ages = new Map<string, number>(rows.map((r: { name: string; age: number }) => [r.name, r.age]));
  for (const name of names) {
    gauges.queued.set({ queue: name }, byName.get(name)?.queuedCount ?? 0);
    gauges.dead.set({ queue: name }, byName.get(`${name}${DEAD_SUFFIX}`)?.queuedCount ?? 0);
    gauges.oldest.set({ queue: name }, Math.max(0, ages.get(name) ?? 0));
  }
}

async function openBoss(app: FastifyInstance, log: FastifyBaseLogger, databaseUrl: string | undefined) {
  const store = await app.store.open();
  const common = { schema: JOBS_SCHEMA, migrate: true, supervise: true, schedule: true } as const;
  const boss = store.embedded
    ? new PgBoss({ ...common, db: fromPglite(store.embedded), backend: 'pglite' })
    : new PgBoss({
        ...common,
        connectionString: databaseUrl as string,
        max: 4,
        application_name: 'wbs-gateway-jobs',
        useListenNotify: true,
      });
  // pg-boss reports its own trouble (a lost connection, a slow maintenance query) as events: an
  // unhandled 'error' event would end the process.
  boss.on('error', (error) => log.warn({ err: { message: error.message } }, 'jobs: queue error'));
  boss.on('warning', (warning) => log.warn({ warning: warning.message }, 'jobs: queue warning'));
  await boss.start();
  return boss;
}

export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { enabled: boolean; databaseUrl: string | undefined }) => {
    const log = app.log.child({ module: 'jobs' });
    const registrations = new Map<string, Registration>();
    const schedules: { name: string; cron: string; data: object }[] = [];
    let boss: PgBoss | null = null;
    let stopping = false;
    let settling: Promise<void> = Promise.resolve();
    let gaugeTimer: NodeJS.Timeout | undefined;
    const metrics = metricsOf(app);

    const work = async (running: PgBoss, { queue, handler, options }: Registration) => {
      await createQueue(running, queue);
      await running.work(
        queue.name,
        {
          batchSize: 1,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          localConcurrency: options.localConcurrency ?? 1,
        },
        async ([job]) => {
          if (!job) return;
          try {
            await handler(job.data, {
              id: job.id,
              retryCount: (job as { retryCount?: number }).retryCount ?? 0,
            });
            metrics.done.inc({ queue: queue.name });
          } catch (error) {
            metrics.failed.inc({ queue: queue.name });
            const code = failureCode(error);
            log.warn({ queue: queue.name, jobId: job.id, code }, 'jobs: attempt failed');
            if (error instanceof JobFailure && !error.retryable) {
              // Retrying a permanent refusal only delays the administrator's look at it: the job ends
              // here and its data waits in the dead letters at once.
              await running.send(`${queue.name}${DEAD_SUFFIX}`, job.data as object);
              return;
            }
            throw new JobFailure(code);
          }
        },
      );
    };

    app.decorate('jobs', {
      enabled: opts.enabled,
      register(queue, handler, options = {}) {
        const registration = { queue, handler, options };
        registrations.set(queue.name, registration);
        // Registered after the start (a test, a late feature): sends wait until its queue exists.
        if (boss) {
          const running = boss;
          settling = settling.then(() =>
            work(running, registration).catch((error) =>
              log.error(
                { err: { message: (error as Error).message }, queue: queue.name },
                'jobs: register failed',
              ),
            ),
          );
        }
      },
      schedule(name, cron, data = {}) {
        schedules.push({ name, cron, data });
        if (boss) {
          const running = boss;
          settling = settling.then(() =>
            running
              .schedule(name, cron, data, { tz: 'UTC' })
              .catch((error) =>
                log.error(
                  { err: { message: (error as Error).message }, queue: name },
                  'jobs: schedule failed',
                ),
              ),
          );
        }
      },
      async send(name, data, options = {}) {
        if (!boss)
          throw new Error(opts.enabled ? 'jobs not started yet' : 'jobs are off (JOBS_ENABLED=false)');
        await settling;
        await boss.send(name, data, {
          ...(options.id ? { id: options.id } : {}),
          ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
          ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        });
      },
      boss: () => boss,
      queues: () => new Map([...registrations].map(([name, r]) => [name, r.queue])),
    } satisfies Jobs);

    if (!opts.enabled) return;

    app.addHook('onReady', async () => {
      const running = await openBoss(app, log, opts.databaseUrl);
      boss = running;
      for (const registration of registrations.values()) await work(running, registration);
      for (const { name, cron, data } of schedules) await running.schedule(name, cron, data, { tz: 'UTC' });
      const refresh = () => {
        if (stopping) return;
        refreshGauges(running, [...registrations.keys()], metrics).catch((error) =>
          log.debug({ err: { message: (error as Error).message } }, 'jobs: gauges not refreshed'),
        );
      };
      refresh();
      gaugeTimer = setInterval(refresh, 15_000);
      gaugeTimer.unref();
      log.info({ queues: registrations.size, schedules: schedules.length }, 'jobs started');
    });

    // Stopping starts as the app starts closing, beside the drain of the requests in flight, and gives a
    // running job 2 s to finish: a longer one (a poll against a slow legacy) is left to run again
    // elsewhere once it expires (every job is idempotent). Awaited before the store closes (onClose
    // hooks run in reverse: this one before the store's).
    let stopped: Promise<void> = Promise.resolve();
    app.addHook('preClose', async () => {
      stopping = true;
      clearInterval(gaugeTimer);
      const running = boss;
      boss = null;
      if (running) {
        stopped = running
          .stop({ graceful: true, timeout: 2_000, close: true })
          .catch((error) => log.warn({ err: { message: (error as Error).message } }, 'jobs: stop failed'));
      }
    });
    app.addHook('onClose', async () => {
      await stopped;
    });
  },
  { name: 'wbs-jobs', dependencies: ['wbs-store', 'wbs-metrics'] },
);
