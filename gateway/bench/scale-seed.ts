/**
 * `pnpm seed:scale`: ten years of a group's data, the same on every run (a seeded PRNG; only the dates
 * move with the clock, as in the demo seed, and the sealed messages' nonces are random).
 *
 * - legacy-sim: the demo seed plus SCALE_SIZE.cases generated reports (seed/generate.ts: a status
 *   reached through logs, a line, an attachment), written to its data folder SCALE_LEGACY_DIR, which
 *   legacy-sim loads at its start (LEGACY_SIM_DATA_DIR).
 * - the gateway's store (a PostgreSQL database, migrated by the gateway's own code): a case-index row,
 *   a clock row and the case events of every report, as the watcher would have written them; messages
 *   sealed with the store's sealer and bound with its case binder; a million audit records chained with
 *   the audit trail's own canonical body and link hash; each report's handling durations derived by
 *   the gateway's own refresh (clocks/durations.ts). Rows go in with one statement per batch
 *   (json_populate_recordset), not through the per-request functions: those take a lock and a round
 *   trip per record, which would take hours here.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLegacySim, SEED_STATUSES } from '@wbs/legacy-sim';
import pg from 'pg';
import { DEFAULT_ACK_DAYS, DEFAULT_FEEDBACK_MONTHS } from '../../shared/src/handling-clock.ts';
import { type AuditBody, canonicalBody, GENESIS_HASH, linkHash } from '../src/audit/chain.ts';
import { refreshDurations } from '../src/clocks/durations.ts';
import { caseBinder, loadBindingKey } from '../src/store/case-binding.ts';
import { openPostgres } from '../src/store/database.ts';
import { parseKeyRing, sealer } from '../src/store/keyring.ts';
import {
  COMPANY_SHARES,
  SCALE_DATABASE_URL,
  SCALE_LEGACY_DIR,
  SCALE_SIZE,
  SCALE_STORE_KEYS,
} from './scale-data.ts';

const started = performance.now();
const say = (what: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);

/** mulberry32, as legacy-sim's seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const WIB_OFFSET_MS = 7 * 3_600_000;
const wib = (ms: number) => new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19);
const FINAL = new Set(SEED_STATUSES.filter((s) => s.final).map((s) => s.caseStatusId));

// ---- legacy-sim
await rm(SCALE_LEGACY_DIR, { recursive: true, force: true });
const sim = await createLegacySim({ dataDir: SCALE_LEGACY_DIR, port: 0, log: () => {} });
const CHUNK = 20_000;
let seed = 100;
for (const [companyId, share] of COMPANY_SHARES) {
  let left = Math.round(SCALE_SIZE.cases * share);
  while (left > 0) {
    const count = Math.min(CHUNK, left);
    await sim.addCases({ count, companyId, seed: seed++, maxAgeDays: SCALE_SIZE.years * 365 });
    left -= count;
  }
  say(`legacy-sim: company ${companyId} done`);
}
await sim.close();

type LegacyCase = {
  caseId: number;
  caseNumber: string;
  companyId: number;
  created: number;
  categoryId: number;
  lineId: number | null;
  channelId: number;
  statusId: number;
  fields: {
    caseWhistleblowerIsAnonym: number;
    caseWhistleblowerProvinceId: number | null;
    caseWhistleblowerCityId: number | null;
  };
  logs: { caseStatusId: number; created: number }[];
};
const storeFile = join(SCALE_LEGACY_DIR, 'store.json');
const legacyDb = JSON.parse(await readFile(storeFile, 'utf8')) as { cases: LegacyCase[] };
const legacyCases = legacyDb.cases;
// Where identified reporters live (Peta Laporan): generate.ts names no region, so the generated reports
// get one of these provinces and cities (legacy region ids), three in four of them in the companies'
// own province; anonymous reports keep none, as the watcher would keep none of theirs.
const AREAS: [provinceId: number, cityId: number][] = [
  [32, 3201],
  [32, 3201],
  [32, 3271],
  [32, 3204],
  [32, 3273],
  [32, 3275],
  [32, 3276],
  [31, 3171],
  [31, 3174],
  [35, 3578],
  [35, 3573],
  [36, 3671],
];
const areaRand = prng(65);
for (const c of legacyCases) {
  if (c.fields.caseWhistleblowerIsAnonym === 1 || c.fields.caseWhistleblowerProvinceId != null) continue;
  // One in ten identified reporters names no place.
  if (areaRand() < 0.1) continue;
  const [provinceId, cityId] = AREAS[Math.floor(areaRand() * AREAS.length)]!;
  c.fields.caseWhistleblowerProvinceId = provinceId;
  c.fields.caseWhistleblowerCityId = cityId;
}
await writeFile(storeFile, JSON.stringify(legacyDb));
say(`legacy-sim: ${legacyCases.length.toLocaleString('en')} reports in ${SCALE_LEGACY_DIR}`);

// ---- the gateway's store
const admin = new pg.Client({ connectionString: new URL('/postgres', SCALE_DATABASE_URL).toString() });
await admin.connect();
const dbName = new URL(SCALE_DATABASE_URL).pathname.slice(1);
await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${dbName}`);
await admin.end();

const keys = parseKeyRing(SCALE_STORE_KEYS);
if (typeof keys === 'string') throw new Error(keys);
const seal = sealer(keys);
const database = await openPostgres(SCALE_DATABASE_URL, (error) => console.error(error));
const binder = caseBinder(await loadBindingKey(database.db, seal), () => {});
await database.close();
const client = new pg.Client({ connectionString: SCALE_DATABASE_URL });
await client.connect();

/** Inserts rows (column name → value) into `table` in batches, one statement each. */
async function insert(table: string, rows: Record<string, unknown>[], batch = 5_000): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    const columns = Object.keys(part[0]!).join(', ');
    await client.query(
      `insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, $1::json)`,
      [JSON.stringify(part)],
    );
  }
}

const rand = prng(27);
const now = Date.now();
const indexRows: Record<string, unknown>[] = [];
const clockRows: Record<string, unknown>[] = [];
const eventRows: Record<string, unknown>[] = [];
const bound = new Map<number, ReturnType<typeof binder.bind>>();
for (const c of legacyCases) {
  const ref = binder.bind({
    caseCompanyId: c.companyId,
    caseId: c.caseId,
    caseNumber: c.caseNumber,
    caseCreated: wib(c.created),
  });
  bound.set(c.caseId, ref);
  const last = c.logs.at(-1);
  const first = c.logs[0];
  indexRows.push({
    company_id: c.companyId,
    case_id: c.caseId,
    case_binding: ref.binding,
    line_id: c.lineId,
    category_id: c.categoryId,
    status_id: c.statusId,
    channel_id: c.channelId,
    anonymous: c.fields.caseWhistleblowerIsAnonym === 1,
    filed_at: wib(c.created),
    closed_at: FINAL.has(c.statusId) && last ? wib(last.created) : null,
    // As the watcher keeps them once it has read the detail (never for an anonymous report).
    province_id: c.fields.caseWhistleblowerIsAnonym === 1 ? null : c.fields.caseWhistleblowerProvinceId,
    city_id: c.fields.caseWhistleblowerIsAnonym === 1 ? null : c.fields.caseWhistleblowerCityId,
    detail_read: true,
  });
  clockRows.push({
    company_id: c.companyId,
    case_id: c.caseId,
    case_binding: ref.binding,
    filed_at: wib(c.created),
    ack_days: DEFAULT_ACK_DAYS,
    feedback_months: DEFAULT_FEEDBACK_MONTHS,
    status_id_seen: c.statusId,
    log_acknowledged_at: first ? wib(first.created) : null,
    log_answered_at: c.logs.length > 1 && last ? wib(last.created) : null,
  });
  const event = (kind: string, at: number, facts: Record<string, unknown>) => ({
    kind,
    company_id: c.companyId,
    case_id: c.caseId,
    case_binding: ref.binding,
    line_id: c.lineId,
    facts,
    occurred_at: new Date(at).toISOString(),
  });
  eventRows.push(event('case-filed', c.created, {}));
  for (const log of c.logs)
    eventRows.push(event('status-changed', log.created, { statusId: log.caseStatusId }));
}
eventRows.sort((a, b) => String(a.occurred_at).localeCompare(String(b.occurred_at)));
await insert('case_index', indexRows);
await insert('case_clock', clockRows);
await insert('case_event', eventRows);
// Every event is history: the notifier starts after the last one (no notice storm on the bench's start).
await client.query(
  `insert into event_cursor (name, last_id) select 'notices', coalesce(max(id), 0) from case_event`,
);
await insert(
  'case_watch',
  COMPANY_SHARES.map(([companyId]) => ({
    company_id: companyId,
    seeded: true,
    sweep_start: 0,
    swept_at: new Date(now).toISOString(),
    polled_at: new Date(now).toISOString(),
  })),
);
say(
  `store: ${indexRows.length.toLocaleString('en')} case-index and clock rows, ${eventRows.length.toLocaleString('en')} case events`,
);

// Messages: conversations on a quarter of the reports, reporter and handler taking turns.
const messageRows: Record<string, unknown>[] = [];
const conversations = new Map<number, LegacyCase>();
const talkative = legacyCases.filter(() => rand() < 0.25);
for (let i = 0; i < SCALE_SIZE.messages; i++) {
  const c = talkative[Math.floor(rand() * talkative.length)]!;
  const ref = bound.get(c.caseId)!;
  const kind = rand() < 0.5 ? 'reporter' : 'handler';
  const content =
    kind === 'handler'
      ? {
          text: `Terima kasih, laporan sedang kami tindak lanjuti (pesan ${i + 1}).`,
          authorName: 'Admin Perusahaan',
        }
      : { text: `Apakah ada perkembangan atas laporan saya? (pesan ${i + 1})` };
  const sealed = seal.seal(JSON.stringify(content), `case_message|${c.companyId}|${c.caseId}|${kind}`);
  const at = c.created + rand() * (now - c.created);
  messageRows.push({
    company_id: c.companyId,
    case_id: c.caseId,
    case_binding: ref.binding,
    author_kind: kind,
    author_user_id: kind === 'handler' ? 2 + c.companyId : null,
    author_user_type: kind === 'handler' ? 2 : null,
    key_id: sealed.keyId,
    sealed: sealed.sealed,
    created_at: new Date(at).toISOString(),
  });
  conversations.set(c.caseId, c);
}
messageRows.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
await insert('case_message', messageRows);
await client.query(`
  insert into case_conversation (company_id, case_id, case_binding, handler_seen_id, reporter_seen_id)
  select company_id, case_id, min(case_binding), max(id), max(id) from case_message group by company_id, case_id`);
say(
  `store: ${messageRows.length.toLocaleString('en')} sealed messages on ${conversations.size.toLocaleString('en')} reports`,
);

// The audit trail: SCALE_SIZE.auditRecords staff actions over ten years, oldest first, chained.
const EVENTS: [string, (r: () => number) => AuditBody['fields'], string, string][] = [
  ['case-read', (r) => ({ caseId: 1 + Math.floor(r() * legacyCases.length) }), 'GET', '/api/v1/cases/:id'],
  [
    'identity-read',
    (r) => ({ caseId: 1 + Math.floor(r() * legacyCases.length) }),
    'GET',
    '/api/v1/cases/:id/identity',
  ],
  ['case-export', (r) => ({ rows: Math.floor(r() * 500) }), 'POST', '/api/v1/cases/export'],
  [
    'master-data-changed',
    (r) => ({ action: 'staff-update', resourceId: Math.floor(r() * 50) }),
    'PUT',
    '/api/v1/staff/:id',
  ],
];
const span = SCALE_SIZE.years * 365 * 86_400_000;
const firstAt = now - span;
let tail = { seq: 0, hash: GENESIS_HASH };
const BATCH = 10_000;
for (let from = 0; from < SCALE_SIZE.auditRecords; from += BATCH) {
  const rows: Record<string, unknown>[] = [];
  for (let i = from; i < Math.min(SCALE_SIZE.auditRecords, from + BATCH); i++) {
    const seq = tail.seq + 1;
    const at = new Date(Math.floor(firstAt + (span * i) / SCALE_SIZE.auditRecords)).toISOString();
    const companyId = 1 + Math.floor(rand() * 3);
    const [event, fields, method, route] = EVENTS[Math.floor(rand() * rand() * EVENTS.length)]!;
    const actor = { userId: 2 + companyId, userType: 2, role: null, companyId, partnerId: null };
    const body = canonicalBody({ seq, at, event, actor, method, route, fields: fields(rand) });
    const hash = linkHash(tail.hash, body);
    rows.push({
      seq,
      at,
      actor_user_id: actor.userId,
      actor_user_type: actor.userType,
      actor_company_id: actor.companyId,
      actor_partner_id: actor.partnerId,
      event,
      body,
      prev_hash: tail.hash,
      hash,
    });
    tail = { seq, hash };
  }
  await insert('audit_record', rows, BATCH);
}
await client.query(
  `insert into audit_chain_head (id, seq, hash) values (1, $1, $2)
   on conflict (id) do update set seq = excluded.seq, hash = excluded.hash`,
  [tail.seq, tail.hash],
);
say(`store: ${tail.seq.toLocaleString('en')} audit records chained`);
await client.end();

// Each report's handling durations, derived once as the watcher's poll would after writing them.
const store = await openPostgres(SCALE_DATABASE_URL, (error) => console.error(error));
const stale = await refreshDurations(store);
await store.close();
say(`store: handling durations derived for ${stale.toLocaleString('en')} written facts`);
const vacuum = new pg.Client({ connectionString: SCALE_DATABASE_URL });
await vacuum.connect();
await vacuum.query('vacuum analyze');
await vacuum.end();
say(`done: legacy-sim in ${SCALE_LEGACY_DIR}, store in ${SCALE_DATABASE_URL}`);
