/** Dates as the legacy writes them: local Jakarta time (WIB, UTC+7) without a zone, e.g. '2026-05-03T08:15:00'. */

const WIB_OFFSET_MS = 7 * 3600_000;

export function formatWib(ms: number): string {
  return new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19);
}

/** 'YYYY-MM-DD HH.mm.ss' (export file names). */
export function formatFileStamp(ms: number): string {
  const iso = formatWib(ms);
  return `${iso.slice(0, 10)} ${iso.slice(11).replaceAll(':', '.')}`;
}

function wibDayStart(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d) - WIB_OFFSET_MS;
}

/**
 * Parses 'YYYY/MM/DD-YYYY/MM/DD' (also '-' or ' - ' separated, and 'YYYY-MM-DD' days) into
 * [start, end) epoch ms, both days inclusive. Returns null when absent or unreadable.
 */
export function parseRange(value: unknown): [number, number] | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const days = value.match(/\d{4}[/-]\d{1,2}[/-]\d{1,2}/g);
  if (days?.length !== 2) return null;
  const [from, to] = days.map((day) => day.split(/[/-]/).map(Number)) as [number[], number[]];
  const start = wibDayStart(from[0]!, from[1]!, from[2]!);
  const end = wibDayStart(to[0]!, to[1]!, to[2]!) + 86_400_000;
  return Number.isFinite(start) && Number.isFinite(end) ? [start, end] : null;
}

/**
 * The WIB wall-clock time as a Date whose UTC fields are WIB's: spreadsheet dates carry no zone, and
 * exceljs writes a Date's UTC fields, so the cell shows the time a WIB reader expects.
 */
export function wibWallClock(ms: number): Date {
  return new Date(ms + WIB_OFFSET_MS);
}
