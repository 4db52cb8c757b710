/**
 * What both black-box suites (fault and attack) send: HTTP over loopback with undici, guest report
 * forms built like the wizard's, tiny valid files, and a reader of legacy-sim's persisted store to
 * count what really reached the legacy.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type Dispatcher, FormData, Response, request } from 'undici';
import { makePng, makeZip } from '../e2e/journeys/files.ts';
import { tinyPdf as seedPdf } from '../legacy-sim/src/seed/files.ts';

export type Reply = { status: number; headers: Record<string, string>; text: string; ms: number };

export type Call = {
  method?: string;
  path: string;
  json?: unknown;
  form?: FormData;
  body?: string | Buffer | AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
  cookie?: string;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
};

/** One HTTP exchange; the reply body is read whole. Transport errors are thrown. */
export async function call(baseUrl: string, c: Call): Promise<Reply> {
  const started = performance.now();
  const headers: Record<string, string> = { origin: new URL(baseUrl).origin, ...c.headers };
  if (c.cookie) headers.cookie = c.cookie;
  // An empty value leaves the header out (e.g. a request without Origin).
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
  let body: Call['body'] | FormData | undefined = c.body;
  if (c.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(c.json);
  } else if (c.form) body = c.form;
  const method = c.method ?? (body === undefined ? 'GET' : 'POST');
  let reply: Dispatcher.ResponseData;
  try {
    reply = await request(new URL(c.path, baseUrl), {
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body as never,
      ...(c.dispatcher ? { dispatcher: c.dispatcher } : {}),
      headersTimeout: c.timeoutMs ?? 30_000,
      bodyTimeout: c.timeoutMs ?? 30_000,
    });
  } catch (error) {
    // A server that refuses a request before reading its body (413, 503 `busy`) answers and closes;
    // a client still writing then fails with EPIPE or a reset and never reads the answer. Send the
    // same bytes once more over a plain socket that keeps reading after a failed write.
    const code = (error as { code?: string }).code ?? '';
    const replayable = typeof body === 'string' || Buffer.isBuffer(body) || body instanceof FormData;
    if (!replayable || !['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(code)) throw error;
    return rawExchange(
      new URL(c.path, baseUrl),
      method,
      headers,
      body as string | Buffer | FormData,
      started,
    );
  }
  const text = await reply.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(reply.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: reply.statusCode, headers: flat, text, ms: performance.now() - started };
}

/** One request over a plain socket (Connection: close): whatever the server answered is read, even
 * when it closed before taking the whole body. Only for replies the server sends in one piece. */
async function rawExchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | FormData,
  started: number,
): Promise<Reply> {
  let bytes: Buffer;
  const sent = { ...headers };
  if (body instanceof FormData) {
    const encoded = new Response(body);
    sent['content-type'] = encoded.headers.get('content-type') ?? '';
    bytes = Buffer.from(await encoded.arrayBuffer());
  } else {
    bytes = Buffer.from(body);
  }
  sent['content-length'] = String(bytes.length);
  sent.connection = 'close';
  sent.host = url.host;
  const head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n${Object.entries(sent)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n`;
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname);
    socket.setTimeout(30_000, () => socket.destroy(new Error('raw exchange timed out')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    // Written, not ended: a client that shuts its side after the body has hung up as far as Node's
    // server is concerned, which then drops the request unanswered. `Connection: close` ends the
    // exchange from the server's side once it has answered.
    socket.write(head);
    socket.write(bytes);
  });
  const split = received.indexOf('\r\n\r\n');
  if (split < 0) throw new Error('the server closed without an answer');
  const [statusLine = '', ...headerLines] = received.subarray(0, split).toString('latin1').split('\r\n');
  const flat: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) flat[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = received.subarray(split + 4);
  if (flat['transfer-encoding']?.includes('chunked')) {
    const parts: Buffer[] = [];
    for (;;) {
      const end = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.subarray(0, end).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(rest.subarray(end + 2, end + 2 + size));
      rest = rest.subarray(end + 2 + size + 2);
    }
    rest = Buffer.concat(parts);
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers: flat,
    text: rest.toString('utf8'),
    ms: performance.now() - started,
  };
}

/** The `name=value` pair of a Set-Cookie header, or undefined. */
export function cookieFrom(reply: Reply, name: string): string | undefined {
  for (const line of (reply.headers['set-cookie'] ?? '').split(/,(?=\s*[\w-]+=)/)) {
    const pair = line.trim().split(';')[0] ?? '';
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

/** Signs in through the gateway and returns the session cookie (`wbs_session=…`). */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const reply = await call(baseUrl, { path: '/api/v1/session', json: { username, password } });
  const cookie = cookieFrom(reply, 'wbs_session');
  if (reply.status !== 200 || !cookie)
    throw new Error(`sign-in of ${username}: HTTP ${reply.status} ${reply.text}`);
  return cookie;
}

/** A valid 8×8 PNG of random pixels (sharp re-encodes it). */
export const tinyPng = (): Buffer => makePng('bukti.png').buffer;

/** A minimal one-page PDF (legacy-sim's seed maker). */
export const tinyPdf = (text = 'Bukti'): Buffer => seedPdf(text);

/** A valid zip of one stored entry of `size` bytes; zips are forwarded without scrubbing. */
export const storedZip = (size: number): Buffer => makeZip('bukti.zip', 'bukti.txt', 'x'.repeat(size)).buffer;

export type UploadFile = { field: 'evidence' | 'attachments'; name: string; type: string; bytes: Buffer };

/** The text fields of an anonymous guest report as the wizard sends them; `what` carries a marker. */
export function guestReportFields(
  what: string,
  password: string,
  categoryId: number,
): Record<string, string> {
  return {
    anonymous: 'true',
    reporterType: '1',
    name: '',
    department: '',
    email: 'pelapor.uji@example.com',
    phone: '+6281234567890',
    communicationTypes: '0,2',
    communicationTime: 'Hari kerja 09.00-17.00',
    categoryId: String(categoryId),
    what,
    where: 'Kantor pusat',
    when: 'Oktober 2026',
    perpetrator: 'Inisial AB, Kepala Seksi',
    directorate: 'Direktorat Umum',
    division: 'Divisi Pengadaan',
    how: 'Rekanan memberikan voucher belanja setelah kontrak ditandatangani.',
    involved: '',
    financialLoss: '',
    occurredBefore: '',
    reportedToBefore: '',
    perpetratorResponse: '',
    repeatReason: '',
    identificationReason: '',
    needsProtection: 'false',
    protectionReason: '',
    evidenceLink: '',
    allegedlyInvolved: '[]',
    password,
    confirmPassword: password,
  };
}

export function reportForm(fields: Record<string, string>, files: UploadFile[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

/** A multipart body as bytes (for streaming it at a chosen pace). */
export function multipartBytes(
  fields: Record<string, string>,
  files: UploadFile[],
): { contentType: string; bytes: Buffer } {
  const boundary = `----wbsfault${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(parts) };
}

/** The first category a guest may file under (guests file to company 1). */
export async function guestCategoryId(baseUrl: string): Promise<number> {
  const reply = await call(baseUrl, { path: '/api/v1/case-categories' });
  const items = (JSON.parse(reply.text) as { items?: { id: number }[] }).items ?? [];
  if (reply.status !== 200 || !items[0]) throw new Error(`GET /case-categories: HTTP ${reply.status}`);
  return items[0].id;
}

export type StoredCase = { caseId: number; caseNumber: string; caseWhat: string; attachmentCount: number };

/** The cases legacy-sim has persisted (its store.json), waiting until two reads agree. */
export async function legacyCases(simDataDir: string): Promise<StoredCase[]> {
  const read = async () => {
    const text = await readFile(join(simDataDir, 'store.json'), 'utf8');
    type Raw = {
      caseId: number;
      caseNumber: string;
      fields?: { caseWhat?: string };
      attachments?: unknown[];
    };
    return (JSON.parse(text) as { cases: Raw[] }).cases.map((c) => ({
      caseId: c.caseId,
      caseNumber: c.caseNumber,
      caseWhat: c.fields?.caseWhat ?? '',
      attachmentCount: c.attachments?.length ?? 0,
    }));
  };
  let previous = -1;
  for (let attempt = 0; attempt < 40; attempt++) {
    const cases = await read().catch(() => null);
    if (cases && cases.length === previous) return cases;
    previous = cases?.length ?? -1;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('legacy-sim store.json did not settle');
}

/** Sets legacy-sim's test knobs (LEGACY_SIM_TEST_KNOBS=1). */
export async function setKnobs(simUrl: string, knobs: Record<string, unknown>): Promise<void> {
  const reply = await request(`${simUrl}/__sim/knobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(knobs),
  });
  await reply.body.text();
  if (reply.statusCode !== 200) throw new Error(`knobs: HTTP ${reply.statusCode}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
