/**
 * The mail sink seen from the suites: start it as a process of its own (scripts/mail-sink/main.ts),
 * read what it received, make it refuse for a while, and wait for mails. The gateway under test is
 * pointed at `smtpUrl` (startSystem's `mail` option or SMTP_URL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Refusal, SinkMessage } from '../mail-sink/sink.ts';

export type { Refusal, SinkMessage };

export type SinkProcess = {
  smtpPort: number;
  httpPort: number;
  /** The web page and API base, e.g. http://127.0.0.1:40123. */
  url: string;
  smtpUrl: string;
  pid: number;
  messages(): Promise<SinkMessage[]>;
  clear(): Promise<void>;
  setRefuse(refuse: Refusal, forMs?: number): Promise<void>;
  stop(): Promise<void>;
};

const MAIN = join(import.meta.dirname, '..', 'mail-sink', 'main.ts');

/** Starts the sink as a child process (ports 0: free ones) and resolves once it is listening. */
export async function startSinkProcess(
  options: { smtpPort?: number; httpPort?: number; maxMessages?: number; timeoutMs?: number } = {},
): Promise<SinkProcess> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      MAIL_SINK_SMTP_PORT: String(options.smtpPort ?? 0),
      MAIL_SINK_PORT: String(options.httpPort ?? 0),
      ...(options.maxMessages ? { MAIL_SINK_MAX_MESSAGES: String(options.maxMessages) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
  });
  const ready = await new Promise<{ smtpPort: number; httpPort: number; url: string; smtpUrl: string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the mail sink did not start in time'));
      }, options.timeoutMs ?? 15_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the mail sink stopped while starting (exit ${code}): ${stderr.trim()}`));
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.startsWith('{')) return;
        const entry = JSON.parse(line) as {
          ready?: boolean;
          smtpPort: number;
          httpPort: number;
          url: string;
          smtpUrl: string;
        };
        if (entry.ready) {
          clearTimeout(timer);
          resolve(entry);
        }
      });
    },
  );
  child.removeAllListeners('exit');
  const api = (path: string, init?: RequestInit) => fetch(`${ready.url}${path}`, init);
  return {
    ...ready,
    pid: child.pid ?? 0,
    messages: async () => (await (await api('/api/messages')).json()) as SinkMessage[],
    clear: async () => {
      const reply = await api('/api/messages', { method: 'DELETE' });
      if (reply.status !== 204) throw new Error(`mail sink: clear answered ${reply.status}`);
    },
    setRefuse: (refuse, forMs) => setSinkRefuse(ready.url, refuse, forMs),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The mails a sink (at its page URL) holds, oldest first. */
export async function sinkMessages(sinkUrl: string): Promise<SinkMessage[]> {
  const reply = await fetch(`${sinkUrl}/api/messages`);
  if (reply.status !== 200) throw new Error(`mail sink: messages answered ${reply.status}`);
  return (await reply.json()) as SinkMessage[];
}

/** Makes a sink refuse (4xx `temporary`, 5xx `permanent`) or drop connections; `forMs`: only that long. */
export async function setSinkRefuse(sinkUrl: string, refuse: Refusal, forMs?: number): Promise<void> {
  const reply = await fetch(`${sinkUrl}/api/knobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refuse, ...(forMs === undefined ? {} : { forMs }) }),
  });
  await reply.text();
  if (reply.status !== 200) throw new Error(`mail sink: knobs answered ${reply.status}`);
}

/**
 * Waits until the sink holds at least `count` mails matching `predicate` and returns them (oldest
 * first); rejects after `timeoutMs` saying how many it saw.
 */
export async function waitForMails(
  sinkUrl: string,
  count: number,
  predicate: (message: SinkMessage) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<SinkMessage[]> {
  const deadline = Date.now() + timeoutMs;
  let matching: SinkMessage[] = [];
  for (;;) {
    matching = (await sinkMessages(sinkUrl)).filter(predicate);
    if (matching.length >= count) return matching;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited ${timeoutMs} ms for ${count} mail(s), the sink holds ${matching.length} matching`);
}
