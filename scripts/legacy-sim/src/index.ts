/**
 * legacy-sim: a faithful stand-in of the legacy WBS HTTP API. It trusts the identity in the token
 * and enforces NO role or scope rules — like the legacy it plays. The gateway must enforce them.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Knobs } from './knobs.ts';
import { type GenerateCases, generateCases } from './seed/generate.ts';
import { loadRegions } from './seed/regions.ts';
import { seed } from './seed/seed.ts';
import { Store } from './store/store.ts';
import type { Case } from './types.ts';

export type { Knobs } from './knobs.ts';
export { EXPORT_HEADERS } from './routes/export.ts';
export {
  type DemoAccount,
  demoAccounts,
  demoCases,
  retiredDemoCase,
  untouchedDemoCase,
} from './seed/demo-accounts.ts';
export type { GenerateCases } from './seed/generate.ts';
export { MAP_DEMO_CASES, SEED_CASE_COUNT, SEED_STATUS, SEED_STATUSES } from './seed/seed.ts';

export type LegacySimOptions = {
  /** Where store.json and files/ live; null (the default) = in memory only. */
  dataDir?: string | null;
  /** 0 (the default) = a random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** HS256 secret of the issued tokens; random per instance when absent. */
  jwtSecret?: string;
  /** Token lifetime; default 8 hours. */
  tokenTtlSeconds?: number;
  /** Enables POST /__sim/knobs and POST /__sim/reset (404 otherwise). */
  testKnobs?: boolean;
  /** Fastify request logging (never bodies); default off. */
  logger?: boolean;
  /** Where store problems (reseeding) are reported; default console.warn. */
  log?: (message: string) => void;
  /**
   * The instant a fresh seed treats as "now" (every demo date is fixed relative to it: WBS-10000001
   * filed a day before, the map demo in its WIB month). Read at every (re)seed; default the wall clock.
   * Tests that assert seed dates read it back from `seededAt()` instead of reading the clock again.
   */
  seedClock?: () => number;
};

export type LegacySim = {
  app: FastifyInstance;
  /** Origin, e.g. http://127.0.0.1:8081 (the legacy API base is `${url}/api`). */
  url: string;
  /** `${url}/api`. */
  apiUrl: string;
  port: number;
  setKnobs(knobs: Knobs): void;
  /** Back to the seed data; clears knobs and revoked tokens. */
  reset(): Promise<void>;
  /** Adds generated cases (scale runs; seed/generate.ts); answers their ids. */
  addCases(options: GenerateCases): Promise<number[]>;
  /**
   * Every case as the simulator holds it (read only): tests computing figures independently of the
   * gateway compare them with its replies.
   */
  cases(): readonly Readonly<Case>[];
  /** The seed clock's instant (epoch ms) of the data now held: its dates were placed relative to it. */
  seededAt(): number;
  close(): Promise<void>;
};

export async function createLegacySim(options: LegacySimOptions = {}): Promise<LegacySim> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const seedClock = options.seedClock ?? Date.now;
  const store = await Store.open(options.dataDir ?? null, (files) => seed(files, seedClock()), log);
  let knobs: Knobs = {};
  const resetAll = async () => {
    knobs = {};
    await store.reseed();
  };
  const { app, ctx } = await buildApp({
    store,
    regions: loadRegions(),
    jwtSecret: options.jwtSecret ?? randomBytes(32).toString('base64url'),
    tokenTtlSeconds: options.tokenTtlSeconds ?? 8 * 3600,
    testKnobs: options.testKnobs ?? false,
    logger: options.logger ?? false,
    knobs: {
      get: () => knobs,
      set: (next) => {
        knobs = { ...next };
      },
      reset: resetAll,
    },
  });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed = false;
  return {
    app,
    url,
    apiUrl: `${url}/api`,
    port,
    setKnobs(next) {
      knobs = { ...next };
    },
    async reset() {
      ctx.revoked.clear();
      await resetAll();
    },
    addCases: (generate) => generateCases(store, generate),
    cases: () => store.cases.all(),
    seededAt: () => Date.parse(store.seededAt),
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await store.flush();
    },
  };
}
