import { SEED_STATUS } from '@wbs/legacy-sim';
import type { CaseDetail, CaseListItem } from '@wbs/shared/api/cases';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_FORMAT, IDENTITY_WITHHELD_NOTE } from '../../presenters/export-workbook.ts';
import { browser, buildTestApp, demoLogins, type TestApp } from '../../test/helpers.ts';
import { contentDisposition, legacyFileName, safeContentType } from './files.ts';

let t: TestApp;
const login = demoLogins(() => t.app);

const FROM = '2020-01-01';
const TO = latestIndonesianToday();
const range = { from: FROM, to: TO };

async function get(username: string, url: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: browser(await login(username)) });
}

/** POST /cases/search with exactly this body. */
async function search(username: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/cases/search',
    headers: browser(await login(username)),
    payload: body,
  });
}

async function list(username: string, filters: Record<string, unknown>) {
  const res = await search(username, { ...range, ...filters });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: CaseListItem[]; total: number; page: number; pageSize: number };
}

/** Every row of the list, page by page (the legacy caps a page at 100). */
async function everything(username: string, filters: Record<string, unknown> = {}) {
  const all: CaseListItem[] = [];
  for (let page = 1; ; page++) {
    const reply = await list(username, { pageSize: 100, page, ...filters });
    all.push(...reply.items);
    if (all.length >= reply.total || reply.items.length === 0) return all;
  }
}

/** A bearer token of the legacy itself, to read what legacy-sim stored (bytes) or to seed data. */
async function legacyToken(username: string, password: string): Promise<string> {
  const res = await t.legacy.app.inject({
    method: 'POST',
    url: '/api/JwtAuth/Login',
    payload: { userName: username, password },
  });
  const data = res.json().data as Record<string, { token?: string } | string>;
  if (typeof data.token === 'string') return data.token;
  const sub = Object.values(data).find((value) => typeof value === 'object' && value?.token);
  if (!sub || typeof sub !== 'object' || !sub.token) throw new Error(`legacy login of ${username} failed`);
  return sub.token;
}

async function legacyBytes(path: string): Promise<Buffer> {
  const token = await legacyToken('admin', 'Admin#2026!');
  const res = await t.legacy.app.inject({
    method: 'GET',
    url: `/api${path}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** The company's reports as legacy-sim holds them, newest filing first (ties by id, as the legacy). */
function simCasesNewestFirst(companyId: number) {
  return t.legacy
    .cases()
    .filter((c) => c.companyId === companyId)
    .sort((a, b) => b.created - a.created || b.caseId - a.caseId);
}

const scopeDenials = (resource: string, resourceId: number | string | null) =>
  t.logs.filter(
    (l) =>
      l.audit === true &&
      l.event === 'scope-denied' &&
      l.resource === resource &&
      l.resourceId === resourceId,
  );

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('POST /cases/search (list by session scope)', () => {
  it('company admin (type 2): only its company, with filters, paging and the newest first', async () => {
    const first = await list('admin.kahuripan', { pageSize: 5, page: 1, sort: '-createdAt' });
    expect(first.page).toBe(1);
    expect(first.pageSize).toBe(5);
    expect(first.items).toHaveLength(5);
    expect(first.total).toBeGreaterThan(5);
    for (const item of first.items) expect(item.companyId).toBe(1);
    const dates = first.items.map((i) => i.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    // The newest report of the company as legacy-sim holds it: on most days WBS-10000001 (filed a day
    // before the seed), early in a month one of the map demo's reports of the seed's month.
    const newest = simCasesNewestFirst(1)[0]!;
    expect(first.items[0]).toMatchObject({
      id: newest.caseId,
      number: newest.caseNumber,
      companyName: 'Perumda Air Minum Tirta Kahuripan',
      caseLineId: newest.lineId,
      status: { id: newest.statusId },
    });
    expect(first.items.map((i) => i.id)).toEqual(
      simCasesNewestFirst(1)
        .slice(0, 5)
        .map((c) => c.caseId),
    );
    const demo = (await list('admin.kahuripan', { number: 'WBS-10000001' })).items[0];
    expect(demo).toMatchObject({
      id: 1,
      caseLineId: null,
      caseLineName: null,
      status: { id: 1, name: 'Baru', order: 1 },
    });
    expect(first.items[0]?.categoryId).toEqual(expect.any(Number));
    expect(first.items[0]?.categoryName).toEqual(expect.any(String));

    const second = await list('admin.kahuripan', { pageSize: 5, page: 2, sort: '-createdAt' });
    expect(second.total).toBe(first.total);
    expect(second.items.map((i) => i.id)).not.toEqual(expect.arrayContaining(first.items.map((i) => i.id)));

    const all = await everything('admin.kahuripan');
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((i) => i.companyId))).toEqual(new Set([1]));

    const investigation = SEED_STATUS.INVESTIGATION;
    const byStatus = await list('admin.kahuripan', { statusId: investigation, pageSize: 100 });
    expect(byStatus.total).toBe(all.filter((i) => i.status?.id === investigation).length);
    for (const item of byStatus.items) expect(item.status?.id).toBe(investigation);

    const byLine = await list('admin.kahuripan', { caseLineId: 3, pageSize: 100 });
    expect(byLine.total).toBe(all.filter((i) => i.caseLineId === 3).length);

    const categoryId = all[0]?.categoryId;
    const byCategory = await list('admin.kahuripan', { categoryId, pageSize: 100 });
    expect(byCategory.total).toBe(all.filter((i) => i.categoryId === categoryId).length);

    const byNumber = await list('admin.kahuripan', { number: 'WBS-10000002' });
    expect(byNumber.items.map((i) => i.number)).toEqual(['WBS-10000002']);

    const oldestFirst = await list('admin.kahuripan', { pageSize: 3, sort: 'createdAt' });
    const oldest = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).slice(0, 3);
    expect(oldestFirst.items.map((i) => i.id)).toEqual(oldest.map((i) => i.id));
  });

  it('the date range filters by creation day (both days inclusive)', async () => {
    const all = await everything('admin.kahuripan');
    const day = all[5]!.createdAt.slice(0, 10);
    const res = await search('admin.kahuripan', { from: day, to: day, pageSize: 100 });
    expect(res.statusCode).toBe(200);
    const expected = all.filter((i) => i.createdAt.startsWith(day)).map((i) => i.id);
    expect(
      res
        .json()
        .items.map((i: CaseListItem) => i.id)
        .sort(),
    ).toEqual(expected.sort());
  });

  it('analyst (type 4): its own line and cases not yet routed', async () => {
    const all = await everything('analis.direksi');
    expect(all.length).toBeGreaterThan(0);
    for (const item of all) {
      expect(item.companyId).toBe(1);
      expect([null, 1]).toContain(item.caseLineId);
    }
    expect(all.map((i) => i.number)).toContain('WBS-10000001');
    expect(all.map((i) => i.number)).not.toContain('WBS-10000002');
  });

  it('partner users (types 3, 5): one company of their partner, which they must name', async () => {
    for (const username of ['holding', 'staff.holding']) {
      const company2 = await everything(username, { companyId: 2 });
      expect(company2.length).toBeGreaterThan(0);
      expect(new Set(company2.map((i) => i.companyId))).toEqual(new Set([2]));
      expect(company2.map((i) => i.number)).toContain('WBS-10000003');
    }
    const missing = await search('holding', range);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ companyId: 'Silahkan Pilih Perusahaan' });
  });

  it('pelapor (type 6): only the cases it filed', async () => {
    const own = await everything('pelapor');
    expect(own.length).toBeGreaterThan(0);
    const numbers = own.map((i) => i.number);
    expect(numbers).not.toContain('WBS-10000001');
    expect(numbers).not.toContain('WBS-10000002');
    for (const item of own.slice(0, 3)) {
      expect((await get('pelapor', `/cases/${item.id}`)).statusCode).toBe(200);
    }
  });

  it('a company user naming another company: 404 and an audit line', async () => {
    const res = await search('admin.kahuripan', { ...range, companyId: 2 });
    expect(res.statusCode).toBe(404);
    expect(scopeDenials('company', 2).length).toBeGreaterThan(0);
  });

  it('validates the date range in Indonesian (to not after today, from not after to, both required)', async () => {
    // Within the days the API accepts (docs/product/handling.md#dates) but after today.
    const future = await search('admin.kahuripan', { from: FROM, to: '2099-12-31' });
    expect(future.statusCode).toBe(400);
    expect(future.json().errors).toEqual({ to: 'Tanggal tidak boleh melebihi hari ini' });
    // Outside them: the range's own message, and the reason as the problem's detail.
    const beyond = await search('admin.kahuripan', { from: FROM, to: '2999-01-01' });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toMatchObject({
      errors: { to: 'Tanggal harus di antara 01/01/2000 dan 31/12/2099' },
      detail: PROBLEM_MESSAGES.dateOutOfRange,
    });

    const reversed = await search('admin.kahuripan', { from: TO, to: '2024-01-01' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors).toEqual({ from: 'Tanggal awal tidak boleh melebihi tanggal akhir' });

    const none = await search('admin.kahuripan', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ from: 'Tanggal awal wajib diisi', to: 'Tanggal akhir wajib diisi' });

    const bad = await search('admin.kahuripan', { from: '2024-02-30', to: TO, sort: '-password' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ from: 'Tanggal tidak valid', sort: 'Urutan tidak valid' });
  });

  it('there is no list by URL: a complaint number never travels in a query string', async () => {
    const res = await get('admin.kahuripan', `/cases?from=${FROM}&to=${TO}&number=WBS-10000002`);
    // `/cases` exists for POST only: a GET is 405 with Allow, and nothing of the query is echoed.
    expect(res.statusCode).toBe(405);
    expect(res.body).not.toContain('WBS-10000002');
  });
});

describe("the administrator (type 1): the group's cases, read only", () => {
  it('lists one company of the group at a time, which it must name; each list read is on record', async () => {
    const missing = await search('admin', range);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ companyId: 'Silahkan Pilih Perusahaan' });
    for (const companyId of [1, 2, 3]) {
      const rows = await everything('admin', { companyId });
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((i) => i.companyId))).toEqual(new Set([companyId]));
    }
    // The same rows the company's own admin sees.
    const kahuripan = await list('admin', { companyId: 1, pageSize: 100 });
    expect(kahuripan.total).toBe((await list('admin.kahuripan', { pageSize: 100 })).total);
    expect(
      t.logs.filter((l) => l.audit === true && l.event === 'case-list-read' && l.resourceId === 2).length,
    ).toBeGreaterThan(0);
    expect((await list('admin', { companyId: 999 })).total).toBe(0);
  });

  it('reads a detail without reporter identity or contact, notes masked; every read audited', async () => {
    const rows = await everything('admin', { companyId: 1 });
    const identified = [];
    for (const row of rows.slice(0, 40)) {
      const full = (await get('admin.kahuripan', `/cases/${row.id}`)).json() as CaseDetail;
      if (!full.reporter.anonymous && full.reporter.name && full.logs.length > 0) identified.push(full);
      if (identified.length === 2) break;
    }
    expect(identified.length, 'the seed has identified cases with logs').toBe(2);
    for (const full of identified) {
      const res = await get('admin', `/cases/${full.id}`);
      expect(res.statusCode).toBe(200);
      const detail = res.json() as CaseDetail;
      expect(detail.reporter).toMatchObject({
        name: null,
        department: null,
        email: null,
        phone: null,
        address: null,
        provinceName: null,
        cityName: null,
        districtName: null,
      });
      expect(detail.report.what).toBe(full.report.what);
      expect(detail.status).toEqual(full.status);
      // (The seed's names also play perpetrators, so only the contact values are looked for in the body.)
      for (const value of [full.reporter.email, full.reporter.phone, full.reporter.address]) {
        if (value) expect(res.body).not.toContain(value);
      }
      expect(detail.logs.every((l) => l.noteHidden && l.createdBy === null)).toBe(true);
      expect(
        t.logs.some(
          (l) => l.audit === true && l.event === 'case-read' && l.resourceId === full.id && l.userType === 1,
        ),
      ).toBe(true);
    }
    // Another company of the group too.
    const pakuan = await everything('admin', { companyId: 2 });
    expect((await get('admin', `/cases/${pakuan[0]!.id}`)).statusCode).toBe(200);
    expect((await get('admin', '/cases/999999')).statusCode).toBe(404);
  });

  it('handles nothing: no log entry, no export, no download', async () => {
    const withAttachment = simCasesNewestFirst(1).find((c) => c.attachments.length > 0)!;
    const row = (await everything('admin', { companyId: 1 })).find((r) => r.id === withAttachment.caseId);
    const cookie = await login('admin');
    const detail = (await get('admin', `/cases/${row!.id}`)).json() as CaseDetail;
    const attachment = detail.attachments[0];
    expect(attachment).toBeDefined();
    expect((await get('admin', `/cases/${row!.id}/attachments/${attachment!.id}`)).statusCode).toBe(403);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/export',
      headers: browser(cookie),
      payload: { ...range, companyId: 1 },
    });
    expect(exported.statusCode).toBe(403);
    const logged = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${row!.id}/logs`,
      headers: { ...browser(cookie), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(logged.statusCode).toBe(403);
  });
});

describe('GET /cases/{id} (scope)', () => {
  it("a company admin cannot read another company's case: 404 and an audit line", async () => {
    expect((await get('admin.kahuripan', '/cases/2')).statusCode).toBe(200);
    const before = scopeDenials('case', 2).length;
    const res = await get('admin.pakuan', '/cases/2');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('WBS-10000002');
    expect(scopeDenials('case', 2).length).toBe(before + 1);
    // A case that does not exist looks the same.
    const missing = await get('admin.pakuan', '/cases/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(res.json());
  });

  it('an analyst reads its own line and unrouted cases only', async () => {
    expect((await get('analis.direksi', '/cases/1')).statusCode).toBe(200);
    const other = await get('analis.direksi', '/cases/2');
    expect(other.statusCode).toBe(404);
    expect(scopeDenials('case', 2).length).toBeGreaterThan(0);
    expect((await get('analis.spi', '/cases/2')).statusCode).toBe(200);
  });

  it("a pelapor cannot read someone else's case", async () => {
    expect((await get('pelapor', '/cases/1')).statusCode).toBe(404);
    expect((await get('pelapor', '/cases/3')).statusCode).toBe(404);
  });

  it('partner users read cases of their companies', async () => {
    const res = await get('staff.holding2', '/cases/3');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 3, number: 'WBS-10000003', companyId: 2 });
  });
});

describe('GET /cases/{id} (privacy)', () => {
  /** Cases filed by the pelapor, as a company admin sees them. */
  async function pelaporCases(): Promise<CaseDetail[]> {
    const own = await everything('pelapor');
    const out: CaseDetail[] = [];
    for (const item of own) out.push((await get('admin.kahuripan', `/cases/${item.id}`)).json());
    return out;
  }

  it('handlers (types 2–5) see full logs; the nested shape maps the legacy fields', async () => {
    const res = await get('admin.kahuripan', '/cases/2');
    const detail = res.json() as CaseDetail;
    expect(detail).toMatchObject({
      id: 2,
      number: 'WBS-10000002',
      companyId: 1,
      caseLineId: 3,
      caseLineName: 'Jalur SPI',
      channelName: 'Desktop',
      status: { id: SEED_STATUS.INVESTIGATION, name: 'Investigasi', order: 4 },
      noteHidden: false,
      reporter: { anonymous: true, type: 1, name: null, address: null, provinceName: null },
      report: {
        what: expect.any(String),
        perpetrator: expect.any(String),
        reportedToBefore: expect.any(String),
        identificationReason: 'Khawatir akan pembalasan',
        protectionReason: 'Khawatir akan mutasi atau intimidasi',
      },
    });
    expect(typeof detail.report.needsProtection).toBe('boolean');
    expect(detail.communication.types.length).toBeGreaterThan(0);
    expect(detail.attachments.length).toBeGreaterThan(0);
    expect(detail.logs.length).toBeGreaterThan(0);
    for (const log of detail.logs) {
      expect(log.noteHidden).toBe(false);
      expect(log.message).toMatch(/^Status diperbarui/);
      expect(log.createdBy).toEqual(expect.any(String));
    }
    expect(detail.logs.some((l) => l.attachmentName === 'catatan-2-3.pdf')).toBe(true);
    const partner = (await get('holding', '/cases/2')).json() as CaseDetail;
    expect(partner.logs).toEqual(detail.logs);
  });

  it('type 6 gets every log note masked and never the reporter name', async () => {
    const cases = await pelaporCases();
    const identified = cases.find((c) => !c.reporter.anonymous && c.reporter.name);
    const withLogs = cases.find((c) => c.logs.length > 0);
    expect(identified, 'the seed has an identified case of the pelapor').toBeDefined();
    expect(withLogs, 'the seed has a pelapor case with logs').toBeDefined();

    const own = await get('pelapor', `/cases/${identified!.id}`);
    const mine = own.json() as CaseDetail;
    expect(identified!.reporter.name).toBe('Rahmat Hidayat');
    expect(mine.reporter.name).toBeNull();
    expect(own.body).not.toContain('Rahmat Hidayat');
    expect(mine.reporter.email).toBe(identified!.reporter.email);

    const logged = await get('pelapor', `/cases/${withLogs!.id}`);
    const masked = logged.json() as CaseDetail;
    expect(masked.noteHidden).toBe(true);
    expect(masked.logs).toHaveLength(withLogs!.logs.length);
    for (const [i, log] of masked.logs.entries()) {
      expect(log).toEqual({
        id: withLogs!.logs[i]!.id,
        createdAt: withLogs!.logs[i]!.createdAt,
        statusName: withLogs!.logs[i]!.statusName,
        message: '**********',
        noteHidden: true,
        createdBy: null,
        attachmentName: null,
      });
      expect(logged.body).not.toContain(withLogs!.logs[i]!.message);
      if (withLogs!.logs[i]!.createdBy) expect(logged.body).not.toContain(withLogs!.logs[i]!.createdBy);
    }
  });

  it('an anonymous report carries no identity, even where the legacy still holds a name', async () => {
    const cases = await pelaporCases();
    // The seed keeps the linked pelapor's name on its anonymous cases too; it must never come out.
    const anonymous = cases.find((c) => c.reporter.anonymous);
    expect(anonymous, 'the seed has an anonymous case of the pelapor').toBeDefined();
    const res = await get('admin.kahuripan', `/cases/${anonymous!.id}`);
    expect(res.json().reporter).toMatchObject({
      anonymous: true,
      name: null,
      department: null,
      address: null,
      provinceName: null,
      cityName: null,
      districtName: null,
    });
    expect(res.body).not.toContain('Rahmat Hidayat');
  });
});

describe('downloads', () => {
  it('streams a case attachment with the bytes the legacy stored and safe headers', async () => {
    const detail = (await get('admin.kahuripan', '/cases/2')).json() as CaseDetail;
    const png = detail.attachments.find((a) => a.name.endsWith('.png'))!;
    const res = await get('admin.kahuripan', `/cases/2/attachments/${png.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(await legacyBytes(`/WBSCase/DownloadAttachement/1/${png.id}`))).toBe(true);
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${png.name}"; filename*=UTF-8''${png.name}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    const audits = t.logs.filter((l) => l.audit === true && l.event === 'download');
    expect(audits.at(-1)).toMatchObject({ resource: 'case-attachment', resourceId: png.id, caseId: 2 });
    expect(JSON.stringify(audits)).not.toContain('WBS-');
  });

  it('an attachment of another case, or of another company, is 404', async () => {
    const first = (await get('admin.kahuripan', '/cases/1')).json() as CaseDetail;
    const foreign = first.attachments[0]!.id;
    expect((await get('admin.kahuripan', `/cases/2/attachments/${foreign}`)).statusCode).toBe(404);
    expect(scopeDenials('case-attachment', foreign).length).toBeGreaterThan(0);
    const detail = (await get('admin.kahuripan', '/cases/2')).json() as CaseDetail;
    expect((await get('admin.pakuan', `/cases/2/attachments/${detail.attachments[0]!.id}`)).statusCode).toBe(
      404,
    );
  });

  it('a pelapor downloads the attachments of its own cases, never log attachments', async () => {
    const own = await everything('pelapor');
    const detail = (await get('pelapor', `/cases/${own[0]!.id}`)).json() as CaseDetail;
    const file = await get('pelapor', `/cases/${detail.id}/attachments/${detail.attachments[0]!.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBeGreaterThan(0);
    const logFile = await get('pelapor', `/cases/${detail.id}/logs/1/attachment`);
    expect(logFile.statusCode).toBe(403);
  });

  it('streams a log attachment to handlers; a log without one is 404', async () => {
    const detail = (await get('analis.spi', '/cases/2')).json() as CaseDetail;
    const withFile = detail.logs.find((l) => l.attachmentName)!;
    const res = await get('analis.spi', `/cases/2/logs/${withFile.id}/attachment`);
    expect(res.statusCode).toBe(200);
    expect(
      res.rawPayload.equals(await legacyBytes(`/WBSCase/DownloadCaseLogAttachement/1/${withFile.id}`)),
    ).toBe(true);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${withFile.attachmentName}`);
    const without = detail.logs.find((l) => !l.attachmentName)!;
    expect((await get('analis.spi', `/cases/2/logs/${without.id}/attachment`)).statusCode).toBe(404);
    // The log id of another company's case, through a case in scope: 404.
    const other = (await get('admin.pakuan', '/cases/3')).json() as CaseDetail;
    expect((await get('analis.spi', `/cases/2/logs/${other.logs[0]!.id}/attachment`)).statusCode).toBe(404);
  });

  it('builds RFC 6266 headers from any file name', () => {
    expect(contentDisposition('laporan "rahasia" é/..\\x.pdf')).toBe(
      `attachment; filename="x.pdf"; filename*=UTF-8''x.pdf`,
    );
    expect(contentDisposition('bukti “asli” 100%.pdf')).toBe(
      `attachment; filename="bukti _asli_ 100_.pdf"; filename*=UTF-8''bukti%20%E2%80%9Casli%E2%80%9D%20100%25.pdf`,
    );
    expect(contentDisposition('\u0000')).toBe(`attachment; filename="lampiran"; filename*=UTF-8''lampiran`);
    expect(safeContentType('text/html; charset=UTF-8')).toBe('text/html; charset=utf-8');
    expect(safeContentType('image/png; name="x"')).toBe('image/png');
    expect(safeContentType('nonsense')).toBe('application/octet-stream');
    expect(safeContentType(undefined)).toBe('application/octet-stream');
    expect(legacyFileName('attachment; filename="AllCases - 2026-01-02 03.04.05.xlsx"')).toBe(
      'AllCases - 2026-01-02 03.04.05.xlsx',
    );
    expect(legacyFileName('attachment; filename="x"; filename*=UTF-8\'\'%C3%A9.pdf')).toBe('é.pdf');
  });
});

describe('POST /cases/export', () => {
  async function sheetOf(xlsx: Buffer): Promise<ExcelJS.Worksheet> {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    return book.getWorksheet('Laporan')!;
  }

  async function rowsOf(xlsx: Buffer): Promise<string[][]> {
    const sheet = await sheetOf(xlsx);
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      // Array.from: an empty cell is a hole in `values`.
      rows.push(Array.from(row.values as unknown[], (v) => String(v ?? '')).slice(1));
    });
    return rows;
  }

  async function exportAs(username: string, payload: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/export',
      headers: browser(await login(username)),
      payload,
    });
  }

  it('streams the legacy xlsx of the company admin, with the legacy file name', async () => {
    const res = await exportAs('admin.kahuripan', {
      from: FROM,
      to: TO,
      statusId: SEED_STATUS.INVESTIGATION,
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="AllCases - \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}\.xlsx"; filename\*=UTF-8''AllCases%20-%20/,
    );
    const rows = await rowsOf(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Nomor Laporan', 'Perusahaan', 'Status']));
    const listed = await list('admin.kahuripan', { statusId: SEED_STATUS.INVESTIGATION, pageSize: 100 });
    expect(rows.length - 1).toBe(listed.total);
    for (const row of rows.slice(1)) {
      expect(row[3]).toBe('Perumda Air Minum Tirta Kahuripan');
      expect(row[6]).toBe('Investigasi');
    }
    // No reporter identity leaves in the file (#80): legacy-sim's Nama Pelapor names reporters.
    const sheet = await sheetOf(res.rawPayload);
    const nameColumn = rows[0]!.indexOf('Nama Pelapor') + 1;
    expect(nameColumn).toBeGreaterThan(0);
    expect(sheet.getCell(1, nameColumn).note).toBe(IDENTITY_WITHHELD_NOTE);
    for (const row of rows.slice(1)) expect(row[nameColumn - 1]).toBe('');
    // Tanggal is a real date cell shown DD/MM/YYYY.
    const dateColumn = rows[0]!.indexOf('Tanggal') + 1;
    for (let r = 2; r <= rows.length; r += 1) {
      const cell = sheet.getCell(r, dateColumn);
      expect(cell.value).toBeInstanceOf(Date);
      expect(cell.numFmt).toBe(DATE_FORMAT);
    }
    expect(t.logs.filter((l) => l.audit === true && l.event === 'export').at(-1)).toMatchObject({
      companyId: 1,
      from: FROM,
      to: TO,
    });
  });

  it('partner users export one company of their partner; privileged analysts their scope', async () => {
    const partner = await exportAs('holding', { from: FROM, to: TO, companyId: 2 });
    expect(partner.statusCode).toBe(200);
    const partnerRows = (await rowsOf(partner.rawPayload)).slice(1);
    expect(partnerRows.length).toBe((await list('holding', { companyId: 2 })).total);
    for (const row of partnerRows) expect(row[3]).toBe('PDAM Tirta Pakuan');

    const missing = await exportAs('staff.holding', { from: FROM, to: TO });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ companyId: 'Silahkan Pilih Perusahaan' });

    const analyst = await exportAs('analis.direksi', { from: FROM, to: TO });
    expect(analyst.statusCode).toBe(200);
    const analystRows = (await rowsOf(analyst.rawPayload)).slice(1);
    expect(analystRows.length).toBe((await list('analis.direksi', {})).total);
    for (const row of analystRows) expect(['', 'Jalur Direksi']).toContain(row[5]);
  });

  it('is refused to analysts without the privileged role and to the pelapor', async () => {
    expect((await exportAs('analis.spi', { from: FROM, to: TO })).statusCode).toBe(403);
    expect((await exportAs('pelapor', { from: FROM, to: TO })).statusCode).toBe(403);
    const future = await exportAs('admin.kahuripan', { from: FROM, to: '2099-12-31' });
    expect(future.statusCode).toBe(400);
    expect(future.json().errors).toEqual({ to: 'Tanggal tidak boleh melebihi hari ini' });
  });
});

describe('a company outside the partner', () => {
  it('is 404 for partner users, in the list, the export and the detail', async () => {
    const token = await legacyToken('admin', 'Admin#2026!');
    const legacy = (method: 'POST', url: string, payload: Record<string, unknown>) =>
      t.legacy.app.inject({
        method,
        url: `/api${url}`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
    const company = await legacy('POST', '/CompanyMaster', {
      username: 'admin.mandiri',
      email: 'admin.mandiri@example.id',
      companyName: 'Perumda Air Minum Mandiri',
      companyPhone: '0211234567',
      companyAddress: 'Jl. Mandiri 1',
      provinceId: 32,
      cityId: 3201,
      partnerId: 0,
    });
    const companyId = company.json().data.companyId as number;
    const created = await legacy('POST', '/WBSCase', {
      caseCompanyId: companyId,
      caseCaseCategoryId: 1,
      caseWhistleblowerIsAnonym: 1,
      caseWhistleblowerType: 1,
      caseWhistleblowerEmail: 'anonim@example.id',
      caseWhistleblowerContactNum: '+6281200000',
      caseWhistleblowerCommunicationType: '0',
      caseWhistleblowerCommunicationTime: 'Pagi',
      caseWhat: 'Uji',
      caseWhere: 'Kantor',
      caseWhen: 'Kemarin',
      caseWhoPerpetratorAndPosition: 'X, Staf',
      caseWhatDirectorate: 'Umum',
      caseWhatDivision: 'Umum',
      caseHow: 'Begitu',
    });
    expect(created.json().code, created.body).toBe(1);
    const caseId = created.json().data.caseId as number;
    try {
      const listed = await search('holding', { ...range, companyId });
      expect(listed.statusCode).toBe(404);
      expect(scopeDenials('company', companyId).length).toBeGreaterThan(0);
      const exported = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cases/export',
        headers: browser(await login('holding')),
        payload: { from: FROM, to: TO, companyId },
      });
      expect(exported.statusCode).toBe(404);
      expect((await get('staff.holding', `/cases/${caseId}`)).statusCode).toBe(404);
      expect(scopeDenials('case', caseId).length).toBeGreaterThan(0);
    } finally {
      await t.legacy.reset();
    }
  });
});
