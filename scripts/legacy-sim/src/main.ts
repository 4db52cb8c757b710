/**
 * CLI: `pnpm --filter @wbs/legacy-sim start`. Env: LEGACY_SIM_PORT (8081), LEGACY_SIM_HOST (127.0.0.1),
 * LEGACY_SIM_DATA_DIR (<repo>/.data/legacy-sim), LEGACY_SIM_JWT_SECRET, LEGACY_SIM_TEST_KNOBS=1,
 * LEGACY_SIM_LOG=1.
 */
import { join } from 'node:path';
import { createLegacySim } from './index.ts';

const env = process.env;
const repoRoot = join(import.meta.dirname, '..', '..', '..');
if (!env.LEGACY_SIM_JWT_SECRET)
  console.warn('legacy-sim: LEGACY_SIM_JWT_SECRET not set; tokens die with this process');

const sim = await createLegacySim({
  port: Number(env.LEGACY_SIM_PORT ?? 8081),
  host: env.LEGACY_SIM_HOST ?? '127.0.0.1',
  dataDir: env.LEGACY_SIM_DATA_DIR || join(repoRoot, '.data', 'legacy-sim'),
  ...(env.LEGACY_SIM_JWT_SECRET ? { jwtSecret: env.LEGACY_SIM_JWT_SECRET } : {}),
  testKnobs: env.LEGACY_SIM_TEST_KNOBS === '1',
  logger: env.LEGACY_SIM_LOG === '1',
});
console.log(
  `legacy-sim listening on ${sim.apiUrl}${env.LEGACY_SIM_TEST_KNOBS === '1' ? ' (test knobs on)' : ''}`,
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`legacy-sim: ${signal}, closing`);
  await sim.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
