/** Date helpers: display DD/MM/YYYY, legacy API range 'YYYY/MM/DD-YYYY/MM/DD', ISO dates in our API. */

export type IsoDate = string; // YYYY-MM-DD

const pad = (n: number) => String(n).padStart(2, '0');

export function toIsoDate(d: Date): IsoDate {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function isoToDisplay(iso: IsoDate): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

export function displayToIso(display: string): IsoDate | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(display.trim());
  if (!match) return null;
  const [, d, m, y] = match;
  const iso = `${y}-${m}-${d}`;
  return isValidIsoDate(iso) ? iso : null;
}

/** A real calendar day written YYYY-MM-DD (years 0000–9999) as [year, month, day], else null. */
export function parseIsoDate(iso: string): [number, number, number] | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7));
  const day = Number(iso.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return [year, month, day];
}

/** A real calendar day written YYYY-MM-DD (years 0000–9999). */
export const isValidIsoDate = (iso: string): boolean => parseIsoDate(iso) !== null;

/**
 * The calendar days every date input of the API accepts, both inclusive (docs/product/handling.md#dates). The reports
 * this system holds start in this century and none will be filed after it; a day outside is a typo
 * or a probe, and taking it on fails further in: year 1 in WIB is year 0 in UTC, which PostgreSQL
 * refuses (the audit-trail export answered 503), and the legacy's own date parsing is unknown.
 */
export const SUPPORTED_DAYS = { min: '2000-01-01', max: '2099-12-31' } as const;

/** A real calendar day within SUPPORTED_DAYS (ISO days compare correctly as text). */
export const isSupportedIsoDate = (iso: string): boolean =>
  isValidIsoDate(iso) && iso >= SUPPORTED_DAYS.min && iso <= SUPPORTED_DAYS.max;

/** Legacy `DatePeriodRange` / `rangeDate` from two ISO dates. */
export function toLegacyRange(from: IsoDate, to: IsoDate): string {
  return `${from.replaceAll('-', '/')}-${to.replaceAll('-', '/')}`;
}

/** Dashboard default: first to last day of the current month. */
export function currentMonthRange(today = new Date()): { from: IsoDate; to: IsoDate } {
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  const last = new Date(today.getFullYear(), today.getMonth() + 1, 0);
  return { from: toIsoDate(first), to: toIsoDate(last) };
}

/** Case-list default: start of the current month to today. */
export function monthToDateRange(today = new Date()): { from: IsoDate; to: IsoDate } {
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  return { from: toIsoDate(first), to: toIsoDate(today) };
}

// Calendar arithmetic on day numbers, not Date objects: a case list checks its dates and computes two
// deadlines per row, and building, normalising and printing Dates was the list's largest own cost.

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Days in month `m` (1–12) of year `y` (proleptic Gregorian). */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date of a day number (inverse of daysFromCivil). */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
