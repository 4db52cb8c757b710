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

export function isValidIsoDate(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
}

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
