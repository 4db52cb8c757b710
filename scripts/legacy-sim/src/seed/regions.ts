/**
 * Indonesia's provinces, cities (regencies) and districts from the `idn-area-data` package
 * (code MIT, data ODbL — see the README). Codes map to numeric ids by dropping the dots:
 * province '32' → 32, city '32.01' → 3201, district '32.01.01' → 320101.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Province = { provinceId: number; provinceName: string };
export type City = { cityId: number; cityName: string; provinceId: number };
export type District = { districtId: number; districtName: string; cityId: number };

export type Regions = {
  provinces: Province[];
  provinceById: Map<number, Province>;
  cityById: Map<number, City>;
  districtById: Map<number, District>;
  citiesByProvince: Map<number, City[]>;
  districtsByCity: Map<number, District[]>;
};

/** Parses a simple CSV (quoted fields allowed); skips the header. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split(/\r?\n/).slice(1)) {
    if (!line.trim()) continue;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cell);
        cell = '';
      } else cell += ch;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

const toId = (code: string) => Number(code.replaceAll('.', ''));

let cached: Regions | undefined;

export function loadRegions(): Regions {
  if (cached) return cached;
  const dataDir = join(dirname(createRequire(import.meta.url).resolve('idn-area-data/package.json')), 'data');
  const read = (name: string) => parseCsv(readFileSync(join(dataDir, name), 'utf8'));
  const provinces = read('provinces.csv').map(([code = '', name = '']) => ({
    provinceId: toId(code),
    provinceName: name,
  }));
  const cities = read('regencies.csv').map(([code = '', province = '', name = '']) => ({
    cityId: toId(code),
    cityName: name,
    provinceId: toId(province),
  }));
  const districts = read('districts.csv').map(([code = '', city = '', name = '']) => ({
    districtId: toId(code),
    districtName: name,
    cityId: toId(city),
  }));
  const group = <T, K>(items: T[], key: (item: T) => K) => {
    const map = new Map<K, T[]>();
    for (const item of items) {
      const list = map.get(key(item));
      if (list) list.push(item);
      else map.set(key(item), [item]);
    }
    return map;
  };
  cached = {
    provinces,
    provinceById: new Map(provinces.map((p) => [p.provinceId, p])),
    cityById: new Map(cities.map((c) => [c.cityId, c])),
    districtById: new Map(districts.map((d) => [d.districtId, d])),
    citiesByProvince: group(cities, (c) => c.provinceId),
    districtsByCity: group(districts, (d) => d.cityId),
  };
  return cached;
}
