/**
 * Peta Laporan through the real app against legacy-sim, on PostgreSQL and PGlite: the figures equal
 * what legacy-sim's own store says (computed here, not by the gateway's code); an area of 1 to 4
 * reports is never a number, cannot be drilled into and cannot be listed (generated areas); the scope
 * follows the session (an analyst its line and the unrouted, partner users their partner's companies,
 * another company 404); guests 401, the pelapor 403; the case list's area filters.
 */
import { randomUUID } from 'node:crypto';
import { MAP_DEMO_CASES } from '@wbs/legacy-sim';
import type { MapCitiesReply, MapProvincesReply } from '@wbs/shared/api/insights';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoAccount, demoLogins, ORIGIN, type TestApp } from '../../test/helpers.ts';
import { legacyDesk } from '../../test/legacy-cases.ts';

const SERVICE = { LEGACY_SERVICE_USERNAME: 'admin', LEGACY_SERVICE_PASSWORD: demoAccount('admin').password };
const WIB = 7 * 3_600_000;
const wibDay = (ms: number) => new Date(ms + WIB).toISOString().slice(0, 10);

/** The current month (WIB), the dashboard's default range. */
function currentMonth(): { from: string; to: string } {
  const today = wibDay(Date.now());
  return { from: `${today.slice(0, 8)}01`, to: today };
}

type SimCase = ReturnType<TestApp['legacy']['cases']>[number];

/** What legacy-sim's store says of a report's place: a province and city, or Tanpa lokasi. */
function placeOf(c: SimCase): { provinceId: number; cityId: number | null } | null {
  const f = c.fields;
  if (Number(f.caseWhistleblowerIsAnonym) !== 0 || f.caseWhistleblowerProvinceId == null) return null;
  return {
    provinceId: Number(f.caseWhistleblowerProvinceId),
    cityId: f.caseWhistleblowerCityId == null ? null : Number(f.caseWhistleblowerCityId),
  };
}

const shown = (n: number) =>
  n >= 1 && n <= 4 ? { total: null, suppressed: true } : { total: n, suppressed: false };

describe.each(ENGINES)('Peta Laporan on $engine', ({ engine }) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  const login = demoLogins(() => t.app);
  const range = currentMonth();
  const get = async (username: string | null, url: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: username === null ? { origin: ORIGIN } : browser(await login(username)),
    });
  const search = async (username: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: browser(await login(username)),
      payload: { ...range, ...body },
    });
  const q = (extra = '') => `?from=${range.from}&to=${range.to}${extra}`;
  /** Every case of legacy-sim filed in the range, of these companies (and lines, for an analyst). */
  const simCases = (companyIds: number[], line?: number) =>
    t.legacy
      .cases()
      .filter((c) => companyIds.includes(c.companyId))
      .filter((c) => wibDay(c.created) >= range.from && wibDay(c.created) <= range.to)
      .filter((c) => line === undefined || c.lineId === null || c.lineId === line);
  /** The whole index in step: every detail read. */
  const catchUp = async () => {
    await t.app.caseIndex.poll({ detailBackfill: 10_000 });
    const report = await t.app.caseIndex.poll({ detailBackfill: 10_000 });
    expect(report.backfilled).toBe(0);
  };

  beforeAll(async () => {
    const store = await storeTestEnv(engine);
    drop = store.drop;
    t = await buildTestApp({ ...store.env, ...SERVICE, RATE_LIMIT_NAMESPACE: `test-maps-${randomUUID()}` });
    expect((await t.app.caseIndex.poll()).complete).toBe(true);
    await catchUp();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('lets every staff type in, the pelapor 403 and a guest 401', async () => {
    const urls = [`/maps/provinces${q()}`, `/maps/provinces/35/cities${q()}`, `/statistics${q()}`];
    for (const url of urls) {
      expect((await get(null, url)).statusCode, url).toBe(401);
      expect((await get('pelapor', url)).statusCode, url).toBe(403);
      for (const user of ['admin', 'admin.kahuripan', 'holding', 'analis.direksi', 'staff.holding']) {
        expect((await get(user, url)).statusCode, `${user} ${url}`).toBe(200);
      }
    }
  });

  it("shows the company's reports per province as legacy-sim's store has them, small ones as <5", async () => {
    const res = await get('admin.kahuripan', `/maps/provinces${q()}`);
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as MapProvincesReply;
    const cases = simCases([1]);
    const byProvince = new Map<number, number>();
    let unlocated = 0;
    for (const c of cases) {
      const place = placeOf(c);
      if (!place) unlocated += 1;
      else byProvince.set(place.provinceId, (byProvince.get(place.provinceId) ?? 0) + 1);
    }
    expect(reply).toMatchObject({ ...range, companyId: 1, total: cases.length, unlocated, unread: 0 });
    expect(reply.companies).toEqual([{ companyId: 1, companyName: 'Perumda Air Minum Tirta Kahuripan' }]);
    expect(reply.provinces).toHaveLength(38);
    for (const p of reply.provinces) {
      expect({ id: p.provinceId, total: p.total, suppressed: p.suppressed }).toEqual({
        id: p.provinceId,
        ...shown(byProvince.get(p.provinceId) ?? 0),
      });
    }
    // The demo: Jawa Timur counted, Bali "<5", Tanpa lokasi holds the anonymous reports.
    const jatim = MAP_DEMO_CASES.filter((d) => d.provinceId === 35).length;
    expect(reply.provinces.find((p) => p.provinceId === 35)).toMatchObject({
      total: jatim,
      suppressed: false,
    });
    expect(reply.provinces.find((p) => p.provinceId === 51)).toMatchObject({ total: null, suppressed: true });
    expect(reply.unlocated).toBeGreaterThanOrEqual(
      MAP_DEMO_CASES.filter((d) => d.provinceId === null).length,
    );
  });

  it('drills into a province of 5 or more, ranks its cities and refuses a small one with 409', async () => {
    const res = await get('admin.kahuripan', `/maps/provinces/35/cities${q()}`);
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json() as MapCitiesReply;
    expect(reply).toMatchObject({ provinceId: 35, provinceName: 'Jawa Timur', total: 7, unlocated: 0 });
    expect(reply.cities).toEqual([
      { cityId: 3578, cityName: 'Kota Surabaya', total: 5, suppressed: false },
      { cityId: 3573, cityName: 'Kota Malang', total: null, suppressed: true },
    ]);
    const small = await get('admin.kahuripan', `/maps/provinces/51/cities${q()}`);
    expect(small.statusCode).toBe(409);
    expect(small.json()).toMatchObject({
      type: expect.stringMatching(/area-too-small$/),
      detail: PROBLEM_MESSAGES.areaTooSmall,
    });
    expect(small.body).not.toMatch(/\b2\b/);
    expect((await get('admin.kahuripan', `/maps/provinces/9999/cities${q()}`)).statusCode).toBe(404);
    expect((await get('admin.kahuripan', `/maps/provinces/abc/cities${q()}`)).statusCode).toBe(400);
    expect((await get('admin.kahuripan', '/maps/provinces?from=2026-02-30&to=2026-03-01')).statusCode).toBe(
      400,
    );
  });

  it('follows the scope of the session: the analyst its line and the unrouted, partners theirs, another company 404', async () => {
    // Jalur SPI (line 3): none of the demo's handled reports (line 1), every unrouted one.
    const spi = (await get('analis.spi', `/maps/provinces${q()}`)).json() as MapProvincesReply;
    expect(spi.total).toBe(simCases([1], 3).length);
    expect(spi.total).toBeLessThan(simCases([1]).length);
    const direksi = (await get('analis.direksi', `/maps/provinces${q()}`)).json() as MapProvincesReply;
    expect(direksi.total).toBe(simCases([1], 1).length);
    expect((await get('analis.spi', `/maps/provinces${q('&companyId=2')}`)).statusCode).toBe(404);
    expect((await get('admin.kahuripan', `/maps/provinces${q('&companyId=2')}`)).statusCode).toBe(404);
    // Partner users: all of their partner's companies, or one of them; a company not theirs is 404.
    const all = (await get('holding', `/maps/provinces${q()}`)).json() as MapProvincesReply;
    expect(all.companyId).toBeNull();
    expect(all.companies.map((c) => c.companyId)).toEqual([1, 2, 3]);
    expect(all.total).toBe(simCases([1, 2, 3]).length);
    const one = (
      await get('staff.holding', `/maps/provinces${q('&companyId=2')}`)
    ).json() as MapProvincesReply;
    expect(one.total).toBe(simCases([2]).length);
    expect((await get('holding', `/maps/provinces${q('&companyId=99')}`)).statusCode).toBe(404);
    const group = (await get('admin', `/maps/provinces${q()}`)).json() as MapProvincesReply;
    expect(group.total).toBe(simCases([1, 2, 3]).length);
    expect((await get('admin', `/maps/provinces${q('&companyId=99')}`)).statusCode).toBe(404);
  });

  it("lists an area's cases through the index, and refuses a small area with 409", async () => {
    const jatim = await search('admin.kahuripan', { provinceId: 35 });
    expect(jatim.statusCode, jatim.body).toBe(200);
    expect(jatim.json()).toMatchObject({ total: 7 });
    expect(jatim.json().items).toHaveLength(7);
    const surabaya = await search('admin.kahuripan', { provinceId: 35, cityId: 3578, pageSize: 2 });
    expect(surabaya.json()).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(surabaya.json().items).toHaveLength(2);
    const unlocated = simCases([1]).filter((c) => !placeOf(c)).length;
    expect((await search('admin.kahuripan', { unlocated: true })).json().total).toBe(unlocated);
    for (const small of [{ provinceId: 51 }, { provinceId: 35, cityId: 3573 }]) {
      const res = await search('admin.kahuripan', small);
      expect(res.statusCode, JSON.stringify(small)).toBe(409);
      expect(res.json().detail).toBe(PROBLEM_MESSAGES.areaTooSmall);
    }
    // The analyst's list by area stays its own: line 3 holds none of the handled demo reports.
    const spi = await search('analis.spi', { provinceId: 35 });
    const spiCount = simCases([1], 3).filter((c) => placeOf(c)?.provinceId === 35).length;
    expect(spi.statusCode).toBe(spiCount >= 1 && spiCount <= 4 ? 409 : 200);
    if (spi.statusCode === 200) expect(spi.json().total).toBe(spiCount);
    // What the index cannot combine with an area: 400, with the reason.
    expect((await search('admin.kahuripan', { provinceId: 35, search: 'x' })).statusCode).toBe(400);
  });

  it('never gives a number for an area of 1 to 4 reports, nor drills into it or lists it (generated)', async () => {
    const desk = legacyDesk(t);
    // Provinces the seed leaves empty, one per run, with their first regency.
    const free = [11, 12, 13, 14, 15, 16, 17, 18];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), async (n) => {
        const provinceId = free.shift()!;
        const cityId = provinceId * 100 + 1;
        for (let i = 0; i < n; i++) await desk.file(1, { anonymous: false, provinceId, cityId });
        await catchUp();
        const map = (await get('admin.kahuripan', `/maps/provinces${q()}`)).json() as MapProvincesReply;
        const entry = map.provinces.find((p) => p.provinceId === provinceId);
        expect(entry).toMatchObject({ total: null, suppressed: true });
        expect(JSON.stringify(entry)).not.toMatch(new RegExp(`:${n}[,}]`));
        expect((await get('admin.kahuripan', `/maps/provinces/${provinceId}/cities${q()}`)).statusCode).toBe(
          409,
        );
        expect((await search('admin.kahuripan', { provinceId })).statusCode).toBe(409);
        expect((await search('admin.kahuripan', { provinceId, cityId })).statusCode).toBe(409);
        // The group's view as well: the same few reports are as small there.
        const group = (await get('holding', `/maps/provinces${q()}`)).json() as MapProvincesReply;
        expect(group.provinces.find((p) => p.provinceId === provinceId)).toMatchObject({ total: null });
      }),
      { numRuns: 4 },
    );
  }, 120_000);
});
