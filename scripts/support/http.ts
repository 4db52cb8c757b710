/**
 * HTTP over loopback with undici, as every black-box suite (fault, attack, replicas) and the e2e
 * set-up send it: one exchange read whole (with a raw-socket replay when the server answers before
 * reading the body), the session cookie of a sign-in, and small timing helpers.
 */
import { connect } from 'node:net';
import { type Dispatcher, FormData, Response, request } from 'undici';
import type { SecondFactorState } from '../../shared/src/api/second-factor.ts';
import { softwarePasskey } from './passkey.ts';

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

/** How long the raw exchange waits for an early answer before it sends the body. */
const EARLY_ANSWER_MS = 5_000;

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
    // This exchange follows a request the server answered before reading its body (a 413, a 503
    // `busy`): the head goes first, and the body only if no answer came within EARLY_ANSWER_MS, in
    // pieces that stop at the first byte of an answer (RFC 9112 §9.5). Written at once, a body the
    // server refused unread ends in a reset whose write error closes this socket before its answer
    // is read (on a loaded machine, on every try). Written, not ended: a client that shuts its side
    // after the body has hung up as far as Node's server is concerned, which then drops the request
    // unanswered; `Connection: close` ends the exchange from the server's side once it has answered.
    const PIECE = 64 * 1024;
    const writeFrom = (offset: number) => {
      if (chunks.length > 0 || offset >= bytes.length || socket.destroyed) return;
      socket.write(bytes.subarray(offset, offset + PIECE), () => writeFrom(offset + PIECE));
    };
    const sendBody = setTimeout(() => writeFrom(0), EARLY_ANSWER_MS);
    socket.once('data', () => clearTimeout(sendBody));
    socket.once('close', () => clearTimeout(sendBody));
    socket.write(head);
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

/** The cookies a client keeps between the steps of a sign-in: the newest value of each, none cleared. */
export class CookieJar {
  readonly #pairs = new Map<string, string>();

  /** Takes every Set-Cookie of a reply: a new value replaces the old, an emptied one is dropped. */
  take(reply: Reply): void {
    for (const line of (reply.headers['set-cookie'] ?? '').split(/,(?=\s*[\w-]+=)/)) {
      const pair = line.trim().split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const cleared = eq === pair.length - 1 || /max-age=0\b|expires=thu, 01 jan 1970/i.test(line);
      if (cleared) this.#pairs.delete(name);
      else this.#pairs.set(name, pair);
    }
  }

  /** `name=value` of one cookie, or undefined. */
  get(name: string): string | undefined {
    return this.#pairs.get(name);
  }

  /** The Cookie header of everything kept. */
  header(): string {
    return [...this.#pairs.values()].join('; ');
  }
}

export type SignInStep = 'password' | 'enrol-options' | 'enrol' | 'challenge' | 'verify';

export type SignInOptions = {
  /**
   * The system's PUBLIC_URL: the origin a browser would be on, which the passkey signs for (the
   * gateway accepts that origin only). Default: `baseUrl` (a suite calling 127.0.0.1 while the
   * system's PUBLIC_URL is `http://localhost:<port>` must say so).
   */
  publicUrl?: string;
  /** Extra headers of a step (a client address, a User-Agent, a replica pick). */
  headers?: (step: SignInStep) => Record<string, string>;
  /** Sees each step's reply (e.g. which replica answered it). */
  onReply?: (step: SignInStep, reply: Reply) => void;
  /**
   * The gateway may be one from before the second factor (a benchmark's baseline revision): a reply
   * without `secondFactor` is then a full session. Otherwise that reply is an error.
   */
  acceptNoSecondFactor?: boolean;
};

/** A session after the password step: its cookies and where the second factor stands. */
export type PasswordSession = {
  jar: CookieJar;
  /** `wbs_session=…` as the gateway set it last. */
  cookie: string;
  secondFactor: SecondFactorState;
  reply: Reply;
};

export class SignInError extends Error {}

function parsed<T>(reply: Reply, what: string): T {
  try {
    return JSON.parse(reply.text) as T;
  } catch {
    throw new SignInError(`${what}: HTTP ${reply.status}, not JSON`);
  }
}

/**
 * POST /api/v1/session with the password alone: a session that is, unless the user's type needs no
 * factor and none is enrolled, still waiting for its second factor (`verify` or `enrol`).
 */
export async function passwordSignIn(
  baseUrl: string,
  username: string,
  password: string,
  options: SignInOptions = {},
): Promise<PasswordSession> {
  const jar = new CookieJar();
  const reply = await call(baseUrl, {
    path: '/api/v1/session',
    json: { username, password },
    headers: options.headers?.('password') ?? {},
  });
  options.onReply?.('password', reply);
  jar.take(reply);
  const cookie = jar.get('wbs_session');
  if (reply.status !== 200 || !cookie)
    throw new SignInError(`sign-in of ${username}: HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
  const body = parsed<{ secondFactor?: SecondFactorState }>(reply, `sign-in of ${username}`);
  if (body.secondFactor) return { jar, cookie, secondFactor: body.secondFactor, reply };
  if (!options.acceptNoSecondFactor)
    throw new SignInError(`sign-in of ${username}: no secondFactor in the reply`);
  const done: SecondFactorState = {
    status: 'done',
    required: false,
    methods: [],
    recoveryCodesLeft: 0,
    stepUpUntil: null,
  };
  return { jar, cookie, secondFactor: done, reply };
}

/** A signed-in session whose second factor is done. */
export type FullSession = {
  cookie: string;
  secondFactor: SecondFactorState;
  /** Recovery codes handed out when this sign-in enrolled the account's first factor, else null. */
  recoveryCodes: string[] | null;
};

/**
 * Completes the second factor of a password session with the user's software passkey
 * (support/passkey.ts): `enrol` registers it (the account's first factor), `verify` signs with it.
 */
export async function completeSecondFactor(
  baseUrl: string,
  username: string,
  session: PasswordSession,
  options: SignInOptions = {},
): Promise<FullSession> {
  const { jar } = session;
  const origin = new URL(options.publicUrl ?? baseUrl).origin;
  const passkey = softwarePasskey(username, { origin });
  const step = async (name: SignInStep, path: string, json: unknown): Promise<Reply> => {
    const reply = await call(baseUrl, {
      path,
      json,
      cookie: jar.header(),
      headers: options.headers?.(name) ?? {},
    });
    options.onReply?.(name, reply);
    jar.take(reply);
    const ok = reply.status === 200 || reply.status === 201;
    if (!ok)
      throw new SignInError(`${name} step of ${username}: HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    return reply;
  };
  let secondFactor = session.secondFactor;
  let recoveryCodes: string[] | null = null;
  if (secondFactor.status === 'enrol') {
    const { options: creation } = parsed<{ options: Record<string, unknown> }>(
      await step('enrol-options', '/api/v1/account/second-factors/passkeys/options', {}),
      `passkey options of ${username}`,
    );
    const added = parsed<{ secondFactor: SecondFactorState; recoveryCodes: string[] | null }>(
      await step('enrol', '/api/v1/account/second-factors/passkeys', {
        name: 'Passkey uji',
        response: passkey.register(creation),
      }),
      `passkey enrolment of ${username}`,
    );
    secondFactor = added.secondFactor;
    recoveryCodes = added.recoveryCodes;
  } else if (secondFactor.status === 'verify') {
    if (!secondFactor.methods.includes('passkey'))
      throw new SignInError(`${username} has no passkey to sign in with (methods: ${secondFactor.methods})`);
    const { options: request } = parsed<{ options: Record<string, unknown> }>(
      await step('challenge', '/api/v1/session/second-factor/challenge', {}),
      `passkey challenge of ${username}`,
    );
    secondFactor = parsed<{ secondFactor: SecondFactorState }>(
      await step('verify', '/api/v1/session/second-factor', {
        method: 'passkey',
        response: passkey.authenticate(request),
      }),
      `second factor of ${username}`,
    ).secondFactor;
  }
  if (secondFactor.status !== 'done')
    throw new SignInError(`second factor of ${username}: still ${secondFactor.status}`);
  const cookie = jar.get('wbs_session');
  if (!cookie) throw new SignInError(`second factor of ${username}: no session cookie left`);
  return { cookie, secondFactor, recoveryCodes };
}

/**
 * Signs in through the gateway as a browser does (password, then the second factor with the user's
 * software passkey: registered on the first sign-in of an account that must have one) and returns the
 * session cookie (`wbs_session=…`).
 */
export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
  options: SignInOptions = {},
): Promise<string> {
  return (await signInFully(baseUrl, username, password, options)).cookie;
}

/** As signIn, with the second-factor state and any recovery codes the enrolment handed out. */
export async function signInFully(
  baseUrl: string,
  username: string,
  password: string,
  options: SignInOptions = {},
): Promise<FullSession> {
  const session = await passwordSignIn(baseUrl, username, password, options);
  return completeSecondFactor(baseUrl, username, session, options);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
