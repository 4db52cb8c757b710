/**
 * The reporter's province and city of a case as legacy region ids (Peta Laporan,
 * docs/product/insights.md). The spec promises only `caseProvince.provinceName` and
 * `caseCity.cityName` in a case detail: a nested id the legacy sends is taken as it is, a name is
 * matched against the legacy's own region lists (GET /Province, GET /city/{provinceId}, read
 * through the reference cache). An anonymous report carries no location, whatever the detail holds.
 */
import type { LegacyCase } from '../legacy/case-schemas.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { cities, provinces } from '../legacy/reference.ts';

export type CaseLocation = { provinceId: number | null; cityId: number | null };

/** Names compare without case, surrounding or doubled spaces ("KOTA  Bandung" is "Kota Bandung"). */
const keyOf = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('id');

/**
 * Where the reporter of `c` is, as ids; nulls for an anonymous report or one naming no province (or
 * a name the lists do not hold). Throws when a region list the match needs cannot be read: the
 * caller tries again at another poll rather than keep a location it could not look up.
 */
export async function locationOf(
  legacy: LegacyCaller,
  c: LegacyCase,
  anonymous: boolean | null,
): Promise<CaseLocation> {
  if (anonymous !== false) return { provinceId: null, cityId: null };
  let provinceId = c.caseProvince?.provinceId ?? null;
  const provinceName = c.caseProvince?.provinceName?.trim() || null;
  if (provinceId === null && provinceName !== null) {
    const key = keyOf(provinceName);
    provinceId = (await provinces(legacy)).find((p) => keyOf(p.provinceName) === key)?.provinceId ?? null;
  }
  if (provinceId === null) return { provinceId: null, cityId: null };
  let cityId = c.caseCity?.cityId ?? null;
  const cityName = c.caseCity?.cityName?.trim() || null;
  if (cityId === null && cityName !== null) {
    const key = keyOf(cityName);
    cityId = (await cities(legacy, provinceId)).find((x) => keyOf(x.cityName) === key)?.cityId ?? null;
  }
  return { provinceId, cityId };
}
