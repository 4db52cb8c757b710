/** The pure parts of Peta Laporan: boundary matching against the bundled file, "<5", colours, links. */
import { describe, expect, it } from 'vitest';
import topology from './boundaries/indonesia-38-provinces.topo.json';
import {
  areaColor,
  areaText,
  caseAreaHref,
  colorSteps,
  insightFileName,
  isOpenable,
  MAP_COLORS,
  mapViewHref,
  mapViewOf,
  monthLabel,
  provinceIdOf,
} from './model.ts';

// The legacy's 38 provinces (ids = statistics-bureau codes), as legacy-sim seeds them.
const LEGACY = [
  [11, 'Aceh'],
  [12, 'Sumatera Utara'],
  [13, 'Sumatera Barat'],
  [14, 'Riau'],
  [15, 'Jambi'],
  [16, 'Sumatera Selatan'],
  [17, 'Bengkulu'],
  [18, 'Lampung'],
  [19, 'Kepulauan Bangka Belitung'],
  [21, 'Kepulauan Riau'],
  [31, 'Daerah Khusus Ibukota Jakarta'],
  [32, 'Jawa Barat'],
  [33, 'Jawa Tengah'],
  [34, 'Daerah Istimewa Yogyakarta'],
  [35, 'Jawa Timur'],
  [36, 'Banten'],
  [51, 'Bali'],
  [52, 'Nusa Tenggara Barat'],
  [53, 'Nusa Tenggara Timur'],
  [61, 'Kalimantan Barat'],
  [62, 'Kalimantan Tengah'],
  [63, 'Kalimantan Selatan'],
  [64, 'Kalimantan Timur'],
  [65, 'Kalimantan Utara'],
  [71, 'Sulawesi Utara'],
  [72, 'Sulawesi Tengah'],
  [73, 'Sulawesi Selatan'],
  [74, 'Sulawesi Tenggara'],
  [75, 'Gorontalo'],
  [76, 'Sulawesi Barat'],
  [81, 'Maluku'],
  [82, 'Maluku Utara'],
  [91, 'Papua'],
  [92, 'Papua Barat'],
  [93, 'Papua Selatan'],
  [94, 'Papua Tengah'],
  [95, 'Papua Pegunungan'],
  [96, 'Papua Barat Daya'],
].map(([provinceId, provinceName]) => ({
  provinceId: Number(provinceId),
  provinceName: String(provinceName),
}));

describe('provinceIdOf', () => {
  it('gives each of the 38 boundaries a different legacy province, the Papua ones by name', () => {
    const geometries = topology.objects['indonesia-38-prov-topo'].geometries;
    const ids = geometries.map((g) => provinceIdOf(g.properties, LEGACY));
    expect(ids).not.toContain(null);
    expect(new Set(ids).size).toBe(38);
    const byName = new Map(geometries.map((g, i) => [g.properties.PROVINSI, ids[i]]));
    expect(byName.get('Papua Pegunungan')).toBe(95);
    expect(byName.get('Papua Barat Daya')).toBe(96);
    expect(byName.get('DKI Jakarta')).toBe(31);
  });
});

describe('areas', () => {
  it('never gives a small area as a number and opens only counted ones', () => {
    expect(areaText({ total: null, suppressed: true })).toBe('<5');
    expect(areaText({ total: 7, suppressed: false })).toBe('7');
    expect(isOpenable({ total: null, suppressed: true })).toBe(false);
    expect(isOpenable({ total: 0, suppressed: false })).toBe(false);
    expect(isOpenable({ total: 5, suppressed: false })).toBe(true);
  });

  it('colours zero, small and counted areas apart, the largest in the last step', () => {
    const steps = colorSteps(40);
    expect(steps.at(-1)).toBe(40);
    expect(areaColor({ total: 0, suppressed: false }, steps)).toBe(MAP_COLORS.none);
    expect(areaColor({ total: null, suppressed: true }, steps)).toBe(MAP_COLORS.small);
    expect(areaColor({ total: 40, suppressed: false }, steps)).toBe(MAP_COLORS.steps.at(-1));
    expect(areaColor({ total: 5, suppressed: false }, steps)).toBe(MAP_COLORS.steps[0]);
    expect(colorSteps(6)).toEqual([5, 6]);
    expect(colorSteps(4)).toEqual([]);
  });

  it('links an area to the case list over the period, stopping at today', () => {
    const range = { from: '2026-05-01', to: '2026-05-31' };
    expect(caseAreaHref({ provinceId: 32, cityId: 3201 }, range, 2, '2026-05-20')).toBe(
      '/admin/case?province=32&city=3201&company=2&from=2026-05-01&to=2026-05-20',
    );
    expect(caseAreaHref({ unlocated: true }, range, 0, '2026-06-01')).toBe(
      '/admin/case?unlocated=1&from=2026-05-01&to=2026-05-31',
    );
    expect(caseAreaHref({ provinceId: 32 }, range, 0, '2026-04-01')).toBe('/admin/case?province=32');
  });

  it('names files with the period and no characters file systems refuse', () => {
    expect(insightFileName(['Statistik', 'A/B'], { from: '2026-05-01', to: '2026-05-31' }, 'csv')).toBe(
      'Statistik - A-B - 01-05-2026 sd 31-05-2026.csv',
    );
    expect(monthLabel('2026-08')).toBe('Agu 2026');
  });
});

describe("Peta Laporan's view in the address", () => {
  const today = new Date(2026, 4, 14);
  const month = { from: '2026-05-01', to: '2026-05-31' };

  it('reads back what it writes', () => {
    for (const view of [
      { range: { from: '2025-01-01', to: '2026-05-14' }, provinceId: 35 },
      { range: { from: '2026-05-03', to: '2026-05-03' }, provinceId: 0 },
    ]) {
      const href = mapViewHref(view);
      expect(href.startsWith('~/admin/maps?')).toBe(true);
      expect(mapViewOf(href.slice(href.indexOf('?') + 1), today)).toEqual(view);
    }
  });

  it('falls back to the default period and the provinces on anything else', () => {
    const junk = [
      '',
      'from=2026-05-31&to=2026-05-01',
      'from=31/05/2026&to=2026-06-01',
      'from=2026-02-30&to=2026-03-01',
      'to=2026-05-01',
      'province=-3',
      'province=1.5',
      'province=1e400',
      'province=abc',
      `province=${'9'.repeat(40)}`,
      'from=%00&to=%ff&province=%20',
    ];
    for (const search of junk) {
      const view = mapViewOf(search, today);
      expect(view.provinceId, search).toBe(0);
      if (!search.includes('from=2026')) expect(view.range, search).toEqual(month);
    }
    expect(mapViewOf('from=2026-05-31&to=2026-05-01', today).range).toEqual(month);
    expect(mapViewOf('province=32', today)).toEqual({ range: month, provinceId: 32 });
  });
});
