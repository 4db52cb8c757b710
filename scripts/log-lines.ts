/**
 * One output line of a child process of `pnpm start`, marked with the process it came from. On a
 * terminal: pino JSON made readable (pino-pretty) behind a `[gateway]`/`[legacy-sim]` tag. Otherwise
 * (a file, a log collector): one JSON object per line with a `service` field; a plain text line
 * becomes such an object too, so the stream stays machine-readable.
 */
import { prettyFactory } from 'pino-pretty';

const prettify = prettyFactory({
  colorize: true,
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname',
});
const TAG_WIDTH = 'legacy-sim'.length + 2;

function parsed(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The line to print, or null for a blank one. */
export function formatLogLine(service: string, line: string, pretty: boolean): string | null {
  if (line.trim() === '') return null;
  const entry = parsed(line);
  if (pretty) {
    const tag = `[${service}]`.padEnd(TAG_WIDTH);
    return `${tag} ${entry ? prettify(entry).trimEnd() : line}`;
  }
  if (entry) return JSON.stringify({ service, ...entry });
  return JSON.stringify({ service, level: 30, time: Date.now(), msg: line });
}
