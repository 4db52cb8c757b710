/**
 * `pnpm start`: the whole system at http://localhost:8080 — legacy-sim (the embedded default
 * upstream), the gateway, and the built web app served by the gateway.
 *
 * Development secrets are generated once and kept in .data/dev-secrets.json (git-ignored), so
 * sessions and demo data survive a restart. A real deployment sets SESSION_SECRET and
 * SESSION_ENCRYPTION_KEY itself and points LEGACY_API_URL at the real legacy API (no sim starts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startSystem } from './system.ts';

type DevSecrets = {
  sessionSecret: string;
  sessionEncryptionKey: string;
  legacySimJwtSecret: string;
  /** Ed25519 seed of the filing receipts' development key (`dev1`), added to older files on start. */
  receiptSigningKey?: string;
};

const dataDir = join(repoRoot, '.data');

function devSecrets(): DevSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'dev-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DevSecrets) : null;
  if (kept?.receiptSigningKey) return kept;
  const secrets: DevSecrets = {
    sessionSecret: kept?.sessionSecret ?? randomBytes(48).toString('base64url'),
    sessionEncryptionKey: kept?.sessionEncryptionKey ?? randomBytes(32).toString('base64'),
    legacySimJwtSecret: kept?.legacySimJwtSecret ?? randomBytes(48).toString('base64url'),
    receiptSigningKey: randomBytes(32).toString('base64'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const secrets = devSecrets();
const env = process.env;
let system: Awaited<ReturnType<typeof startSystem>> | undefined;

const shutdown = async (code: number) => {
  await system?.stop();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

system = await startSystem({
  gatewayPort: Number(env.PORT ?? 8080),
  simPort: Number(env.LEGACY_SIM_PORT ?? 8081),
  ...(env.LEGACY_API_URL ? { legacyApiUrl: env.LEGACY_API_URL } : {}),
  simDataDir: env.LEGACY_SIM_DATA_DIR ?? join(dataDir, 'legacy-sim'),
  simJwtSecret: env.LEGACY_SIM_JWT_SECRET ?? secrets.legacySimJwtSecret,
  sessionSecret: env.SESSION_SECRET ?? secrets.sessionSecret,
  sessionEncryptionKey: env.SESSION_ENCRYPTION_KEY ?? secrets.sessionEncryptionKey,
  webDistDir: env.WEB_DIST_DIR ?? join(repoRoot, 'web', 'dist'),
  gatewayEnv: { RECEIPT_SIGNING_KEYS: env.RECEIPT_SIGNING_KEYS ?? `dev1:${secrets.receiptSigningKey}` },
  onUnexpectedExit: (name, code) => {
    console.error(`${name} stopped unexpectedly (exit ${code}); stopping the system.`);
    void shutdown(1);
  },
});
console.log(`\nWBS is running at ${system.url}  (Ctrl+C to stop)\n`);
