import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, storeTestEnv } from '../test/databases.ts';
import { buildTestApp, demoAccount, type TestApp } from '../test/helpers.ts';
import { until } from '../test/until.ts';
import { deadLetters, sendBack } from './dead-letters.ts';
import { DEAD_SUFFIX, JobFailure } from './plugin.ts';

const fast = { pollingIntervalSeconds: 0.5 };

describe.each(ENGINES)('jobs on $engine', ({ engine }) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const store = await storeTestEnv(engine);
    drop = store.drop;
    t = await buildTestApp({ ...store.env, JOBS_ENABLED: 'true' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('runs a sent job once, and a job sent twice under one id once', async () => {
    const seen: unknown[] = [];
    t.app.jobs.register({ name: 'test-once' }, async (data) => void seen.push(data), fast);
    const id = randomUUID();
    await t.app.jobs.send('test-once', { n: 1 }, { id });
    await t.app.jobs.send('test-once', { n: 1 }, { id });
    await t.app.jobs.send('test-once', { n: 2 });
    await until(() => seen.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
  });

  it('retries a failing job, and keeps one that fails every retry as a dead letter with a code only', async () => {
    let attempts = 0;
    t.app.jobs.register(
      { name: 'test-flaky', retryLimit: 1, retryDelaySeconds: 1, retryBackoff: false },
      async (data) => {
        attempts++;
        if ((data as { always: boolean }).always || attempts === 1) {
          throw new Error('refused for budi@example.com');
        }
      },
      fast,
    );
    await t.app.jobs.send('test-flaky', { always: false });
    await until(() => attempts >= 2);
    const boss = t.app.jobs.boss()!;
    await until(async () => (await boss.findJobs('test-flaky', { queued: true })).length === 0);

    attempts = 0;
    await t.app.jobs.send('test-flaky', { always: true });
    await until(async () => (await boss.findJobs(`test-flaky${DEAD_SUFFIX}`, { queued: true })).length === 1);
    expect(attempts).toBe(2);
    const [dead] = await boss.findJobs(`test-flaky${DEAD_SUFFIX}`, { queued: true });
    expect(dead?.data).toEqual({ always: true });
    // What pg-boss kept of the failure is the error's class, never its text (which may name someone).
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT output FROM pgboss.job WHERE name = 'test-flaky' AND state = 'failed'`);
    expect(JSON.stringify(rows)).not.toContain('budi');
    expect(t.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain('budi@example.com');
  });

  it('sends a job refused for good to its dead letters without retrying it', async () => {
    let attempts = 0;
    t.app.jobs.register(
      { name: 'test-permanent', retryLimit: 5, retryDelaySeconds: 1 },
      async () => {
        attempts++;
        throw new JobFailure('mail-rejected', false);
      },
      fast,
    );
    await t.app.jobs.send('test-permanent', { id: 7 });
    const boss = t.app.jobs.boss()!;
    await until(
      async () => (await boss.findJobs(`test-permanent${DEAD_SUFFIX}`, { queued: true })).length === 1,
    );
    expect(attempts).toBe(1);
  });
});

describe('jobs with two replicas on postgresql', () => {
  it('runs each job once, whichever replica fetches it', async () => {
    const store = await storeTestEnv('postgresql');
    const a = await buildTestApp({ ...store.env, JOBS_ENABLED: 'true' });
    const b = await buildTestApp({ ...store.env, JOBS_ENABLED: 'true' });
    try {
      const runs = new Map<number, number>();
      const handler = async (data: unknown) => {
        const n = (data as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
      };
      a.app.jobs.register({ name: 'test-shared' }, handler, { ...fast, localConcurrency: 2 });
      b.app.jobs.register({ name: 'test-shared' }, handler, { ...fast, localConcurrency: 2 });
      for (let n = 0; n < 40; n++) await (n % 2 ? a : b).app.jobs.send('test-shared', { n });
      await until(() => runs.size === 40);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await store.drop();
    }
  }, 60_000);
});

describe('jobs switched off', () => {
  it('refuses to send rather than dropping the job unseen', async () => {
    const t = await buildTestApp();
    try {
      expect(t.app.jobs.enabled).toBe(false);
      await expect(t.app.jobs.send('anything', {})).rejects.toThrow(/JOBS_ENABLED/);
    } finally {
      await t.close();
    }
  });
});

describe('dead letters with every queue of the app registered', () => {
  it('answers no such dead letter for a made-up id, whatever queues keep none', async () => {
    const t = await buildTestApp({
      JOBS_ENABLED: 'true',
      LEGACY_SERVICE_USERNAME: 'admin',
      LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
    });
    try {
      expect(await sendBack(t.app.jobs, randomUUID())).toBeNull();
      expect(await deadLetters(t.app.jobs)).toEqual([]);
    } finally {
      await t.close();
    }
  }, 30_000);
});
