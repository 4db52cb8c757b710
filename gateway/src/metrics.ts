/**
 * Prometheus metrics (fastify-metrics 14 over @prometheus-io/client, prom-client's maintained
 * successor): request durations by route, legacy call durations and outcomes, upload and scrub
 * counters, the uploads in progress, refusals (429 rate-limited, 503 busy), hits of the contact reveal
 * limit (an alert), the case-index watcher's polls and the Node process vitals.
 *
 * Each app has its own registry (`app.telemetry.registry`), so tests may build many apps in one
 * process. It is NEVER served on the public port: `/metrics` there answers 404 like any unknown
 * path. server.ts serves it on a separate listener (METRICS_HOST:METRICS_PORT, 127.0.0.1:9464 by
 * default); with several workers the primary answers with the sum over the workers
 * (docs/adr/0028-metrics-on-a-private-port.md).
 */
import { Counter, Gauge, Histogram, Registry } from '@prometheus-io/client';
import type { FastifyInstance } from 'fastify';
import metricsModule from 'fastify-metrics';
import fp from 'fastify-plugin';
import { ApiProblem } from './errors.ts';

/**
 * What one poll of the case-index watcher tells the metrics (case-index/watcher.ts `WatchReport`
 * carries these). No company is named: the group's companies are few, but a label per company would
 * grow with it, and the oldest sweep age and the counts by state already say whether any lags.
 */
export type CasePollFigures = {
  listed: boolean;
  companies: number;
  failedCompanies: number;
  seededCompanies: number;
  legacyCalls: number;
  durationMs: number;
  events: { filed: number; routed: number; statusChanged: number };
  indexSize: number;
  oldestSweepAgeSeconds: number | null;
};

export type Telemetry = {
  registry: Registry;
  /** One finished legacy call: its stable name, what came of it and how long it took. */
  legacyCall(name: string, outcome: string, ms: number): void;
  /** One received file of an upload and what scrubbing did to it. */
  uploadFile(scrub: 'scrubbed' | 'not-scrubbed' | 'refused' | 'none'): void;
  /** Store rows of another incarnation of a case were left out of a read (store/case-binding.ts). */
  caseBindingMismatch(table: string, rows: number): void;
  /** One contact reveal refused by REVEAL_LIMITS: the caller's user type and which limit. */
  contactRevealLimitHit(userType: number | null, limit: 'per-user' | 'global'): void;
  /** One poll of the case-index watcher. */
  casePoll(figures: CasePollFigures): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: Telemetry;
  }
}

// A CommonJS build of an ES module: under Node's loader the plugin is the module object's `default`.
const fastifyMetrics = metricsModule.default ?? metricsModule;

/** Outcome labels stay few: `code 1` (etc.), `bad-reply`, `stream`, or a problem type. */
const outcomeLabel = (outcome: string) => (outcome.length > 40 ? 'other' : outcome);

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    await app.register(fastifyMetrics, {
      endpoint: null,
      name: 'routeMetrics',
      defaultMetrics: { enabled: true, register: registry },
      routeMetrics: {
        enabled: { histogram: true, summary: false },
        // Unknown paths share one label: a scanner's URLs must not become label values.
        registeredRoutesOnly: true,
        groupStatusCodes: false,
        overrides: {
          histogram: {
            registers: [registry],
            buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
          },
          summary: { registers: [registry] },
        },
      },
    });

    const legacyDuration = new Histogram({
      name: 'wbs_legacy_call_duration_seconds',
      help: 'Legacy API calls by call name and outcome (code 1/0/-1, bad-reply, stream, or a problem type)',
      labelNames: ['call', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const uploadFiles = new Counter({
      name: 'wbs_upload_files_total',
      help: 'Files received in uploads, by what metadata scrubbing did (none: a kind that carries none)',
      labelNames: ['scrub'] as const,
      registers: [registry],
    });
    // Above 0 means the legacy issued a case id the store had already seen for another case (a restored
    // legacy backup?): nothing of the earlier case was shown, but an operator should find out why.
    const bindingMismatches = new Counter({
      name: 'wbs_store_case_binding_mismatches_total',
      help: 'Store rows of an earlier case under a reissued legacy case id, left out of reads, by table',
      labelNames: ['table'] as const,
      registers: [registry],
    });
    const refusals = new Counter({
      name: 'wbs_refusals_total',
      help: 'Requests refused by a limit: 429 rate-limited or 503 busy, by route',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    });

    // A handler reveals a few contacts a day: any hit of the reveal limit is a script or a stolen
    // session harvesting reporters' contacts, worth paging on (docs/deploy.md).
    const revealLimitHits = new Counter({
      name: 'wbs_contact_reveal_limit_hits_total',
      help: 'Contact reveals refused by the reveal limits, by the caller user type and the limit (per-user, global)',
      labelNames: ['user_type', 'limit'] as const,
      registers: [registry],
    });

    // The case-index watcher (docs/adr/0058-case-index-watcher.md). Alert on the last good poll's age
    // (polls stopped or fail) and on the oldest sweep age (a company's changes are seen that late).
    const casePolls = new Counter({
      name: 'wbs_case_index_polls_total',
      help: 'Case-index polls by outcome: ok (every company read), partial (some company failed), failed (company list unread)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    const casePollCalls = new Histogram({
      name: 'wbs_case_index_poll_legacy_calls',
      help: 'Legacy calls made by one case-index poll',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers: [registry],
    });
    const casePollDuration = new Histogram({
      name: 'wbs_case_index_poll_duration_seconds',
      help: 'Duration of one case-index poll',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    const casePollLastOk = new Gauge({
      name: 'wbs_case_index_last_ok_poll_timestamp_seconds',
      help: 'When the last case-index poll that read every company ended (Unix time)',
      registers: [registry],
    });
    const caseEvents = new Counter({
      name: 'wbs_case_index_events_total',
      help: 'Case events the watcher wrote, by kind (case-filed, case-routed, status-changed)',
      labelNames: ['kind'] as const,
      registers: [registry],
    });
    const caseIndexRows = new Gauge({
      name: 'wbs_case_index_rows',
      help: 'Cases in the case index after the last poll',
      registers: [registry],
    });
    const caseIndexCompanies = new Gauge({
      name: 'wbs_case_index_companies',
      help: 'Companies by watch state after the last poll: seeded (first full sweep done), seeding, failed (last poll)',
      labelNames: ['state'] as const,
      registers: [registry],
    });
    const oldestSweepAge = new Gauge({
      name: 'wbs_case_index_oldest_sweep_age_seconds',
      help: 'Age of the oldest last full sweep among the companies at the last poll: how late a status or line change can be seen',
      registers: [registry],
    });

    // A slot that is never given back shows here as a level that does not fall between uploads
    // (at UPLOAD_MAX_SPOOLS every further upload is refused with 503 `busy`).
    new Gauge({
      name: 'wbs_upload_spools_active',
      help: 'Uploads being received, checked or sent on now; each holds one of UPLOAD_MAX_SPOOLS',
      registers: [registry],
      collect() {
        this.set(app.hasDecorator('uploads') ? app.uploads.spools.active : 0);
      },
    });

    // 0 with Redis configured means every request reads the session registry from Redis: the pub/sub
    // channel that announces ended sessions is lost or silent (docs/adr/0045-live-session-memory.md).
    new Gauge({
      name: 'wbs_session_memory_trusted',
      help: 'Whether live-session answers are kept in memory (1: its Redis channel is heard; 0: read every time)',
      registers: [registry],
      collect() {
        this.set(app.hasDecorator('sessions') && app.sessions.liveMemoryTrusted() ? 1 : 0);
      },
    });

    app.decorate('telemetry', {
      registry,
      legacyCall: (name, outcome, ms) =>
        legacyDuration.observe({ call: name, outcome: outcomeLabel(outcome) }, ms / 1000),
      uploadFile: (scrub) => uploadFiles.inc({ scrub }),
      caseBindingMismatch: (table, rows) => bindingMismatches.inc({ table }, rows),
      contactRevealLimitHit: (userType, limit) =>
        revealLimitHits.inc({ user_type: userType === null ? 'none' : String(userType), limit }),
      casePoll: (f) => {
        const outcome = !f.listed ? 'failed' : f.failedCompanies > 0 ? 'partial' : 'ok';
        casePolls.inc({ outcome });
        casePollCalls.observe(f.legacyCalls);
        casePollDuration.observe(f.durationMs / 1000);
        if (outcome === 'ok') casePollLastOk.set(Date.now() / 1000);
        caseEvents.inc({ kind: 'case-filed' }, f.events.filed);
        caseEvents.inc({ kind: 'case-routed' }, f.events.routed);
        caseEvents.inc({ kind: 'status-changed' }, f.events.statusChanged);
        if (!f.listed) return;
        caseIndexRows.set(f.indexSize);
        caseIndexCompanies.set({ state: 'seeded' }, f.seededCompanies);
        caseIndexCompanies.set({ state: 'seeding' }, f.companies - f.seededCompanies);
        caseIndexCompanies.set({ state: 'failed' }, f.failedCompanies);
        if (f.oldestSweepAgeSeconds !== null) oldestSweepAge.set(f.oldestSweepAgeSeconds);
      },
    } satisfies Telemetry);

    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode !== 429 && reply.statusCode !== 503) return;
      refusals.inc({ route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
    });

    // The web app's fallback would answer 200 with its HTML here: an unknown path on the public port.
    app.get('/metrics', { config: { policy: 'public' }, schema: { hide: true } }, async () => {
      throw new ApiProblem('not-found');
    });
  },
  { name: 'wbs-metrics' },
);
