/**
 * Gateway settings, read from the environment once and validated at start-up. A wrong or missing
 * value stops the process with a message naming the variable (never echoing a secret).
 */
import { hkdfSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  ACK_DAYS_RANGE,
  DEFAULT_ACK_DAYS,
  DEFAULT_FEEDBACK_MONTHS,
  FEEDBACK_MONTHS_RANGE,
  type HandlingDeadlines,
} from '@wbs/shared/handling-clock';
import { DEFAULT_RETENTION_MONTHS, RETENTION_MONTHS_RANGE } from '@wbs/shared/retention';
import * as v from 'valibot';
import { type MailSettings, mailFrom, publicUrl, smtpServer } from './mail/settings.ts';
import { derivedReceiptKey, parseReceiptKeys, type ReceiptKey } from './receipts/keys.ts';
import { parseKeyRing, type StoreKey } from './store/keyring.ts';

/** One TRUST_PROXY entry: an IP address, a CIDR, or a proxy-addr name (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string): boolean {
  const text = entry.trim();
  if (['loopback', 'linklocal', 'uniquelocal'].includes(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const boolString = (name: string, fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform((value) => value.trim().toLowerCase()),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no', ''], `${name} must be true or false`),
    v.transform((value) => (value === '' ? fallback : ['true', '1', 'yes'].includes(value))),
  );

const intString = (name: string, fallback: number, min: number, max: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform((value) => (value.trim() === '' ? String(fallback) : value.trim())),
    v.regex(/^\d+$/, `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((value) => (value?.trim() ? value.trim() : undefined)),
);

const envSchema = v.object({
  LEGACY_API_URL: v.pipe(
    v.optional(v.string(), 'http://127.0.0.1:8081/api'),
    v.url('LEGACY_API_URL must be an absolute http(s) URL'),
    v.regex(/^https?:\/\//, 'LEGACY_API_URL must be an absolute http(s) URL'),
    v.transform((value) => value.replace(/\/+$/, '')),
  ),
  LEGACY_TIMEOUT_MS: intString('LEGACY_TIMEOUT_MS', 10_000, 50, 300_000),
  /** The gateway's own legacy account, used only to add a proven tracker's evidence (Tambah Bukti). */
  LEGACY_SERVICE_USERNAME: optionalText,
  LEGACY_SERVICE_PASSWORD: optionalText,
  PORT: intString('PORT', 8080, 0, 65_535),
  HOST: v.pipe(
    v.optional(v.string(), '127.0.0.1'),
    v.transform((value) => value.trim() || '127.0.0.1'),
  ),
  // Fastify 5 (proxy-addr) ignores X-Forwarded-* entirely for a hop count (verified on 5.12.8: the
  // client address, protocol and host all stay the proxy's), so a number is refused rather than
  // silently trusting nothing. Addresses, CIDRs and proxy-addr's names are checked one by one.
  TRUST_PROXY: v.pipe(
    v.optional(v.string(), 'false'),
    v.transform((value) => value.trim()),
    v.check(
      (text) => !/^\d+$/.test(text) || text === '0',
      'TRUST_PROXY as a hop count is ignored by Fastify 5: name the proxy instead (addresses or CIDRs such as 10.0.0.5,10.1.0.0/16, loopback, or true)',
    ),
    v.check(
      (text) =>
        ['', 'true', 'false', '0'].includes(text.toLowerCase()) || text.split(',').every(isProxyAddress),
      'TRUST_PROXY must be true, false, or comma-separated proxy addresses/CIDRs (e.g. 10.0.0.5,10.1.0.0/16, loopback)',
    ),
    v.transform((text): boolean | string => {
      const lower = text.toLowerCase();
      if (lower === '' || lower === 'false' || lower === '0') return false;
      if (lower === 'true') return true;
      return text
        .split(',')
        .map((entry) => entry.trim())
        .join(',');
    }),
  ),
  SESSION_SECRET: v.pipe(
    v.optional(v.string(), ''),
    v.nonEmpty('SESSION_SECRET is required (at least 32 characters)'),
    v.minLength(32, 'SESSION_SECRET must be at least 32 characters'),
  ),
  SESSION_ENCRYPTION_KEY: v.pipe(
    v.optional(v.string(), ''),
    v.nonEmpty('SESSION_ENCRYPTION_KEY is required (32 bytes, base64)'),
    v.transform((value) => Buffer.from(value.trim(), 'base64')),
    v.check((key) => key.length === 32, 'SESSION_ENCRYPTION_KEY must be 32 bytes encoded as base64'),
  ),
  SESSION_MAX_AGE_SECONDS: intString('SESSION_MAX_AGE_SECONDS', 8 * 3600, 60, 30 * 24 * 3600),
  COOKIE_SECURE: v.pipe(
    v.optional(v.string(), 'auto'),
    v.transform((value) => value.trim().toLowerCase() || 'auto'),
    v.picklist(['auto', 'true', 'false'], 'COOKIE_SECURE must be auto, true or false'),
  ),
  WEB_DIST_DIR: optionalText,
  REDIS_URL: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || /^rediss?:\/\//.test(value),
      'REDIS_URL must start with redis:// or rediss://',
    ),
  ),
  DOCS_ENABLED: boolString('DOCS_ENABLED', false),
  JOBS_ENABLED: boolString('JOBS_ENABLED', true),
  // Development only (`pnpm start` with the bundled legacy-sim): an account that must have a second
  // factor and has none gets this TOTP secret at sign-in, so the README's demo accounts still let a
  // newcomer in. Refused beside DATABASE_URL (a deployment).
  DEMO_TOTP_SECRET: optionalText,
  // User types that must have a second factor (docs/product/second-factor.md): a comma list of 1–6,
  // or `none`. Empty means the default: turning the requirement off is never an accident.
  SECOND_FACTOR_TYPES: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => (value.trim() === '' ? '1,2,3,4,5' : value.trim().toLowerCase())),
    v.transform((value) =>
      value === 'none'
        ? []
        : value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== ''),
    ),
    v.check(
      (parts) => parts.every((part) => /^[1-6]$/.test(part)),
      'SECOND_FACTOR_TYPES must be a comma list of user types 1 to 6 (e.g. 1,2,3,4,5)',
    ),
    v.transform((parts) => [...new Set(parts.map(Number))].sort()),
  ),
  // Consecutive wrong codes (authenticator or recovery) after which an account's authenticator codes
  // are no longer accepted (docs/adr/0074-second-factor-failure-cap.md); NIST SP 800-63B allows 100.
  SECOND_FACTOR_MAX_FAILURES: intString('SECOND_FACTOR_MAX_FAILURES', 20, 3, 100),
  WATCH_INTERVAL_SECONDS: intString('WATCH_INTERVAL_SECONDS', 15, 5, 3600),
  TRACKING_MAX_PER_NUMBER: intString('TRACKING_MAX_PER_NUMBER', 5, 1, 1_000),
  TRACKING_MAX_PER_CLIENT: intString('TRACKING_MAX_PER_CLIENT', 20, 1, 100_000),
  TRACKING_WINDOW_SECONDS: intString('TRACKING_WINDOW_SECONDS', 900, 1, 86_400),
  TRACKING_FAILURE_FLOOR_MS: intString('TRACKING_FAILURE_FLOOR_MS', 1_000, 0, 30_000),
  TRACKING_BACKOFF_BASE_SECONDS: intString('TRACKING_BACKOFF_BASE_SECONDS', 60, 1, 86_400),
  TRACKING_BACKOFF_MAX_SECONDS: intString('TRACKING_BACKOFF_MAX_SECONDS', 86_400, 1, 30 * 86_400),
  SIGNIN_FREE_FAILURES: intString('SIGNIN_FREE_FAILURES', 5, 1, 1_000),
  SIGNIN_DELAY_BASE_SECONDS: intString('SIGNIN_DELAY_BASE_SECONDS', 2, 1, 3_600),
  SIGNIN_DELAY_MAX_SECONDS: intString('SIGNIN_DELAY_MAX_SECONDS', 900, 1, 86_400),
  SIGNIN_MAX_PER_USERNAME: intString('SIGNIN_MAX_PER_USERNAME', 30, 1, 100_000),
  SIGNIN_CEILING_SPACING_SECONDS: intString('SIGNIN_CEILING_SPACING_SECONDS', 10, 1, 3_600),
  SIGNIN_MAX_PER_CLIENT: intString('SIGNIN_MAX_PER_CLIENT', 100, 1, 100_000),
  SIGNIN_WINDOW_SECONDS: intString('SIGNIN_WINDOW_SECONDS', 900, 1, 86_400),
  CASE_SUBMISSIONS_MAX_PER_CLIENT: intString('CASE_SUBMISSIONS_MAX_PER_CLIENT', 10, 1, 100_000),
  CASE_SUBMISSIONS_MAX_GLOBAL: intString('CASE_SUBMISSIONS_MAX_GLOBAL', 300, 1, 1_000_000),
  CASE_SUBMISSIONS_WINDOW_SECONDS: intString('CASE_SUBMISSIONS_WINDOW_SECONDS', 900, 1, 86_400),
  CASE_LOGS_MAX_PER_CLIENT: intString('CASE_LOGS_MAX_PER_CLIENT', 60, 1, 100_000),
  CASE_LOGS_MAX_GLOBAL: intString('CASE_LOGS_MAX_GLOBAL', 1_000, 1, 1_000_000),
  CASE_LOGS_WINDOW_SECONDS: intString('CASE_LOGS_WINDOW_SECONDS', 900, 1, 86_400),
  MESSAGES_MAX_PER_CLIENT: intString('MESSAGES_MAX_PER_CLIENT', 30, 1, 100_000),
  MESSAGES_MAX_PER_CASE_SIDE: intString('MESSAGES_MAX_PER_CASE_SIDE', 20, 1, 100_000),
  MESSAGES_MAX_GLOBAL: intString('MESSAGES_MAX_GLOBAL', 2_000, 1, 1_000_000),
  MESSAGES_WINDOW_SECONDS: intString('MESSAGES_WINDOW_SECONDS', 900, 1, 86_400),
  SIGNIN_FAILURE_FLOOR_MS: intString('SIGNIN_FAILURE_FLOOR_MS', 250, 0, 30_000),
  FORGOT_MAX_PER_EMAIL: intString('FORGOT_MAX_PER_EMAIL', 5, 1, 1_000),
  FORGOT_MAX_PER_CLIENT: intString('FORGOT_MAX_PER_CLIENT', 30, 1, 100_000),
  RATE_LIMIT_NAMESPACE: v.pipe(
    v.optional(v.string(), 'limits'),
    v.transform((value) => value.trim() || 'limits'),
    v.regex(/^[\w:.-]{1,64}$/, 'RATE_LIMIT_NAMESPACE must be 1-64 letters, digits, _ : . -'),
  ),
  DATABASE_URL: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
      'DATABASE_URL must start with postgres:// or postgresql://',
    ),
  ),
  STORE_DATA_DIR: optionalText,
  STORE_ENCRYPTION_KEYS: optionalText,
  RECEIPT_SIGNING_KEYS: optionalText,
  UPLOAD_MAX_SPOOLS: intString('UPLOAD_MAX_SPOOLS', 24, 1, 10_000),
  // A client's share of them: one report's five files at once and its submission.
  UPLOAD_MAX_SPOOLS_PER_CLIENT: intString('UPLOAD_MAX_SPOOLS_PER_CLIENT', 6, 1, 10_000),
  UPLOAD_IDLE_TIMEOUT_MS: intString('UPLOAD_IDLE_TIMEOUT_MS', 30_000, 100, 600_000),
  // Resumable uploads' drafts: a folder every replica sees (docs/adr/0066-resumable-evidence-uploads.md).
  UPLOAD_DRAFTS_DIR: optionalText,
  UPLOAD_DRAFTS_MAX_PER_CLIENT: intString('UPLOAD_DRAFTS_MAX_PER_CLIENT', 20, 1, 100_000),
  UPLOAD_DRAFTS_MAX_GLOBAL: intString('UPLOAD_DRAFTS_MAX_GLOBAL', 600, 1, 1_000_000),
  UPLOAD_DRAFTS_WINDOW_SECONDS: intString('UPLOAD_DRAFTS_WINDOW_SECONDS', 900, 1, 86_400),
  // One by default, whatever the cores: each thread holds ~65 MB while it scrubs a 10 MB PDF, and with
  // GATEWAY_WORKERS every gateway process has a pool of its own
  // (docs/adr/0011-metadata-scrubbing-in-a-worker-pool.md).
  SCRUB_THREADS: intString('SCRUB_THREADS', 1, 0, 64),
  // A file's work is bounded by the CPU time of its scrub thread; the wall time only by a far larger
  // bound, past which the server was too busy to finish (503), never the file too heavy
  // (docs/adr/0078-scrub-bounded-by-its-work.md).
  SCRUB_CPU_MS: intString('SCRUB_CPU_MS', 15_000, 1, 600_000),
  SCRUB_TIMEOUT_MS: intString('SCRUB_TIMEOUT_MS', 60_000, 1, 3_600_000),
  SCRUB_MEMORY_MB: intString('SCRUB_MEMORY_MB', 256, 16, 16_384),
  SCRUB_MAX_WAITING: intString('SCRUB_MAX_WAITING', 30, 0, 10_000),
  GATEWAY_WORKERS: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => value.trim()),
    v.regex(/^(\d{1,3})?$/, 'GATEWAY_WORKERS must be a whole number'),
    v.transform((value) => (value === '' ? undefined : Number(value))),
    v.check((value) => value === undefined || (value >= 1 && value <= 256), 'GATEWAY_WORKERS must be 1-256'),
  ),
  METRICS_PORT: intString('METRICS_PORT', 9464, 0, 65_535),
  METRICS_HOST: v.pipe(
    v.optional(v.string(), '127.0.0.1'),
    v.transform((value) => value.trim() || '127.0.0.1'),
  ),
  REFERENCE_CACHE_SECONDS: intString('REFERENCE_CACHE_SECONDS', 60, 0, 86_400),
  HANDLING_ACK_DAYS: intString('HANDLING_ACK_DAYS', DEFAULT_ACK_DAYS, ACK_DAYS_RANGE.min, ACK_DAYS_RANGE.max),
  HANDLING_FEEDBACK_MONTHS: intString(
    'HANDLING_FEEDBACK_MONTHS',
    DEFAULT_FEEDBACK_MONTHS,
    FEEDBACK_MONTHS_RANGE.min,
    FEEDBACK_MONTHS_RANGE.max,
  ),
  RETENTION_MONTHS: intString(
    'RETENTION_MONTHS',
    DEFAULT_RETENTION_MONTHS,
    RETENTION_MONTHS_RANGE.min,
    RETENTION_MONTHS_RANGE.max,
  ),
  // Checked in mail/settings.ts: the URL may hold a password, so no message may echo it.
  SMTP_URL: optionalText,
  SMTP_CA_FILE: optionalText,
  SMTP_TIMEOUT_MS: intString('SMTP_TIMEOUT_MS', 30_000, 100, 600_000),
  MAIL_RETRY_DELAY_SECONDS: intString('MAIL_RETRY_DELAY_SECONDS', 30, 1, 3_600),
  MAIL_RETRY_MAX_DELAY_SECONDS: intString('MAIL_RETRY_MAX_DELAY_SECONDS', 120, 1, 3_600),
  // After a handler's mail of a kind and company, the next of the same waits this long (ADR 0077).
  NOTICE_MAIL_WINDOW_SECONDS: intString('NOTICE_MAIL_WINDOW_SECONDS', 900, 0, 24 * 3600),
  MAIL_FROM: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => value.trim() || 'WBS <no-reply@wbs.invalid>'),
  ),
  PUBLIC_URL: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => value.trim() || 'http://localhost:8080'),
  ),
  LOG_LEVEL: v.pipe(
    v.optional(v.string(), 'info'),
    v.transform((value) => value.trim().toLowerCase() || 'info'),
    v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`),
  ),
});

export type Config = {
  legacyApiUrl: string;
  legacyTimeoutMs: number;
  /** Legacy account for the tracker's Tambah Bukti (the legacy call needs a token); null: unavailable. */
  legacyService: { username: string; password: string } | null;
  port: number;
  host: string;
  trustProxy: boolean | string;
  sessionSecret: string;
  sessionEncryptionKey: Buffer;
  sessionMaxAgeSeconds: number;
  cookieSecure: 'auto' | 'true' | 'false';
  webDistDir: string | undefined;
  redisUrl: string | undefined;
  docsEnabled: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Worker processes (node:cluster) sharing the port. Default: every core when Redis (sessions,
   * limits) and PostgreSQL (the store) are shared; else 1, as the registry, the limits and the
   * embedded store live in one process's memory (docs/adr/0026-gateway-workers.md).
   */
  workers: number;
  /** Prometheus listener (never the public port); port 0 turns it off. */
  metrics: { port: number; host: string };
  /** How long reference lists (statuses, categories, …) are reused; 0 turns the cache off. */
  referenceCacheSeconds: number;
  /** The group's handling deadlines (a company may have its own, in the store):
   * docs/product/handling.md#handling-clocks. */
  handlingDeadlines: HandlingDeadlines;
  /**
   * The group's retention period in months, counted from the day a case reached a final status (a
   * company may have its own, in the store): docs/product/retention.md.
   */
  retentionMonths: number;
  /** Failure limits of the tracker routes (per complaint number and per client) and their failure floor. */
  tracking: TrackingSettings;
  /** Sign-in limits (docs/adr/0008-sign-in-limits-and-device-token.md); the current-password check uses the
   * back-off too. */
  signIn: SignInSettings;
  /** Forgot-password requests per e-mail and per client. */
  passwordForgot: { maxPerSubject: number; maxPerClient: number; windowSeconds: number };
  /** Flood limits (per client and for everyone, per window) of POST /cases and POST /cases/{id}/logs. */
  caseSubmissions: FloodSettings;
  caseLogs: FloodSettings;
  /**
   * Messages (Pesan), also per case and side: a reporter with the case password and many addresses
   * meets the per-case limit, and never uses up the handlers' side
   * (docs/product/following-a-report.md#messages).
   */
  messages: FloodSettings & { maxPerSubject: number };
  /** Key namespace of every attempt counter (below the Redis prefix `wbs:gw:`). */
  rateLimitNamespace: string;
  /** The gateway's own store (gateway/src/store): messages, identity-access history. */
  store: StoreSettings;
  /**
   * Background jobs on the store (gateway/src/jobs, docs/adr/0059-jobs-on-pg-boss.md): off only in
   * tests and the OpenAPI writer, which never run them.
   */
  jobs: { enabled: boolean; watchIntervalSeconds: number };
  /** User types whose accounts must have a second factor (SECOND_FACTOR_TYPES). */
  secondFactorTypes: number[];
  /** Consecutive wrong codes that close an account's authenticator codes (SECOND_FACTOR_MAX_FAILURES). */
  secondFactorMaxFailures: number;
  /** Development only: the TOTP secret given to demo accounts without a factor (DEMO_TOTP_SECRET). */
  demoTotpSecret: string | null;
  /** Upload spools and metadata scrubbing (gateway/src/uploads, docs/adr/0004-spool-check-then-forward.md
   * and docs/product/reporting.md#metadata-scrubbing). */
  uploads: UploadSettings;
  /** Filing-receipt keys (gateway/src/receipts): the last one signs, all verify and are published. */
  receiptKeys: ReceiptKey[];
  /** Outgoing mail (gateway/src/mail): the SMTP server, when there is one, and the sender. */
  mail: MailSettings;
  /**
   * How handlers' mails wait out an SMTP outage: the first retry after `delaySeconds`, each later one
   * twice as long, never more than `maxDelaySeconds` (notifications/plugin.ts).
   */
  mailRetry: { delaySeconds: number; maxDelaySeconds: number };
  /**
   * Handlers' notice mails (gateway/src/notifications): after a mail of a kind and company, how long
   * the next of the same waits, so that those coming meanwhile go as one mail (0: none waits).
   */
  notices: { mailWindowSeconds: number };
  /**
   * Where users reach the product (PUBLIC_URL, no trailing slash): the base of every link a mail
   * holds, since a mail is read far from any request that could tell the gateway its own address.
   */
  publicUrl: string;
};

export type UploadSettings = {
  /** Uploads being received or processed at once; one more is answered 503 `busy`. */
  maxSpools: number;
  /** Of those, the most one client (the signed-in user, else the address) holds; one more is 503 `busy`. */
  maxSpoolsPerClient: number;
  /** A body that sends nothing for this long is cut off and its spool removed. */
  idleTimeoutMs: number;
  /**
   * Worker threads (default: one core fewer than the machine has, at least one, so the event loop
   * keeps a core; 0: the main thread, benchmark baseline only), per-file limits, files waiting.
   */
  scrub: { threads: number; cpuMs: number; timeoutMs: number; memoryMb: number; maxWaiting: number };
  /**
   * Where resumable uploads and their drafts live (UPLOAD_DRAFTS_DIR; default a folder in the temp
   * dir). With several replicas on several hosts it must be one shared folder (docs/deploy.md).
   */
  draftsDir: string | undefined;
  /** Drafts opened per client and for the whole gateway (flood limit, like case submissions). */
  drafts: FloodSettings;
};

export type FloodSettings = { maxPerClient: number; maxGlobal: number; windowSeconds: number };
export type StoreSettings = {
  /** PostgreSQL server; when absent the embedded PostgreSQL (PGlite) in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** Folder of the embedded database, or `memory://` for one held in memory (tests). */
  dataDir: string;
  /** AES-256-GCM keys by id; the last one encrypts new rows, every one still decrypts. */
  keys: StoreKey[];
};

/** `<repo>/.data/store` (git-ignored), where `pnpm start` keeps the embedded database. */
export const DEFAULT_STORE_DATA_DIR = fileURLToPath(new URL('../../.data/store', import.meta.url));

export type SignInSettings = {
  /** Failures per username + client before any wait; then waits of base, 2×base, … up to max. */
  freeFailures: number;
  delayBaseSeconds: number;
  delayMaxSeconds: number;
  /** Failures of one username from anywhere in the window, after which unknown browsers are spaced. */
  ceilingPerUsername: number;
  ceilingSpacingSeconds: number;
  /** Failures of one client across usernames in the window. */
  maxFailuresPerClient: number;
  windowSeconds: number;
  /** Every failed sign-in is answered no sooner than this (in multiples of it). */
  failureFloorMs: number;
};

export type TrackingSettings = {
  /** Failures per complaint number before the back-off starts. */
  maxPerNumber: number;
  /** First wait once the free failures are used; doubles per failure up to `backoffMaxSeconds`. */
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
  maxPerClient: number;
  windowSeconds: number;
  /** Every failed lookup is answered no sooner than this (in multiples of it), so timing tells nothing. */
  failureFloorMs: number;
};

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid gateway configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads and validates the settings; throws `ConfigError` listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = v.safeParse(envSchema, env, { abortPipeEarly: true });
  if (!result.success) {
    throw new ConfigError(
      result.issues.map((issue) => {
        const key = v.getDotPath(issue) ?? 'environment';
        return issue.message.includes(key) ? issue.message : `${key}: ${issue.message}`;
      }),
    );
  }
  const e = result.output;
  const shared = e.REDIS_URL !== undefined && e.DATABASE_URL !== undefined;
  if (e.GATEWAY_WORKERS !== undefined && e.GATEWAY_WORKERS > 1 && !shared) {
    throw new ConfigError([
      'GATEWAY_WORKERS above 1 needs REDIS_URL (sessions and limits shared by the workers) and ' +
        'DATABASE_URL (the embedded store serves one process only)',
    ]);
  }
  const mail = mailSettings(e.SMTP_URL, e.SMTP_CA_FILE, e.SMTP_TIMEOUT_MS, e.MAIL_FROM);
  const base = publicUrl(e.PUBLIC_URL);
  if (typeof base !== 'string') throw new ConfigError([`PUBLIC_URL ${base.problem}`]);
  const store = storeSettings(
    e.DATABASE_URL,
    e.STORE_DATA_DIR,
    e.STORE_ENCRYPTION_KEYS,
    e.SESSION_ENCRYPTION_KEY,
  );
  return {
    legacyApiUrl: e.LEGACY_API_URL,
    legacyTimeoutMs: e.LEGACY_TIMEOUT_MS,
    legacyService:
      e.LEGACY_SERVICE_USERNAME && e.LEGACY_SERVICE_PASSWORD
        ? { username: e.LEGACY_SERVICE_USERNAME, password: e.LEGACY_SERVICE_PASSWORD }
        : null,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    sessionSecret: e.SESSION_SECRET,
    sessionEncryptionKey: e.SESSION_ENCRYPTION_KEY,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_SECONDS,
    cookieSecure: e.COOKIE_SECURE,
    webDistDir: e.WEB_DIST_DIR,
    redisUrl: e.REDIS_URL,
    docsEnabled: e.DOCS_ENABLED,
    jobs: { enabled: e.JOBS_ENABLED, watchIntervalSeconds: e.WATCH_INTERVAL_SECONDS },
    secondFactorTypes: e.SECOND_FACTOR_TYPES,
    secondFactorMaxFailures: e.SECOND_FACTOR_MAX_FAILURES,
    demoTotpSecret: demoTotpSecret(e.DEMO_TOTP_SECRET, e.DATABASE_URL),
    logLevel: e.LOG_LEVEL,
    workers: e.GATEWAY_WORKERS ?? (shared ? availableParallelism() : 1),
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    referenceCacheSeconds: e.REFERENCE_CACHE_SECONDS,
    handlingDeadlines: { ackDays: e.HANDLING_ACK_DAYS, feedbackMonths: e.HANDLING_FEEDBACK_MONTHS },
    retentionMonths: e.RETENTION_MONTHS,
    tracking: {
      maxPerNumber: e.TRACKING_MAX_PER_NUMBER,
      maxPerClient: e.TRACKING_MAX_PER_CLIENT,
      windowSeconds: e.TRACKING_WINDOW_SECONDS,
      failureFloorMs: e.TRACKING_FAILURE_FLOOR_MS,
      backoffBaseSeconds: e.TRACKING_BACKOFF_BASE_SECONDS,
      backoffMaxSeconds: e.TRACKING_BACKOFF_MAX_SECONDS,
    },
    signIn: {
      freeFailures: e.SIGNIN_FREE_FAILURES,
      delayBaseSeconds: e.SIGNIN_DELAY_BASE_SECONDS,
      delayMaxSeconds: e.SIGNIN_DELAY_MAX_SECONDS,
      ceilingPerUsername: e.SIGNIN_MAX_PER_USERNAME,
      ceilingSpacingSeconds: e.SIGNIN_CEILING_SPACING_SECONDS,
      maxFailuresPerClient: e.SIGNIN_MAX_PER_CLIENT,
      windowSeconds: e.SIGNIN_WINDOW_SECONDS,
      failureFloorMs: e.SIGNIN_FAILURE_FLOOR_MS,
    },
    passwordForgot: {
      maxPerSubject: e.FORGOT_MAX_PER_EMAIL,
      maxPerClient: e.FORGOT_MAX_PER_CLIENT,
      windowSeconds: e.SIGNIN_WINDOW_SECONDS,
    },
    caseSubmissions: {
      maxPerClient: e.CASE_SUBMISSIONS_MAX_PER_CLIENT,
      maxGlobal: e.CASE_SUBMISSIONS_MAX_GLOBAL,
      windowSeconds: e.CASE_SUBMISSIONS_WINDOW_SECONDS,
    },
    caseLogs: {
      maxPerClient: e.CASE_LOGS_MAX_PER_CLIENT,
      maxGlobal: e.CASE_LOGS_MAX_GLOBAL,
      windowSeconds: e.CASE_LOGS_WINDOW_SECONDS,
    },
    messages: {
      maxPerClient: e.MESSAGES_MAX_PER_CLIENT,
      maxPerSubject: e.MESSAGES_MAX_PER_CASE_SIDE,
      maxGlobal: e.MESSAGES_MAX_GLOBAL,
      windowSeconds: e.MESSAGES_WINDOW_SECONDS,
    },
    rateLimitNamespace: e.RATE_LIMIT_NAMESPACE,
    store,
    receiptKeys: receiptKeys(e.RECEIPT_SIGNING_KEYS, e.SESSION_ENCRYPTION_KEY),
    mail,
    mailRetry: {
      delaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
      maxDelaySeconds: Math.max(e.MAIL_RETRY_DELAY_SECONDS, e.MAIL_RETRY_MAX_DELAY_SECONDS),
    },
    notices: { mailWindowSeconds: e.NOTICE_MAIL_WINDOW_SECONDS },
    publicUrl: base,
    uploads: {
      maxSpools: e.UPLOAD_MAX_SPOOLS,
      maxSpoolsPerClient: e.UPLOAD_MAX_SPOOLS_PER_CLIENT,
      idleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
      draftsDir: e.UPLOAD_DRAFTS_DIR,
      drafts: {
        maxPerClient: e.UPLOAD_DRAFTS_MAX_PER_CLIENT,
        maxGlobal: e.UPLOAD_DRAFTS_MAX_GLOBAL,
        windowSeconds: e.UPLOAD_DRAFTS_WINDOW_SECONDS,
      },
      scrub: {
        threads: e.SCRUB_THREADS,
        cpuMs: e.SCRUB_CPU_MS,
        timeoutMs: e.SCRUB_TIMEOUT_MS,
        memoryMb: e.SCRUB_MEMORY_MB,
        maxWaiting: e.SCRUB_MAX_WAITING,
      },
    },
  };
}

/** The SMTP server (none without SMTP_URL), its private CA when one is named, and the sender. */
function mailSettings(
  url: string | undefined,
  caFile: string | undefined,
  timeoutMs: number,
  fromText: string,
): MailSettings {
  const problems: string[] = [];
  const from = mailFrom(fromText);
  if ('problem' in from) problems.push(`MAIL_FROM ${from.problem}`);
  let ca: string | undefined;
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile, 'utf8');
      if (!ca.includes('-----BEGIN CERTIFICATE-----'))
        problems.push('SMTP_CA_FILE must be a PEM certificate file');
    } catch {
      problems.push('SMTP_CA_FILE cannot be read');
    }
    if (url === undefined) problems.push('SMTP_CA_FILE is set but SMTP_URL is not');
  }
  const smtp = url === undefined ? null : smtpServer(url, { ca, timeoutMs });
  if (smtp !== null && 'problem' in smtp) problems.push(`SMTP_URL ${smtp.problem}`);
  if (problems.length > 0 || 'problem' in from || (smtp !== null && 'problem' in smtp)) {
    throw new ConfigError(problems);
  }
  return { smtp, from };
}

/** `RECEIPT_SIGNING_KEYS` when set, else a key derived from the session key (receipts/keys.ts). */
function receiptKeys(list: string | undefined, sessionKey: Buffer): ReceiptKey[] {
  if (list === undefined) return [derivedReceiptKey(sessionKey)];
  const parsed = parseReceiptKeys(list);
  if (typeof parsed === 'string') throw new ConfigError([`RECEIPT_SIGNING_KEYS: ${parsed}`]);
  return parsed;
}

/**
 * Store keys: `STORE_ENCRYPTION_KEYS` when set. Without it, and only for the embedded database
 * (development, `pnpm start`), one key `dev` is derived from SESSION_ENCRYPTION_KEY, which
 * `pnpm start` keeps in .data/dev-secrets.json so the rows stay readable across restarts. A
 * PostgreSQL server never runs on a derived key (docs/adr/0019-store-encryption-at-rest.md).
 */
function storeSettings(
  databaseUrl: string | undefined,
  dataDir: string | undefined,
  keyList: string | undefined,
  sessionKey: Buffer,
): StoreSettings {
  const settings = { databaseUrl, dataDir: dataDir ?? DEFAULT_STORE_DATA_DIR };
  if (keyList !== undefined) {
    const parsed = parseKeyRing(keyList);
    if (typeof parsed === 'string') throw new ConfigError([`STORE_ENCRYPTION_KEYS: ${parsed}`]);
    return { ...settings, keys: parsed };
  }
  if (databaseUrl !== undefined) {
    throw new ConfigError(['STORE_ENCRYPTION_KEYS is required when DATABASE_URL is set']);
  }
  const derived = Buffer.from(hkdfSync('sha256', sessionKey, Buffer.alloc(0), 'wbs-store-dev-key', 32));
  return { ...settings, keys: [{ id: 'dev', key: derived }] };
}

/** DEMO_TOTP_SECRET: base32 of at least 16 characters, and never beside a PostgreSQL server. */
function demoTotpSecret(secret: string | undefined, databaseUrl: string | undefined): string | null {
  if (secret === undefined) return null;
  if (databaseUrl !== undefined) {
    throw new ConfigError(['DEMO_TOTP_SECRET is for development only and cannot be used with DATABASE_URL']);
  }
  if (!/^[A-Z2-7]{16,}$/.test(secret)) {
    throw new ConfigError(['DEMO_TOTP_SECRET must be base32 (A–Z, 2–7), at least 16 characters']);
  }
  return secret;
}
