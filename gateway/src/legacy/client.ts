/**
 * The undici client of the legacy WBS API and the ONE place that maps legacy replies to ours:
 * transport failures, HTTP statuses and the `{ code, message, data }` envelope become either data or
 * an `ApiProblem`. Every reply is validated against a valibot schema of the legacy shape (through
 * fast-check.ts: the same check, quicker); a shape we do not expect is a 502 `legacy-bad-reply` plus
 * an ops log line naming the call.
 *
 * `call()` is for JSON replies (with a JSON body, or a prepared one such as an upload's undici
 * `FormData`); `stream()` returns the raw undici reply (status checked) for binary downloads.
 */
import type { Readable } from 'node:stream';
import { LEGACY_CODE } from '@wbs/shared/constants';
import type { FastifyBaseLogger } from 'fastify';
import { type Dispatcher, Pool, errors as undiciErrors } from 'undici';
import * as v from 'valibot';
import type { Config } from '../config.ts';
import { ApiProblem } from '../errors.ts';
import { arrayOf, checkLegacy } from './fast-check.ts';
import { envelopeSchema, tableEnvelopeSchema } from './schemas.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who the legacy call is made for: the bearer token and the user id (logout needs the id). */
export type LegacyAuth = { token: string; userId: number };

/** Per-request context: request id, logger, latency accounting. */
export type CallContext = {
  requestId: string;
  log: FastifyBaseLogger;
  /** Called after each call with its latency, so the response line carries the total. */
  onLatency?: (ms: number) => void;
  /** Called after each call with its name and outcome (metrics). */
  onCall?: (name: string, outcome: string, ms: number) => void;
};

export type LegacyCall<T> = {
  /** Stable name for logs, e.g. `PartnerMaster.list`. */
  name: string;
  method: HttpMethod;
  /** Path below the API base, starting with '/'; ids already encoded by the caller via `seg()`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body. */
  json?: unknown;
  /**
   * Or a prepared body, e.g. an undici `FormData` of an upload. Such calls get only the idle
   * timeouts, not the total bound: sending tens of megabytes may rightly take longer than it.
   */
  body?: Dispatcher.DispatchOptions['body'];
  headers?: Record<string, string>;
  auth?: LegacyAuth | null;
  /** Valibot schema of the envelope's `data`. */
  data: v.GenericSchema<unknown, T>;
};

export type TableCall<T> = Omit<LegacyCall<T>, 'data'> & { row: v.GenericSchema<unknown, T> };

export type LegacyResult<T> = { data: T; messages: string[] };
export type TableResult<T> = { rows: T[]; total: number; filtered: number; messages: string[] };

export type StreamCall = Omit<LegacyCall<unknown>, 'data' | 'json'>;

const MAX_JSON_BYTES = 20 * 1024 * 1024;

class ReplyTooLarge extends Error {
  constructor() {
    super('legacy reply too large');
  }
}

/**
 * A reply body read whole, refused (and the connection's stream destroyed) past `max` bytes. Read by
 * its events: `for await` made an async iterator, end-of-stream watcher and promises per reply, about
 * a tenth of a small reply's garbage. Decoded straight from the one chunk a small reply usually
 * arrives in: no concatenated copy. Settles whatever happens to the stream: a body already closed, or
 * closed without an error before its end, is refused rather than waited for.
 */
export function readCapped(body: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (body.destroyed) {
      // Its 'error' may still be on its way: heard here, so it cannot go unhandled.
      body.on('error', () => undefined);
      reject(body.errored ?? new Error('legacy reply closed before it was read'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      settled = true;
      body.destroy();
      reject(new ReplyTooLarge());
    });
    body.once('end', () => {
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    body.once('error', (error) => {
      settled = true;
      reject(error);
    });
    // 'close' follows every 'end': an Error built there each time (its stack captured) cost about
    // 30 µs a legacy call, so it is built only for a reply really cut off.
    body.once('close', () => {
      if (!settled) reject(new Error('legacy reply cut off'));
    });
  });
}

/** Encodes one path segment (ids from our validated params, but never trusted blindly). */
export const seg = (value: string | number) => encodeURIComponent(String(value));

const unique = (messages: readonly string[]) => [
  ...new Set(messages.map((m) => m.trim()).filter((m) => m !== '')),
];

/** The legacy's message for a record it does not have (code 0), on every master and case call. */
const LEGACY_NOT_FOUND = 'Data tidak ditemukan';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (current as { errors?: unknown[] }).errors?.[0];
    current = nested ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Transport failure → 503 (unreachable) or 504 (too slow). */
export function transportProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const code = errorCode(error);
  const name = (error as { name?: string })?.name;
  if (
    (code && TIMEOUT_CODES.has(code)) ||
    name === 'TimeoutError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  ) {
    return new ApiProblem('legacy-timeout', { cause: code ?? name });
  }
  if (code && UNAVAILABLE_CODES.has(code)) return new ApiProblem('legacy-unavailable', { cause: code });
  return new ApiProblem('legacy-unavailable', { cause: code ?? name ?? 'unknown transport error' });
}

export class LegacyClient {
  readonly #pool: Dispatcher;
  readonly #ownsPool: boolean;
  readonly #basePath: string;
  readonly #timeoutMs: number;

  constructor(config: Pick<Config, 'legacyApiUrl' | 'legacyTimeoutMs'>, dispatcher?: Dispatcher) {
    const url = new URL(config.legacyApiUrl);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#timeoutMs = config.legacyTimeoutMs;
    this.#ownsPool = !dispatcher;
    this.#pool =
      dispatcher ??
      new Pool(url.origin, {
        connections: 64,
        pipelining: 1,
        headersTimeout: config.legacyTimeoutMs,
        bodyTimeout: config.legacyTimeoutMs,
        connectTimeout: Math.min(config.legacyTimeoutMs, 5_000),
        keepAliveTimeout: 4_000,
      });
    this.origin = url.origin;
  }

  /** Origin of the legacy API (for the dispatcher of `stream()` users; never sent to clients). */
  readonly origin: string;

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.close();
  }

  #path(call: { path: string; query?: Record<string, string | number | undefined> }): string {
    let path = `${this.#basePath}${call.path}`;
    if (call.query) {
      const params = new URLSearchParams();
      for (const [k, value] of Object.entries(call.query)) {
        if (value !== undefined) params.set(k, String(value));
      }
      const qs = params.toString();
      if (qs) path += `?${qs}`;
    }
    return path;
  }

  #headers(ctx: CallContext, call: { auth?: LegacyAuth | null; headers?: Record<string, string> }) {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-request-id': ctx.requestId,
      ...call.headers,
    };
    if (call.auth) headers.authorization = `Bearer ${call.auth.token}`;
    return headers;
  }

  /** Sends a request; returns the raw reply with its status checked (2xx), body not yet read. */
  async #send(
    ctx: CallContext,
    call: StreamCall & { json?: unknown; bounded?: boolean },
  ): Promise<{ reply: Dispatcher.ResponseData; started: number }> {
    const started = performance.now();
    const headers = this.#headers(ctx, call);
    let body = call.body;
    if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    }
    let reply: Dispatcher.ResponseData;
    try {
      reply = await this.#pool.request({
        origin: this.origin,
        method: call.method,
        path: this.#path(call),
        headers,
        body: body ?? null,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        // JSON calls get a hard total bound (native timer, precise); streams only the idle timeouts.
        ...(call.bounded === false ? {} : { signal: AbortSignal.timeout(this.#timeoutMs) }),
      });
    } catch (error) {
      const problem = transportProblem(error);
      this.#logCall(ctx, call, started, null, problem.type);
      throw problem;
    }
    if (reply.statusCode >= 200 && reply.statusCode < 300) return { reply, started };
    const problem = await this.#statusProblem(ctx, call, reply);
    this.#logCall(ctx, call, started, reply.statusCode, problem.type);
    throw problem;
  }

  /** Non-2xx legacy status → our problem. The legacy body is never passed through as is. */
  async #statusProblem(
    ctx: CallContext,
    call: { name: string },
    reply: Dispatcher.ResponseData,
  ): Promise<ApiProblem> {
    const status = reply.statusCode;
    let parsed: unknown = null;
    try {
      const text = await reply.body.text();
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; the status alone decides
    }
    if (status === 401) return new ApiProblem('unauthorized');
    if (status === 403) return new ApiProblem('forbidden');
    if (status === 404) return new ApiProblem('not-found');
    if (status === 400 || status === 409 || status === 422) {
      const messages = legacyErrorTexts(parsed);
      if (messages.length > 0) return new ApiProblem('legacy-error', { severity: 'error', messages });
      ctx.log.error({ legacyCall: call.name, legacyStatus: status }, 'legacy refused the request');
      return new ApiProblem('legacy-bad-reply', { cause: `legacy status ${status}` });
    }
    if (status === 502 || status === 503 || status === 504) {
      return new ApiProblem('legacy-unavailable', { cause: `legacy status ${status}` });
    }
    ctx.log.error({ legacyCall: call.name, legacyStatus: status }, 'legacy answered with an error status');
    return new ApiProblem('legacy-bad-reply', { cause: `legacy status ${status}` });
  }

  #logCall(
    ctx: CallContext,
    call: { name: string; method: string },
    started: number,
    status: number | null,
    outcome: string,
  ) {
    const ms = performance.now() - started;
    ctx.onLatency?.(ms);
    ctx.onCall?.(call.name, outcome, ms);
    ctx.log.debug(
      {
        legacyCall: call.name,
        legacyMethod: call.method,
        legacyStatus: status,
        legacyMs: Math.round(ms * 10) / 10,
        outcome,
      },
      'legacy call',
    );
  }

  async #readJson(
    ctx: CallContext,
    call: { name: string },
    reply: Dispatcher.ResponseData,
  ): Promise<unknown> {
    try {
      const bytes = await readCapped(reply.body, MAX_JSON_BYTES);
      return JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      if (error instanceof ApiProblem) throw error;
      const problem = transportProblem(error);
      if (problem.type === 'legacy-timeout') throw problem;
      const reason = error instanceof ReplyTooLarge ? 'reply too large' : 'reply is not JSON';
      ctx.log.error({ legacyCall: call.name, reason }, 'legacy bad reply');
      throw new ApiProblem('legacy-bad-reply', { cause: reason });
    }
  }

  #badShape(ctx: CallContext, call: { name: string }, issues: readonly v.BaseIssue<unknown>[]): ApiProblem {
    // Field paths and the expected type only: valibot's `received` quotes the legacy's values, and a
    // case reply holds reporter identity and report text, which must never reach the ops logs.
    ctx.log.error(
      {
        legacyCall: call.name,
        reason: 'unexpected shape',
        issues: issues
          .slice(0, 5)
          .map((i) => `${v.getDotPath(i) ?? '(root)'}: expected ${i.expected ?? i.kind}`),
      },
      'legacy bad reply',
    );
    return new ApiProblem('legacy-bad-reply', { cause: 'unexpected shape' });
  }

  /**
   * Legacy code → our outcome: 1 passes, 0 is a warning, -1 an error (both 422, legacy messages); a
   * refusal whose only message is the legacy's "not found" is a 404 `not-found`, as for any missing record.
   */
  #checkCode(code: number, messages: string[]) {
    if (code === LEGACY_CODE.SUCCESS) return;
    if (messages.length > 0 && messages.every((m) => m === LEGACY_NOT_FOUND))
      throw new ApiProblem('not-found');
    const severity = code === LEGACY_CODE.WARNING ? 'warning' : 'error';
    throw new ApiProblem(severity === 'warning' ? 'legacy-warning' : 'legacy-error', {
      severity,
      messages: unique(messages),
      detail: unique(messages).join('\n') || undefined,
    });
  }

  /** A JSON call with the generic envelope; returns the validated `data` and the messages. */
  async call<T>(ctx: CallContext, call: LegacyCall<T>): Promise<LegacyResult<T>> {
    const { reply, started } = await this.#send(ctx, { ...call, bounded: call.body === undefined });
    const raw = await this.#readJson(ctx, call, reply);
    const envelope = checkLegacy(envelopeSchema, raw);
    if (!envelope.success) {
      this.#logCall(ctx, call, started, reply.statusCode, 'bad-reply');
      throw this.#badShape(ctx, call, envelope.issues);
    }
    const messages = envelope.output.message;
    this.#logCall(ctx, call, started, reply.statusCode, `code ${envelope.output.code}`);
    this.#checkCode(envelope.output.code, messages);
    const data = checkLegacy(call.data, envelope.output.data);
    if (!data.success) throw this.#badShape(ctx, call, data.issues);
    return { data: data.output, messages };
  }

  /** A server-side table call: `{ code, message, data: rows, draw, recordsTotal, recordsFiltered }`. */
  async table<T>(ctx: CallContext, call: TableCall<T>): Promise<TableResult<T>> {
    const { reply, started } = await this.#send(ctx, call);
    const raw = await this.#readJson(ctx, call, reply);
    const envelope = checkLegacy(tableEnvelopeSchema, raw);
    if (!envelope.success) {
      this.#logCall(ctx, call, started, reply.statusCode, 'bad-reply');
      throw this.#badShape(ctx, call, envelope.issues);
    }
    const { code, message, data, recordsTotal, recordsFiltered } = envelope.output;
    this.#logCall(ctx, call, started, reply.statusCode, `code ${code}`);
    this.#checkCode(code, message);
    const rows = checkLegacy(arrayOf(call.row), data ?? []);
    if (!rows.success) throw this.#badShape(ctx, call, rows.issues);
    return {
      rows: rows.output,
      total: recordsTotal ?? rows.output.length,
      filtered: recordsFiltered ?? recordsTotal ?? rows.output.length,
      messages: message,
    };
  }

  /**
   * A call whose reply is passed on as a stream (downloads) or whose body is a stream (uploads).
   * The caller must consume or destroy `reply.body`.
   */
  async stream(ctx: CallContext, call: StreamCall): Promise<Dispatcher.ResponseData> {
    const { reply, started } = await this.#send(ctx, { ...call, bounded: false });
    this.#logCall(ctx, call, started, reply.statusCode, 'stream');
    return reply;
  }

  /** Cheap reachability probe for /readyz: any HTTP answer counts as reachable. */
  async probe(path: string, timeoutMs: number): Promise<boolean> {
    try {
      const reply = await this.#pool.request({
        origin: this.origin,
        method: 'GET',
        path: `${this.#basePath}${path}`,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await reply.body.dump();
      return reply.statusCode < 500;
    } catch {
      return false;
    }
  }
}

/** Texts of a legacy 400 (ASP.NET style `{ errors: { field: [text] } }`) or an envelope's messages. */
function legacyErrorTexts(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const out: string[] = [];
  const { errors, message } = body as { errors?: unknown; message?: unknown };
  if (errors && typeof errors === 'object') {
    for (const value of Object.values(errors)) {
      if (Array.isArray(value)) out.push(...value.filter((x): x is string => typeof x === 'string'));
      else if (typeof value === 'string') out.push(value);
    }
  }
  if (Array.isArray(message)) out.push(...message.filter((x): x is string => typeof x === 'string'));
  return unique(out);
}
