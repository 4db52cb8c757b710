import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, costTable, featureCosts, featureOf, fileOf, readProfile } from './cpu-features.ts';

const pnpm = 'file:///repo/node_modules/.pnpm';
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
});

/**
 * root ─ (garbage collector) 2
 *      ├ (idle) 3
 *      ├ fastify hook 4 ─ clocksOfRows 5 ─ native 6
 *      │                └ anonymous validator (no file) 7
 *      ├ node:net 8 ─ writev (native) 9
 *      └ a bench script's own frame 10
 */
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', '', [2, 3, 4, 8, 10]),
    frame(2, '(garbage collector)', ''),
    frame(3, '(idle)', ''),
    frame(4, 'hookRunner', `${pnpm}/fastify@5.12.8/node_modules/fastify/lib/hooks.js`, [5, 7]),
    frame(5, 'clocksOfRows', 'file:///repo/gateway/src/clocks/service.ts', [6]),
    frame(6, 'Map.get', ''),
    frame(7, 'validate9', ''),
    frame(8, 'writeGeneric', 'node:net', [9]),
    frame(9, 'writev', ''),
    frame(10, 'main', 'file:///repo/scripts/bench/run.ts'),
  ],
  startTime: 1_000,
  // Sample i is taken at 1,000 + the sum of the deltas up to it and stands until the next one.
  samples: [2, 6, 7, 9, 3, 10, 5, 6],
  timeDeltas: [0, 10, 20, 30, 40, 50, 60, 70],
};

describe('feature costs of a CPU profile', () => {
  it('reads files of the repository and of packages installed by pnpm', () => {
    expect(fileOf(`${pnpm}/undici@8.12.4/node_modules/undici/lib/core/util.js`)).toBe(
      'undici/lib/core/util.js',
    );
    expect(fileOf(`${pnpm}/@prometheus-io+client@1.0.0/node_modules/@prometheus-io/client/lib/h.js`)).toBe(
      '@prometheus-io/client/lib/h.js',
    );
    expect(fileOf('file:///work/main/gateway/src/csrf.ts')).toBe('gateway/src/csrf.ts');
    expect(fileOf('node:net')).toBe('node:net');
    expect(featureOf('gateway/src/legacy/client.ts')).toBe('legacy call: request, read, parse');
    expect(featureOf('gateway/src/legacy/fast-check.ts')).toBe("legacy reply's check and mapping");
    expect(featureOf('gateway/bench/minimal-bff.ts')).toBe('legacy call: request, read, parse');
    expect(featureOf('scripts/bench/run.ts')).toBeNull();
  });

  it('charges each busy sample to the first feature up its stack, within the windows only', () => {
    const { byFeature, busyUs } = featureCosts(profile, [{ fromUs: 1_000, toUs: 1_300 }]);
    expect(Object.fromEntries(byFeature)).toEqual({
      '(garbage collector)': 10,
      // The native under clocksOfRows (twice) is the clocks' cost; the file-less validator the caller's.
      'handling clocks, unread marks': 20 + 70,
      Fastify: 30,
      'Node: HTTP, sockets, streams, timers': 40,
      'other code': 60,
    });
    // The idle sample is not busy; the last sample (at 1,280) stands for nothing: no next sample.
    expect(busyUs).toBe(10 + 20 + 30 + 40 + 60 + 70);
  });

  it('leaves out samples outside every window', () => {
    const { byFeature, busyUs } = featureCosts(profile, [
      { fromUs: 1_000, toUs: 1_020 },
      { fromUs: 1_150, toUs: 1_211 },
    ]);
    // Samples at 1,000 and 1,010 (GC, clocks), then at 1,150 (other code) and 1,210 (clocks).
    expect(Object.fromEntries(byFeature)).toEqual({
      '(garbage collector)': 10,
      'handling clocks, unread marks': 20 + 70,
      'other code': 60,
    });
    expect(busyUs).toBe(160);
  });

  it('prints µs per request and shares, a dash where a target has no such cost', () => {
    const table = costTable([
      { name: 'a', costs: { byFeature: new Map([['metrics', 30]]), busyUs: 60 }, requests: 3 },
      {
        name: 'b',
        costs: {
          byFeature: new Map([
            ['metrics', 10],
            ['session', 50],
          ]),
          busyUs: 100,
        },
        requests: 2,
      },
    ]).split('\n');
    expect(table[0]).toBe('| feature | a: µs/req (share) | b: µs/req (share) |');
    expect(table[2]).toBe('| session | — | 25.0 (50.0 %) |');
    expect(table[3]).toBe('| metrics | 10.0 (50.0 %) | 5.0 (10.0 %) |');
    expect(table[4]).toBe('| **total, profiled** | **20** | **50** |');
  });

  it("reads the profile of the process asked for, not another run's left in the same folder", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wbs-cpu-features-'));
    try {
      writeFileSync(join(dir, 'CPU.20261128.184229.9442.0.001.cpuprofile'), JSON.stringify(profile));
      writeFileSync(
        join(dir, 'CPU.20261128.190001.19442.0.001.cpuprofile'),
        JSON.stringify({ ...profile, startTime: 5 }),
      );
      expect(readProfile(dir, 9442).startTime).toBe(1_000);
      expect(readProfile(dir, 19442).startTime).toBe(5);
      expect(() => readProfile(dir, 944)).toThrow('expected one profile of process 944, found 0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
