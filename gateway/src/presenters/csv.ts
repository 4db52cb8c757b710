/**
 * One CSV cell (RFC 4180): always quoted, and a cell a spreadsheet would take as a formula (starting
 * with = + - @, a tab or a carriage return) prefixed with an apostrophe (OWASP's CSV-injection advice).
 * Every CSV the gateway writes (the audit trail, the statistics) goes through it.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}
