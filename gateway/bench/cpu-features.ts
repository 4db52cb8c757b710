/**
 * Where a target's CPU goes, feature by feature: the floor benchmark's cost list
 * (docs/adr/0044-floor-benchmark-yardsticks.md). Reads a V8 CPU profile (`--cpu-prof`) and charges each
 * sample taken inside the benchmark's own measuring windows to the first frame up its stack whose file
 * belongs to a feature (natives and runtime code are charged to whoever called them). Under the
 * profiler every figure is inflated; the shares, and the two targets set side by side, are what to read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type CallFrame = { functionName: string; url: string };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
/** The parts of a `.cpuprofile` read here; times in µs of the monotonic clock (process.hrtime). */
export type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};
/** A measuring window, µs of the monotonic clock (`process.hrtime.bigint() / 1000n`). */
export type Window = { fromUs: number; toUs: number };

/**
 * Files (repository paths, or package names under node_modules) → the feature they serve. The first
 * rule a frame matches wins; a frame matching none is looked past.
 */
export const FEATURE_RULES: readonly (readonly [RegExp, string])[] = [
  [
    /^gateway\/src\/(clocks\/|store\/case-binding)|^shared\/src\/handling-clock/,
    'handling clocks, unread marks',
  ],
  [/^gateway\/src\/(logging|log-batch)\.ts|^pino\/|^sonic-boom\//, 'request and ops logging'],
  [/^gateway\/src\/metrics\.ts|^fastify-metrics\/|^@prometheus-io\//, 'metrics'],
  [/^gateway\/src\/session\//, 'session'],
  [/^gateway\/src\/csrf\.ts/, 'CSRF'],
  [/^gateway\/src\/policies\//, 'policies, scope, flood limits'],
  [/^gateway\/src\/security-headers\.ts/, 'security headers'],
  [/^gateway\/src\/schema\.ts|^valibot\/|^shared\/src\/(api\/|dates)/, 'request validation'],
  [/^gateway\/src\/legacy\/(?!client)/, "legacy reply's check and mapping"],
  [
    /^gateway\/src\/legacy\/client|^gateway\/bench\/minimal-bff|^undici\//,
    'legacy call: request, read, parse',
  ],
  [/^gateway\/src\/routes\//, 'route handler'],
  [/^gateway\/src\/presenters\/|^fast-json-stringify\//, 'presenter, serialiser'],
  [
    /^gateway\/src\/(jobs|store|audit|case-index|notifications|retention)\/|^gateway\/src\/redis|^(pg|pg-boss|pg-protocol|pg-pool|drizzle-orm|ioredis|@electric-sql)\//,
    'store, jobs, Redis (incl. background)',
  ],
  [/^gateway\/src\//, 'other app plumbing'],
  [/^(fastify|find-my-way|avvio|secure-json-parse|fast-querystring|@fastify\/[^/]+)\//, 'Fastify'],
  [/^node:/, 'Node: HTTP, sockets, streams, timers'],
];

/** A frame's file as a repository path or a package path (`undici/lib/…`); '' for natives. */
export function fileOf(url: string): string {
  const pkg = /.*\/node_modules\/(?!\.pnpm\/)((?:@[^/]+\/)?.*)$/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(gateway|shared|scripts)\/(.*)$/.exec(url.replace(/^file:\/\//, ''));
  if (own) return `${own[1]}/${own[2]}`;
  return url;
}

export function featureOf(file: string): string | null {
  for (const [pattern, feature] of FEATURE_RULES) if (pattern.test(file)) return feature;
  return null;
}

/** µs of busy samples per feature within `windows` (idle samples left out), and their sum. */
export function featureCosts(
  profile: CpuProfile,
  windows: readonly Window[],
): { byFeature: Map<string, number>; busyUs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const rootId = profile.nodes[0]?.id;
  const featureOfNode = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = featureOfNode.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id)!.callFrame;
    const parent = parentOf.get(id);
    let feature = featureOf(fileOf(frame.url));
    if (feature === null && (parent === undefined || parent === rootId)) {
      // Nothing up the stack belongs to a feature: V8's own work (GC, compiling) is named after itself.
      feature = /^\(.+\)$/.test(frame.functionName) ? frame.functionName : 'other code';
    }
    feature ??= resolve(parent!);
    featureOfNode.set(id, feature);
    return feature;
  };
  const byFeature = new Map<string, number>();
  let busyUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    // A sample stands for the time until the next one.
    const spent = profile.timeDeltas[i + 1] ?? 0;
    if (!windows.some((w) => at >= w.fromUs && at < w.toUs)) continue;
    const id = profile.samples[i]!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const feature = resolve(id);
    byFeature.set(feature, (byFeature.get(feature) ?? 0) + spent);
    busyUs += spent;
  }
  return { byFeature, busyUs };
}

/**
 * The profile process `pid` wrote into `dir` (BENCH_PROFILE_DIR/<target>). Node names each file
 * `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`: a folder kept from an earlier run holds other
 * processes' profiles too.
 */
export function readProfile(dir: string, pid: number): CpuProfile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
  if (files.length !== 1)
    throw new Error(`${dir}: expected one profile of process ${pid}, found ${files.length}`);
  return JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as CpuProfile;
}

/** Now on the profile's clock (µs). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * A markdown table: each feature's µs per answered request in each target, and its share of the
 * target's busy time. `targets`: name → costs and the requests answered in the windows.
 */
export function costTable(
  targets: readonly { name: string; costs: ReturnType<typeof featureCosts>; requests: number }[],
): string {
  const features = new Map<string, number>();
  for (const t of targets)
    for (const [f, us] of t.costs.byFeature) features.set(f, Math.max(features.get(f) ?? 0, us / t.requests));
  const order = [...features].sort((a, b) => b[1] - a[1]).map(([f]) => f);
  const cell = (t: (typeof targets)[number], us: number | undefined) =>
    us === undefined
      ? '—'
      : `${(us / t.requests).toFixed(1)} (${((100 * us) / t.costs.busyUs).toFixed(1)} %)`;
  return [
    `| feature | ${targets.map((t) => `${t.name}: µs/req (share)`).join(' | ')} |`,
    `|---|${targets.map(() => '---:').join('|')}|`,
    ...order.map((f) => `| ${f} | ${targets.map((t) => cell(t, t.costs.byFeature.get(f))).join(' | ')} |`),
    `| **total, profiled** | ${targets.map((t) => `**${(t.costs.busyUs / t.requests).toFixed(0)}**`).join(' | ')} |`,
  ].join('\n');
}
