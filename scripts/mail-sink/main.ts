/**
 * CLI: `node scripts/mail-sink/main.ts`. Env: MAIL_SINK_SMTP_PORT and MAIL_SINK_PORT (the web page and
 * API; both 0 by default: free ports), MAIL_SINK_MAX_MESSAGES (200). Prints one JSON line
 * `{"ready":true,"smtpPort":…,"httpPort":…,"url":…,"smtpUrl":…}` once both listen (what a parent
 * process waits for), then one line per mail received (its id only: a mail's addresses and words
 * stay on the page). Stops on SIGTERM or SIGINT.
 */
import { startMailSink } from './sink.ts';

function number(name: string, fallback: number, max: number): number {
  const text = process.env[name]?.trim() || String(fallback);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > max) {
    console.error(`mail-sink: ${name} must be a whole number from 0 to ${max} (got "${text}")`);
    process.exit(1);
  }
  return value;
}

const line = (msg: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level: 30, time: Date.now(), msg, ...fields }));

const sink = await startMailSink({
  smtpPort: number('MAIL_SINK_SMTP_PORT', 0, 65_535),
  httpPort: number('MAIL_SINK_PORT', 0, 65_535),
  maxMessages: Math.max(1, number('MAIL_SINK_MAX_MESSAGES', 200, 100_000)),
  onMessage: (message) =>
    line('mail received', { id: message.id, page: `${sink.url}/messages/${message.id}` }),
}).catch((error: NodeJS.ErrnoException) => {
  console.error(`mail-sink: cannot listen (${error.code ?? error.message})`);
  process.exit(1);
});
line(`mail sink ready: page ${sink.url}, SMTP ${sink.smtpUrl}`, {
  ready: true,
  smtpPort: sink.smtpPort,
  httpPort: sink.httpPort,
  url: sink.url,
  smtpUrl: sink.smtpUrl,
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await sink.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
