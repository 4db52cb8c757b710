import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

/** A write that records each run it was given and can be made to fail on a poisoned item. */
function recordingWrite() {
  const runs: number[][] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const write = async (items: number[]) => {
    runs.push(items);
    // The first run stays in flight until released: everything submitted meanwhile must wait.
    if (runs.length === 1) await released;
    if (items.includes(-1)) throw new Error('run failed');
    return items.map((n) => n * 10);
  };
  return { runs, write, release };
}

describe('group commit', () => {
  it('groups what arrives while a write is in flight into the next write, in order', async () => {
    const { runs, write, release } = recordingWrite();
    const group = new GroupCommit(write, 100);
    const first = group.submit(1);
    await Promise.resolve();
    await Promise.resolve();
    const later = [2, 3, 4].map((n) => group.submit(n));
    release();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('refuses every item of a failing write, and only those', async () => {
    const { runs, write, release } = recordingWrite();
    const group = new GroupCommit(write, 100);
    const first = group.submit(1);
    await Promise.resolve();
    await Promise.resolve();
    const doomed = [5, -1, 6].map((n) => group.submit(n));
    release();
    expect(await first).toBe(10);
    const settled = await Promise.allSettled(doomed);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await group.submit(7)).toBe(70);
    expect(runs).toEqual([[1], [5, -1, 6], [7]]);
  });

  it('splits a long queue into runs of at most maxRun items', async () => {
    const { runs, write, release } = recordingWrite();
    const group = new GroupCommit(write, 2);
    const all = [1, 2, 3, 4, 5].map((n) => group.submit(n));
    release();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });
});
