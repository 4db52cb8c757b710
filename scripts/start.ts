/**
 * `pnpm start`: the whole system at http://localhost:8080 — legacy-sim (the embedded default
 * upstream), the gateway, and the built web app served by the gateway; and, unless SMTP_URL names a
 * real SMTP server, the development mail sink, whose page (http://127.0.0.1:8025) shows every mail
 * the gateway sends.
 *
 * Settings: the environment, then `.env` at the repository root, then `gateway/.env` (the first one
 * naming a setting wins; gateway/.env.example lists them all). Relative folders in a file are taken
 * from that file's folder. Development secrets are generated once and kept in .data/dev-secrets.json
 * (git-ignored), so sessions and demo data survive a restart. A real deployment sets SESSION_SECRET
 * and SESSION_ENCRYPTION_KEY itself and points LEGACY_API_URL at the real legacy API (no sim starts).
 *
 * No orphans: the processes of a start are recorded in .data/run/processes.json; a later start stops
 * any of them still running (a start that was killed outright), refuses ports another program holds,
 * and a process that fails while starting stops the others.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { generateSecret } from 'otplib';
import { formatLogLine } from './log-lines.ts';
import { PortInUseError, repoRoot, startSystem } from './system.ts';

type DevSecrets = {
  sessionSecret: string;
  sessionEncryptionKey: string;
  legacySimJwtSecret: string;
  /** Ed25519 seed of the filing receipts' development key (`dev1`), added to older files on start. */
  receiptSigningKey?: string;
  /** The demo accounts' TOTP secret (DEMO_TOTP_SECRET), added to older files on start. */
  demoTotpSecret?: string;
};
type Recorded = { name: string; pid: number; script: string };
type StartRecord = { owner: number; processes: Recorded[] };

const dataDir = join(repoRoot, '.data');
const processesFile = join(dataDir, 'run', 'processes.json');
const SCRIPTS: Record<string, string> = {
  'legacy-sim': 'scripts/legacy-sim/src/main.ts',
  gateway: 'gateway/src/server.ts',
  'mail-sink': 'scripts/mail-sink/main.ts',
};
const ENV_FILES = [join(repoRoot, '.env'), join(repoRoot, 'gateway', '.env')];
const FOLDER_SETTINGS = new Set(['WEB_DIST_DIR', 'STORE_DATA_DIR', 'LEGACY_SIM_DATA_DIR']);

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/** Reads the .env files into process.env without overriding what the environment already says. */
function loadEnvFiles(): string[] {
  const loaded: string[] = [];
  for (const file of ENV_FILES) {
    if (!existsSync(file)) continue;
    let values: NodeJS.Dict<string>;
    try {
      values = parseEnv(readFileSync(file, 'utf8'));
    } catch (error) {
      fail(`Cannot read ${file}: ${(error as Error).message}`);
    }
    for (const [key, value = ''] of Object.entries(values)) {
      if (process.env[key] !== undefined) continue;
      const relativeFolder =
        FOLDER_SETTINGS.has(key) && value && !isAbsolute(value) && !value.includes('://');
      process.env[key] = relativeFolder ? resolve(dirname(file), value) : value;
    }
    loaded.push(file);
  }
  return loaded;
}

/** A setting, with an empty value (as in a copied .env.example) counting as not set. */
const setting = (name: string) => process.env[name]?.trim() || undefined;

function port(name: string, fallback: number): number {
  const text = setting(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 65_535)
    fail(`${name} must be a port number from 1 to 65535 (got "${text}"). Nothing was started.`);
  return value;
}

function devSecrets(): DevSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'dev-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DevSecrets) : null;
  if (kept?.receiptSigningKey && kept.demoTotpSecret) return kept;
  const secrets: DevSecrets = {
    sessionSecret: kept?.sessionSecret ?? randomBytes(48).toString('base64url'),
    sessionEncryptionKey: kept?.sessionEncryptionKey ?? randomBytes(32).toString('base64'),
    legacySimJwtSecret: kept?.legacySimJwtSecret ?? randomBytes(48).toString('base64url'),
    receiptSigningKey: kept?.receiptSigningKey ?? randomBytes(32).toString('base64'),
    demoTotpSecret: kept?.demoTotpSecret ?? generateSecret(),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** True when `pid` is alive and runs `script` (Linux /proc; elsewhere nothing is ever stopped). */
function runs(pid: number, script: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((arg) => arg.endsWith(script));
  } catch {
    return false;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the processes an earlier start left running (it was killed before it could stop them). */
async function stopLeftovers(): Promise<void> {
  if (!existsSync(processesFile)) return;
  let recorded: StartRecord = { owner: 0, processes: [] };
  try {
    recorded = JSON.parse(readFileSync(processesFile, 'utf8')) as StartRecord;
  } catch {
    // A damaged record names nothing we can trust.
  }
  if (recorded.owner && runs(recorded.owner, 'scripts/start.ts')) {
    fail(
      `Another \`pnpm start\` of this folder is running (pid ${recorded.owner}), so nothing was started.\n` +
        'Stop it with Ctrl+C in its terminal (or `kill ' +
        recorded.owner +
        '`), then start again.',
    );
  }
  for (const { name, pid, script } of recorded.processes ?? []) {
    if (!runs(pid, script)) continue;
    console.log(`Found ${name} (pid ${pid}) still running from an earlier start; stopping it.`);
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(processesFile, { force: true });
}

const spawned: Recorded[] = [];
const record = (name: string, pid: number) => {
  spawned.push({ name, pid, script: SCRIPTS[name] ?? name });
  mkdirSync(dirname(processesFile), { recursive: true });
  writeFileSync(processesFile, JSON.stringify({ owner: process.pid, processes: spawned }, null, 2));
};

const loadedEnvFiles = loadEnvFiles();
const gatewayPort = port('PORT', 8080);
const simPort = port('LEGACY_SIM_PORT', 8081);
// Without an SMTP server of its own the gateway sends to the sink, so mails can be read in development.
const sinkPorts = setting('SMTP_URL')
  ? null
  : { smtpPort: port('MAIL_SINK_SMTP_PORT', 1025), httpPort: port('MAIL_SINK_PORT', 8025) };
// The example's LEGACY_API_URL is the sim's own address: that still means "start the sim".
const ownSimApi = [`http://127.0.0.1:${simPort}/api`, `http://localhost:${simPort}/api`];
const configuredApi = setting('LEGACY_API_URL')?.replace(/\/+$/, '');
const legacyApiUrl = configuredApi && !ownSimApi.includes(configuredApi) ? configuredApi : undefined;
const secrets = devSecrets();
const demoSecondFactor = legacyApiUrl || setting('DATABASE_URL') ? null : (secrets.demoTotpSecret ?? null);
const pretty = process.stdout.isTTY === true;
let system: Awaited<ReturnType<typeof startSystem>> | undefined;
let stoppingWith: number | undefined;

const shutdown = async (code: number) => {
  if (stoppingWith !== undefined) return;
  stoppingWith = code;
  if (system) await system.stop();
  else for (const { pid } of spawned) if (alive(pid)) process.kill(pid, 'SIGTERM');
  rmSync(processesFile, { force: true });
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

await stopLeftovers();
for (const file of loadedEnvFiles) console.log(`Settings read from ${file}`);
try {
  system = await startSystem({
    gatewayPort,
    simPort,
    ...(legacyApiUrl ? { legacyApiUrl } : {}),
    simDataDir: setting('LEGACY_SIM_DATA_DIR') ?? join(dataDir, 'legacy-sim'),
    simJwtSecret: setting('LEGACY_SIM_JWT_SECRET') ?? secrets.legacySimJwtSecret,
    sessionSecret: setting('SESSION_SECRET') ?? secrets.sessionSecret,
    sessionEncryptionKey: setting('SESSION_ENCRYPTION_KEY') ?? secrets.sessionEncryptionKey,
    webDistDir: setting('WEB_DIST_DIR') ?? join(repoRoot, 'web', 'dist'),
    ...(sinkPorts ? { mail: { sink: sinkPorts } } : {}),
    publicUrl: setting('PUBLIC_URL'),
    gatewayEnv: {
      RECEIPT_SIGNING_KEYS: setting('RECEIPT_SIGNING_KEYS') ?? `dev1:${secrets.receiptSigningKey}`,
      // Demo accounts sign in with codes of this secret (never against a real legacy API).
      ...(demoSecondFactor ? { DEMO_TOTP_SECRET: demoSecondFactor } : {}),
    },
    onOutput: (name, line) => {
      const text = formatLogLine(name, line, pretty);
      if (text !== null) console.log(text);
    },
    onSpawn: record,
    onUnexpectedExit: (name, code) => {
      console.error(`${name} stopped unexpectedly (exit ${code}); stopping the system.`);
      void shutdown(1);
    },
  });
} catch (error) {
  rmSync(processesFile, { force: true });
  if (stoppingWith !== undefined) await new Promise(() => {}); // Ctrl+C while starting: shutdown exits.
  if (error instanceof PortInUseError) {
    fail(
      `Port ${error.port} (${error.service}) is already in use by another program, so nothing was started.\n` +
        'Another `pnpm start` may still be running: stop it with Ctrl+C in its terminal, or choose other\n' +
        `ports, e.g. PORT=${gatewayPort + 10} LEGACY_SIM_PORT=${simPort + 10}` +
        (sinkPorts
          ? ` MAIL_SINK_SMTP_PORT=${sinkPorts.smtpPort + 10} MAIL_SINK_PORT=${sinkPorts.httpPort + 10}`
          : '') +
        ' pnpm start.',
    );
  }
  fail(`WBS did not start: ${(error as Error).message}. Every process it started has been stopped.`);
}
console.log(
  `\nWBS is running at ${system.url}  (Ctrl+C to stop)\n` +
    (system.mailSink
      ? `Mails the gateway sends (nothing leaves this machine): ${system.mailSink.url}\n`
      : `Mails go to the SMTP server of SMTP_URL.\n`) +
    (demoSecondFactor
      ? `Demo accounts (README) ask for a second factor: add the TOTP secret ${demoSecondFactor} to an\n` +
        'authenticator app, or print the current code with `pnpm demo:code` (development only).\n'
      : ''),
);
