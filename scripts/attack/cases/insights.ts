/**
 * Peta Laporan and Statistik: guests and the pelapor are refused on every route; a company outside
 * the caller's scope is 404 and learns nothing; hostile query values are 400, never a 5xx; an area
 * the map shows as "<5" is never a number anywhere, cannot be drilled into or listed; the CSV export
 * runs no formula and its name holds no complaint number.
 */
import { type AttackCase, expect, json, type Reply, type Tools } from '../support.ts';

const WIB = 7 * 3_600_000;
const today = () => new Date(Date.now() + WIB).toISOString().slice(0, 10);
const range = () => `from=${today().slice(0, 8)}01&to=${today()}`;
/** The same range as a case search body's fields. */
const days = () => ({ from: `${today().slice(0, 8)}01`, to: today() });

const ROUTES = (q: string) => [
  `/api/v1/maps/provinces?${q}`,
  `/api/v1/maps/provinces/35/cities?${q}`,
  `/api/v1/statistics?${q}`,
  `/api/v1/statistics/export?${q}&format=csv`,
];

type Provinces = { provinces: { provinceId: number; total: number | null; suppressed: boolean }[] };

/** The map, waiting while the case index has not swept the scope once (503 `busy`). */
async function mapOf(t: Tools, as: string, q: string): Promise<Reply> {
  for (let i = 0; i < 60; i++) {
    const reply = await t.send({ as, path: `/api/v1/maps/provinces?${q}` });
    if (reply.status !== 503) return reply;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the map stayed 503');
}

export const insightsCases: AttackCase[] = [
  {
    area: 'insights',
    name: 'a guest is 401 and the pelapor 403 on every map and statistics route, learning nothing',
    async run(t) {
      for (const path of ROUTES(range())) {
        const guest = await t.send({ path });
        expect(guest.status === 401, `a guest's ${path} answered ${guest.status}`);
        const pelapor = await t.send({ as: 'pelapor', path });
        expect(pelapor.status === 403, `the pelapor's ${path} answered ${pelapor.status}`);
        for (const reply of [guest, pelapor]) {
          expect(!/provinceName|filed|Bagian/.test(reply.text), `${path} leaked figures`);
        }
      }
    },
  },
  {
    area: 'insights',
    name: 'a company outside the scope is 404 for company users, analysts, partners and the administrator',
    async run(t) {
      const probes: [string, number][] = [
        ['admin.kahuripan', 2],
        ['admin.pakuan', 1],
        ['analis.direksi', 2],
        ['analis.spi', 3],
        ['holding', 99],
        ['staff.holding', 999999],
        ['admin', 99],
      ];
      for (const [as, companyId] of probes) {
        for (const path of ROUTES(`${range()}&companyId=${companyId}`)) {
          const reply = await t.send({ as, path });
          expect(reply.status === 404, `${as} ${path} answered ${reply.status}`);
          expect(!/provinceName|"filed"|Bagian/.test(reply.text), `${as} ${path} leaked figures`);
        }
        const search = await t.send({
          as,
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...days(), companyId, provinceId: 35 },
        });
        expect(
          search.status === 404,
          `${as} search of company ${companyId} by area answered ${search.status}`,
        );
      }
    },
  },
  {
    area: 'insights',
    name: 'hostile query values are refused with 400, never a 5xx',
    async run(t) {
      const bad = [
        'from=2026-02-30&to=2026-03-01',
        'from=2026-03-01&to=2026-02-01',
        `${range()}&companyId=1%20or%201=1`,
        `${range()}&companyId=-1`,
        `${range()}&companyId=1e3`,
        `${range()}&companyId=0x1`,
        "from=2026-01-01'--&to=2026-01-31",
        'from=&to=',
      ];
      for (const q of bad) {
        for (const path of ROUTES(q)) {
          const reply = await t.send({ as: 'holding', path });
          expect(reply.status === 400, `${path} answered ${reply.status}`);
        }
      }
      for (const id of ['0', '-1', '1e3', '%2e%2e', '99999999999', '35;drop']) {
        const reply = await t.send({
          as: 'admin.kahuripan',
          path: `/api/v1/maps/provinces/${id}/cities?${range()}`,
        });
        expect(reply.status === 400 || reply.status === 404, `province ${id} answered ${reply.status}`);
      }
      for (const format of ['pdf', 'xlsx%00', '../../etc/passwd', 'CSV']) {
        const reply = await t.send({
          as: 'admin.kahuripan',
          path: `/api/v1/statistics/export?${range()}&format=${format}`,
        });
        expect(reply.status === 400, `format ${format} answered ${reply.status}`);
      }
      for (const body of [
        { provinceId: '35 or 1=1' },
        { cityId: -1 },
        { unlocated: 'yes' },
        { provinceId: 35, search: 'x' },
      ]) {
        const reply = await t.send({
          as: 'admin.kahuripan',
          method: 'POST',
          path: '/api/v1/cases/search',
          json: { ...days(), ...body },
        });
        expect(reply.status === 400, `search ${JSON.stringify(body)} answered ${reply.status}`);
      }
    },
  },
  {
    area: 'insights',
    name: 'an area shown as <5 is never a number, cannot be drilled into and cannot be listed',
    async run(t) {
      const q = range();
      for (const as of ['admin.kahuripan', 'holding', 'analis.spi']) {
        const map = await mapOf(t, as, q);
        expect(map.status === 200, `${as}'s map answered ${map.status}`);
        const { provinces } = json<Provinces>(map);
        for (const p of provinces) {
          expect(p.suppressed === (p.total === null), `${as}: province ${p.provinceId} is half suppressed`);
          if (!p.suppressed && p.total === 0) continue;
          const cities = await t.send({ as, path: `/api/v1/maps/provinces/${p.provinceId}/cities?${q}` });
          // The case list is one company's: asked by the company users (a partner's needs a company).
          const list = await t.send({
            as,
            method: 'POST',
            path: '/api/v1/cases/search',
            json: { ...days(), provinceId: p.provinceId },
          });
          if (p.suppressed) {
            expect(cities.status === 409, `${as}: small province ${p.provinceId} drilled: ${cities.status}`);
            if (as !== 'holding') {
              expect(list.status === 409, `${as}: small province ${p.provinceId} listed: ${list.status}`);
            }
            expect(!/"total":\s*[1-4]\b/.test(cities.text + list.text), `${as}: a small count leaked`);
          } else {
            expect(cities.status === 200, `${as}: province ${p.provinceId} answered ${cities.status}`);
            const { cities: rows } = json<{ cities: { total: number | null; suppressed: boolean }[] }>(
              cities,
            );
            for (const c of rows) {
              expect(
                c.suppressed === (c.total === null) && (c.total === null || c.total >= 5),
                `${as}: a city of 1 to 4`,
              );
            }
          }
        }
      }
    },
  },
  {
    area: 'insights',
    name: 'the statistics CSV runs no formula and its name holds the range, never a complaint number',
    async run(t) {
      const reply = await t.send({ as: 'holding', path: `/api/v1/statistics/export?${range()}&format=csv` });
      expect(reply.status === 200, `export answered ${reply.status}`);
      const name = reply.headers['content-disposition'] ?? '';
      expect(name.includes(today()), `file name without the range: ${name}`);
      expect(!/WBS-\d/.test(name), `file name holds a complaint number: ${name}`);
      for (const line of reply.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')) {
        for (const cell of line.match(/"(?:[^"]|"")*"/g) ?? []) {
          expect(!/^"[=+\-@\t\r]/.test(cell), `a cell a spreadsheet would run: ${cell}`);
        }
      }
    },
  },
];
