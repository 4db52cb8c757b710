/**
 * The dead letters of the queues (docs/adr/0059-jobs-on-pg-boss.md): jobs that failed every retry, kept in
 * `<queue>.dead`, which the administrator lists and sends back. Their data is ids only, so the list
 * shows which queue and since when, nothing of whom a mail was for.
 */
import { DEAD_SUFFIX, type Jobs } from './plugin.ts';

export type DeadLetter = { id: string; queue: string; createdAt: Date };

/** Listed per queue, at most this many each. */
const LIST_MAX = 200;

export async function deadLetters(jobs: Jobs): Promise<DeadLetter[]> {
  const boss = jobs.boss();
  if (!boss) return [];
  const items: DeadLetter[] = [];
  for (const [name, queue] of jobs.queues()) {
    if (queue.deadLetters === false) continue;
    const found = await boss.findJobs(`${name}${DEAD_SUFFIX}`, { queued: true, limit: LIST_MAX });
    for (const job of found) items.push({ id: job.id, queue: name, createdAt: job.createdOn });
  }
  return items.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Sends a dead letter back to its queue as a new job; null when no queue holds that id. */
export async function sendBack(jobs: Jobs, id: string): Promise<string | null> {
  const boss = jobs.boss();
  if (!boss) return null;
  for (const [name, queue] of jobs.queues()) {
    if (queue.deadLetters === false) continue;
    const dead = `${name}${DEAD_SUFFIX}`;
    const [job] = await boss.findJobs(dead, { id, queued: true });
    if (!job) continue;
    await jobs.send(name, (job.data ?? {}) as object);
    await boss.deleteJob(dead, id);
    return name;
  }
  return null;
}
