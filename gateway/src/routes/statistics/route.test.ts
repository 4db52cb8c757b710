/**
 * Statistik through the real app against legacy-sim, on PostgreSQL and PGlite: every figure equals
 * one computed here from legacy-sim's own store (its cases, logs and flags; not the gateway's code:
 * the handling rules are written out again below), per company and for the partner's scope; a
 * reporter's tracking visit counts as a return; the export is the same figures as XLSX (opened with
 * exceljs) and as formula-safe CSV, named by the range, and on the audit trail.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import type { StatisticsReply } from '@wbs/shared/api/insights';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../store/drizzle.ts';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoAccount, demoLogins, ORIGIN, type TestApp } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';

const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: demoAccount('admin').password };
const WIB = 7 * 3_600_000;
const DAY = 86_400_000;
const wibDay = (ms: number) => new Date(ms + WIB).toISOString().slice(0, 10);
/** legacy-sim writes its times to the second. */
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const FINALS = new Set([13, 21]);
const NEW = 1;
const DEFAULT_ACK_DAYS = 7;
const DEFAULT_FEEDBACK_MONTHS = 3;

type SimCase = ReturnType<TestApp['legacy']['cases']>[number];

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * The acknowledgement and answer of a case from its log alone (no handler message in the seed): each
 * entry changing the status is a step; the first acknowledges (and answers too when it is final), the
 * next answers.
 */
function handling(c: SimCase): { ack: number | null; answer: number | null } {
  let status = NEW;
  const steps: { at: number; final: boolean }[] = [];
  for (const log of [...c.logs].sort((a, b) => a.created - b.created)) {
    if (log.caseStatusId !== status)
      steps.push({ at: seconds(log.created), final: FINALS.has(log.caseStatusId) });
    status = log.caseStatusId;
  }
  const [first, second] = steps;
  if (!first) return { ack: null, answer: null };
  return { ack: first.at, answer: first.final ? first.at : (second?.at ?? null) };
}

function spread(values: { days: number; met: boolean }[]) {
  const sorted = values.map((v) => v.days).sort((a, b) => a - b);
  const n = sorted.length;
  const median =
    n === 0
      ? null
      : Math.round((n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2) * 10) / 10;
  return {
    measured: n,
    medianDays: median,
    p90Days: n === 0 ? null : sorted[Math.ceil(n * 0.9) - 1]!,
    withinDeadline: n === 0 ? null : Math.round((values.filter((v) => v.met).length / n) * 10_000) / 10_000,
  };
}

function simFigures(cases: SimCase[]) {
  const ack: { days: number; met: boolean }[] = [];
  const answer: { days: number; met: boolean }[] = [];
  for (const c of cases) {
    const filed = seconds(c.created);
    const filedDay = wibDay(filed);
    const h = handling(c);
    const days = (at: number) => Math.round(((at - filed) / DAY) * 10) / 10;
    if (h.ack !== null)
      ack.push({ days: days(h.ack), met: wibDay(h.ack) <= addDays(filedDay, DEFAULT_ACK_DAYS) });
    if (h.answer !== null) {
      answer.push({
        days: days(h.answer),
        met: wibDay(h.answer) <= addMonths(filedDay, DEFAULT_FEEDBACK_MONTHS),
      });
    }
  }
  const anonymous = cases.filter((c) => Number(c.fields.caseWhistleblowerIsAnonym) === 1).length;
  return {
    filed: cases.length,
    closed: cases.filter((c) => FINALS.has(c.statusId)).length,
    acknowledge: spread(ack),
    answer: spread(answer),
    anonymous: { anonymous, identified: cases.length - anonymous, unknown: 0 },
  };
}

describe.each(ENGINES)('Statistik on $engine', ({ engine }) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  const login = demoLogins(() => t.app);
  const today = wibDay(Date.now());
  const range = { from: addDays(today, -364), to: today };
  const q = (extra = '') => `?from=${range.from}&to=${range.to}${extra}`;
  const get = async (username: string | null, url: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: username === null ? { origin: ORIGIN } : browser(await login(username)),
    });
  const simCases = (companyId: number) =>
    t.legacy
      .cases()
      .filter((c) => c.companyId === companyId)
      .filter((c) => wibDay(c.created) >= range.from && wibDay(c.created) <= range.to);
  const rows = async (text: ReturnType<typeof sql>) => {
    const store = await t.app.store.open();
    return ((await store.db.execute(text)) as unknown as { rows: Record<string, unknown>[] }).rows;
  };

  beforeAll(async () => {
    const store = await storeTestEnv(engine);
    drop = store.drop;
    t = await buildTestApp({
      ...store.env,
      ...SERVICE,
      RATE_LIMIT_NAMESPACE: `test-stats-${randomUUID()}`,
      TRACKING_FAILURE_FLOOR_MS: '20',
    });
    expect((await t.app.caseIndex.poll()).complete).toBe(true);
    await t.app.caseIndex.poll({ detailBackfill: 10_000 });
    expect((await t.app.caseIndex.poll({ detailBackfill: 10_000 })).backfilled).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it("equals the figures computed from legacy-sim's own store, per company and for the partner", async () => {
    const res = await get('holding', `/statistics${q()}`);
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as StatisticsReply;
    expect(reply.companyId).toBeNull();
    expect(reply.companies.map((c) => c.companyId)).toEqual([1, 2, 3]);
    const all: SimCase[] = [];
    for (const company of reply.companies) {
      const cases = simCases(company.companyId);
      all.push(...cases);
      expect(company.figures, `company ${company.companyId}`).toEqual({ ...simFigures(cases), returned: 0 });
    }
    expect(reply.overall).toEqual({ ...simFigures(all), returned: 0 });
    // Per month of filing: filed, and of them now final.
    for (const m of reply.months) {
      const ofMonth = all.filter((c) => wibDay(c.created).slice(0, 7) === m.month);
      expect(m, m.month).toEqual({
        month: m.month,
        filed: ofMonth.length,
        closed: ofMonth.filter((c) => FINALS.has(c.statusId)).length,
      });
    }
    expect(reply.months).toHaveLength(13);
    for (const ch of reply.channels)
      expect(ch.total, ch.name).toBe(all.filter((c) => c.channelId === ch.id).length);
    expect(reply.channels.reduce((n, c) => n + c.total, 0)).toBe(all.length);
    expect(reply.outcomes.map((o) => o.id).sort()).toEqual([13, 21]);
    for (const o of reply.outcomes)
      expect(o.total, o.name).toBe(all.filter((c) => c.statusId === o.id).length);
    // One company: the same figures as that company's row above.
    const one = (await get('admin.pakuan', `/statistics${q()}`)).json() as StatisticsReply;
    expect(one.overall).toEqual(reply.companies.find((c) => c.companyId === 2)!.figures);
    expect((await get('admin.pakuan', `/statistics${q('&companyId=1')}`)).statusCode).toBe(404);
  });

  it("counts a reporter who came back to track the report, once, in the analyst's scope too", async () => {
    const [baru] = demoCases;
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/tracking',
        headers: { origin: ORIGIN },
        payload: { caseNumber: baru!.caseNumber, password: baru!.password },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const facts = await rows(sql`select * from case_return`);
    expect(facts).toHaveLength(1);
    expect(Object.keys(facts[0]!).sort()).toEqual(['case_binding', 'case_id', 'company_id', 'first_at']);
    const company = (await get('admin.kahuripan', `/statistics${q()}`)).json() as StatisticsReply;
    expect(company.overall.returned).toBe(1);
    // Baru is not routed: every analyst of the company sees it.
    const analyst = (await get('analis.spi', `/statistics${q()}`)).json() as StatisticsReply;
    expect(analyst.overall.returned).toBe(1);
    expect(analyst.overall.filed).toBe(simCases(1).filter((c) => c.lineId === null || c.lineId === 3).length);
  });

  it('exports the figures as XLSX and formula-safe CSV named by the range, and records the export', async () => {
    const figures = (await get('admin.kahuripan', `/statistics${q()}`)).json() as StatisticsReply;
    const xlsx = await get('admin.kahuripan', `/statistics/export${q('&format=xlsx')}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['content-disposition']).toContain(`Statistik WBS ${range.from} sd ${range.to}.xlsx`);
    expect(xlsx.headers['content-disposition']).not.toMatch(/WBS-\d/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Statistik')!;
    const cells = new Map<string, unknown>();
    sheet.eachRow((row) => {
      const [, section, , measure, value] = row.values as unknown[];
      cells.set(`${section}|${measure}`, value);
    });
    expect(cells.get('Ringkasan|Laporan masuk')).toBe(figures.overall.filed);
    expect(cells.get('Ringkasan|Laporan berstatus akhir')).toBe(figures.overall.closed);
    expect(cells.get('Ringkasan|Tanggapan awal: median (hari)')).toBe(figures.overall.acknowledge.medianDays);
    expect(cells.get('Ringkasan|Pelapor kembali memantau atau membalas')).toBe(figures.overall.returned);
    for (const c of figures.channels) expect(cells.get(`Kanal|${c.name}`)).toBe(c.total);

    const csv = await get('admin.kahuripan', `/statistics/export${q('&format=csv')}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`Statistik WBS ${range.from} sd ${range.to}.csv`);
    expect(csv.body.startsWith('\ufeff"Bagian","Perusahaan","Ukuran","Nilai"\r\n')).toBe(true);
    expect(csv.body).toContain(
      `"Ringkasan","Perumda Air Minum Tirta Kahuripan","Laporan masuk","${figures.overall.filed}"`,
    );
    for (const line of csv.body.slice(1).trim().split('\r\n')) expect(line).toMatch(/^"[^=+\-@]/);

    expect((await get('admin.kahuripan', `/statistics/export${q('&format=pdf')}`)).statusCode).toBe(400);
    expect((await get('pelapor', `/statistics/export${q()}`)).statusCode).toBe(403);
    expect((await get(null, `/statistics/export${q()}`)).statusCode).toBe(401);
    await until(async () => {
      const records = await rows(sql`select body from audit_record where event = 'export'`);
      return records.filter((r) => String(r.body).includes('"resource":"statistics"')).length === 2;
    });
  });
});
