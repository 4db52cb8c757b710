/**
 * Where the ten-year data set of `pnpm seed:scale` lives and what it holds: legacy-sim's data folder
 * (loaded at its start like any data folder) and a PostgreSQL database of the gateway's store, sealed
 * under a fixed benchmark key. Shared by the generator (scale-seed.ts) and `pnpm bench scale`.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');

export const SCALE_DIR = process.env.SCALE_DIR || join(repoRoot, '.data', 'scale');
export const SCALE_LEGACY_DIR = join(SCALE_DIR, 'legacy-sim');
/** PostgreSQL: a million audit records in the embedded PGlite would measure PGlite, not the gateway. */
export const SCALE_DATABASE_URL =
  process.env.SCALE_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/wbs_scale';
/** A fixed key, so the bench's gateway opens what the generator sealed (benchmark data only). */
export const SCALE_STORE_KEYS = `scale:${createHash('sha256').update('wbs-scale-bench-store-key').digest('base64')}`;
/** legacy-sim's token secret for both: the gateway's service account and the bench's own calls. */
export const SCALE_JWT_SECRET = 'wbs-scale-bench-legacy-jwt-secret';

export const SCALE_SIZE = {
  /** Reports over the three demo companies (legacy-sim's seed has three). */
  cases: Number(process.env.SCALE_CASES ?? 100_000),
  messages: Number(process.env.SCALE_MESSAGES ?? 40_000),
  auditRecords: Number(process.env.SCALE_AUDIT_RECORDS ?? 1_000_000),
  years: 10,
};

/** The generated reports' share of each company: company 1 large enough for an export of 50,000 rows. */
export const COMPANY_SHARES: [companyId: number, share: number][] = [
  [1, 0.55],
  [2, 0.25],
  [3, 0.2],
];
