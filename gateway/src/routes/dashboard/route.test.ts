import { SEED_STATUS, SEED_STATUSES } from '@wbs/legacy-sim';
import type {
  DashboardCompaniesReply,
  DashboardOpenCasesReply,
  DashboardSummaryReply,
} from '@wbs/shared/api/dashboard';
import { toIsoDate, toLegacyRange } from '@wbs/shared/dates';
import { FIELD_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, legacyCall, signIn, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
/** A company of a second partner (legacy-sim seeds one partner, owning companies 1–3). */
let foreignCompanyId: number;
const cookies: Record<string, string> = {};

// The seed spreads 200 cases over the last 12 months: this range holds all of them.
const now = new Date();
const FROM = toIsoDate(new Date(now.getFullYear() - 2, now.getMonth(), 1));
const TO = toIsoDate(new Date(now.getFullYear(), now.getMonth() + 1, 0));
const FINAL_STATUS_IDS: number[] = [SEED_STATUS.REJECTED, SEED_STATUS.CLOSED];

beforeAll(async () => {
  t = await buildTestApp();
  const place = { provinceId: 31, cityId: 3171 };
  const partner = await legacyCall<{ partnerId: number }>(t, 'POST', '/PartnerMaster', {
    username: 'partner.dasbor',
    email: 'partner.dasbor@wbs.example.id',
    partnerName: 'Partner Dasbor',
    partnerPhone: '0211234',
    partnerAddress: 'Jl. Lain',
    ...place,
  });
  const company = await legacyCall<{ companyId: number }>(t, 'POST', '/CompanyMaster', {
    username: 'admin.dasbor',
    email: 'admin.dasbor@wbs.example.id',
    companyName: 'Perusahaan Dasbor',
    companyPhone: '0215678',
    companyAddress: 'Jl. Lain',
    partnerId: partner.data.partnerId,
    ...place,
  });
  if (partner.code !== 1 || company.code !== 1) throw new Error('set-up of a second partner failed');
  foreignCompanyId = company.data.companyId;
  cookies.companyAdmin = await signIn(t.app, 'admin.kahuripan', 'Perusahaan#2026!');
  cookies.companyAdmin2 = await signIn(t.app, 'admin.pakuan', 'Perusahaan#2026!');
  cookies.companyStaff = await signIn(t.app, 'analis.direksi', 'Analis#2026!');
  cookies.partner = await signIn(t.app, 'holding', 'Partner#2026!');
  cookies.partnerStaff = await signIn(t.app, 'staff.holding', 'Staff#2026!');
});
afterAll(async () => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: cookie ? { cookie } : {} });

/**
 * How many cases the legacy's own case table holds for a company and filters: an independent count
 * (the table, not the dashboard aggregation) to check the dashboard numbers against.
 */
async function tableCount(companyId: number, filters: Record<string, unknown> = {}): Promise<number> {
  const reply = (await legacyCall(t, 'POST', `/WBSCase/company/admin/${companyId}`, {
    draw: 1,
    start: 0,
    length: 1,
    ...filters,
  })) as unknown as { code: number; recordsFiltered: number };
  expect(reply.code).toBe(1);
  return reply.recordsFiltered;
}

const scopeDenials = () => t.logs.filter((l) => l.audit === true && l.event === 'scope-denied').length;

describe('GET /dashboard/summary', () => {
  it('gives a company admin its own company, with totals equal to the legacy case table', async () => {
    const res = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookies.companyAdmin);
    expect(res.statusCode).toBe(200);
    const body = res.json<DashboardSummaryReply>();
    expect(body).toMatchObject({ companyId: 1, companyName: 'Perumda Air Minum Tirta Kahuripan' });
    expect(body).toMatchObject({ from: FROM, to: TO });
    const rangeDate = toLegacyRange(FROM, TO);
    expect(body.total).toBe(await tableCount(1, { rangeDate }));
    expect(body.total).toBeGreaterThan(0);
    expect(body.byStatus.reduce((n, s) => n + s.total, 0)).toBe(body.total);
    expect(body.byCategory.reduce((n, c) => n + c.total, 0)).toBe(body.total);
    expect(body.byStatus.map((s) => s.id)).toEqual(SEED_STATUSES.map((s) => s.caseStatusId));
    for (const status of body.byStatus) {
      expect(status.total, status.name).toBe(await tableCount(1, { rangeDate, caseCaseStatusId: status.id }));
    }
    expect(body.byCategory).toHaveLength(9);
    for (const category of body.byCategory) {
      expect(category.total, category.name).toBe(
        await tableCount(1, { rangeDate, caseCaseCategoryId: category.id }),
      );
    }
  });

  it('counts only the days of the range, both inclusive', async () => {
    const day = toIsoDate(now);
    const res = await get(`/dashboard/summary?from=${day}&to=${day}`, cookies.companyAdmin);
    expect(res.statusCode).toBe(200);
    expect(res.json<DashboardSummaryReply>().total).toBe(
      await tableCount(1, { rangeDate: toLegacyRange(day, day) }),
    );
    const wide = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookies.companyAdmin);
    const month = await get(`/dashboard/summary?from=${TO.slice(0, 8)}01&to=${TO}`, cookies.companyAdmin);
    expect(month.json<DashboardSummaryReply>().total).toBeLessThan(wide.json<DashboardSummaryReply>().total);
  });

  it('gives company staff (type 4) the same company-wide numbers as its admin', async () => {
    const staff = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookies.companyStaff);
    const admin = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookies.companyAdmin);
    expect(staff.statusCode).toBe(200);
    expect(staff.json()).toEqual(admin.json());
  });

  it('accepts a company user naming its own company and answers 404 (+ audit) for another one', async () => {
    const own = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=2`, cookies.companyAdmin2);
    expect(own.statusCode).toBe(200);
    expect(own.json<DashboardSummaryReply>().companyId).toBe(2);
    const before = scopeDenials();
    const other = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=1`, cookies.companyAdmin2);
    expect(other.statusCode).toBe(404);
    expect(other.json().type).toMatch(/not-found$/);
    expect(scopeDenials()).toBe(before + 1);
    const staff = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=2`, cookies.companyStaff);
    expect(staff.statusCode).toBe(404);
  });

  it('needs a company of the partner from partner users (types 3 and 5)', async () => {
    for (const cookie of [cookies.partner, cookies.partnerStaff]) {
      const missing = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookie);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual({ companyId: UI_MESSAGES.choosePartnerCompany });

      const res = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=2`, cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json<DashboardSummaryReply>();
      expect(body).toMatchObject({ companyId: 2, companyName: 'PDAM Tirta Pakuan' });
      const rangeDate = toLegacyRange(FROM, TO);
      expect(body.total).toBe(await tableCount(2, { rangeDate }));
      expect(body.byStatus.reduce((n, s) => n + s.total, 0)).toBe(body.total);
      const fraud = body.byCategory[0]!;
      expect(fraud.total).toBe(await tableCount(2, { rangeDate, caseCaseCategoryId: fraud.id }));
    }
  });

  it('answers 404 (+ audit) to a partner user naming a company of another partner', async () => {
    const before = scopeDenials();
    const res = await get(
      `/dashboard/summary?from=${FROM}&to=${TO}&companyId=${foreignCompanyId}`,
      cookies.partner,
    );
    expect(res.statusCode).toBe(404);
    expect(scopeDenials()).toBe(before + 1);
    const unknown = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=999`, cookies.partnerStaff);
    expect(unknown.statusCode).toBe(404);
  });

  it('validates the range with the Indonesian field messages', async () => {
    const cases: [string, Record<string, string>][] = [
      ['', { from: FIELD_MESSAGES.dateFromRequired }],
      [`from=${FROM}`, { to: FIELD_MESSAGES.dateToRequired }],
      ['from=2026-02-30&to=2026-03-01', { from: FIELD_MESSAGES.dateInvalid }],
      ['from=01/03/2026&to=2026-03-31', { from: FIELD_MESSAGES.dateInvalid }],
      ['from=2026-03-01&to=2026-3-31', { to: FIELD_MESSAGES.dateInvalid }],
      ['from=2026-04-01&to=2026-03-31', { from: FIELD_MESSAGES.dateRangeInvalid }],
    ];
    for (const [query, errors] of cases) {
      const res = await get(`/dashboard/summary?${query}`, cookies.companyAdmin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors, query).toMatchObject(errors);
    }
    const badId = await get(`/dashboard/summary?from=${FROM}&to=${TO}&companyId=abc`, cookies.partner);
    expect(badId.statusCode).toBe(400);
    const sameDay = await get('/dashboard/summary?from=2026-03-31&to=2026-03-31', cookies.companyAdmin);
    expect(sameDay.statusCode).toBe(200);
  });
});

describe('GET /dashboard/companies', () => {
  it('gives partner users every company of their partner with its count in the range', async () => {
    for (const cookie of [cookies.partner, cookies.partnerStaff]) {
      const res = await get(`/dashboard/companies?from=${FROM}&to=${TO}`, cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json<DashboardCompaniesReply>();
      expect(body.items.map((c) => c.id)).toEqual([1, 2, 3]);
      const rangeDate = toLegacyRange(FROM, TO);
      for (const company of body.items) {
        expect(company.total, company.name).toBe(await tableCount(company.id, { rangeDate }));
      }
      expect(body.total).toBe(body.items.reduce((n, c) => n + c.total, 0));
      expect(body.total).toBeGreaterThan(0);
    }
  });

  it('answers 404 (+ audit) to company users: the overview is the partner’s', async () => {
    const before = scopeDenials();
    for (const cookie of [cookies.companyAdmin, cookies.companyStaff]) {
      const res = await get(`/dashboard/companies?from=${FROM}&to=${TO}`, cookie);
      expect(res.statusCode).toBe(404);
    }
    expect(scopeDenials()).toBe(before + 2);
  });

  it('validates the range', async () => {
    const res = await get(`/dashboard/companies?from=${TO}&to=${FROM}`, cookies.partner);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ from: FIELD_MESSAGES.dateRangeInvalid });
  });
});

describe('GET /dashboard/open-cases', () => {
  /** Open (not final) cases of a company, whenever filed, counted by the legacy case table. */
  async function expectOpenCasesOf(companyId: number, body: DashboardOpenCasesReply) {
    expect(body.companyId).toBe(companyId);
    expect(body.statuses.map((s) => s.id)).toEqual(
      SEED_STATUSES.filter((s) => !FINAL_STATUS_IDS.includes(s.caseStatusId)).map((s) => s.caseStatusId),
    );
    const finals = await Promise.all(
      FINAL_STATUS_IDS.map((id) => tableCount(companyId, { caseCaseStatusId: id })),
    );
    expect(body.total).toBe((await tableCount(companyId)) - finals.reduce((n, c) => n + c, 0));
    expect(body.total).toBeGreaterThan(0);
    for (const category of body.categories) {
      expect(category.total).toBeGreaterThan(0);
      expect(category.byStatus.map((s) => s.statusId)).toEqual(body.statuses.map((s) => s.id));
      for (const cell of category.byStatus) {
        expect(cell.total, `${category.name} × ${cell.statusId}`).toBe(
          await tableCount(companyId, { caseCaseCategoryId: category.id, caseCaseStatusId: cell.statusId }),
        );
      }
    }
  }

  it('gives company users (types 2 and 4) the open cases of their company', async () => {
    for (const cookie of [cookies.companyAdmin, cookies.companyStaff]) {
      const res = await get('/dashboard/open-cases', cookie);
      expect(res.statusCode).toBe(200);
      await expectOpenCasesOf(1, res.json());
    }
    const other = await get('/dashboard/open-cases?companyId=2', cookies.companyAdmin);
    expect(other.statusCode).toBe(404);
  });

  it('gives partner users (types 3 and 5) the open cases of the company they name', async () => {
    for (const cookie of [cookies.partner, cookies.partnerStaff]) {
      const missing = await get('/dashboard/open-cases', cookie);
      expect(missing.statusCode).toBe(400);
      const res = await get('/dashboard/open-cases?companyId=3', cookie);
      expect(res.statusCode).toBe(200);
      await expectOpenCasesOf(3, res.json());
    }
    const foreign = await get(`/dashboard/open-cases?companyId=${foreignCompanyId}`, cookies.partner);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('an empty range', () => {
  it('answers zeros for every status and category, and no companies with reports', async () => {
    const range = 'from=2001-01-01&to=2001-01-31';
    const summary = await get(`/dashboard/summary?${range}`, cookies.companyAdmin);
    expect(summary.statusCode).toBe(200);
    const body = summary.json<DashboardSummaryReply>();
    expect(body.total).toBe(0);
    expect(body.byStatus).toHaveLength(12);
    expect(body.byCategory).toHaveLength(9);
    expect([...body.byStatus, ...body.byCategory].every((c) => c.total === 0)).toBe(true);
    const companies = await get(`/dashboard/companies?${range}`, cookies.partner);
    expect(companies.json<DashboardCompaniesReply>().total).toBe(0);
  });
});

describe('who may read the dashboard', () => {
  const urls = [
    `/dashboard/summary?from=${FROM}&to=${TO}&companyId=1`,
    `/dashboard/companies?from=${FROM}&to=${TO}`,
    '/dashboard/open-cases?companyId=1',
  ];

  it('refuses guests (401), the administrator and whistleblowers (403) as the matrix says', async () => {
    const admin = await signInAs(t.app, 1);
    const whistleblower = await signInAs(t.app, 6);
    for (const url of urls) {
      expect((await get(url)).statusCode, url).toBe(401);
      expect((await get(url, admin)).statusCode, url).toBe(403);
      expect((await get(url, whistleblower)).statusCode, url).toBe(403);
    }
    expect(t.logs.some((l) => l.audit === true && l.event === 'permission-denied')).toBe(true);
  });

  it('maps a legacy outage to 503 with a neutral message', async () => {
    t.legacy.setKnobs({ down: true });
    try {
      const res = await get(`/dashboard/summary?from=${FROM}&to=${TO}`, cookies.companyAdmin);
      expect(res.statusCode).toBe(503);
      expect(res.json().type).toMatch(/legacy-unavailable$/);
    } finally {
      t.legacy.setKnobs({});
    }
  });
});
