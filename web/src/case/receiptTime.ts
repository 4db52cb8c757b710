/** The receipt's time in Western Indonesian Time (WIB, UTC+7, no daylight saving), whatever the browser's zone. */
const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

const two = (n: number) => String(n).padStart(2, '0');

/** e.g. 2026-11-23T04:05Z → "23/11/2026 11:05 WIB" (display format DD/MM/YYYY, as the case detail). */
export function formatWib(date: Date): string {
  const wib = new Date(date.getTime() + WIB_OFFSET_MS);
  return `${two(wib.getUTCDate())}/${two(wib.getUTCMonth() + 1)}/${wib.getUTCFullYear()} ${two(wib.getUTCHours())}:${two(wib.getUTCMinutes())} WIB`;
}
