/**
 * The one way the web app talks to the gateway (`/api/v1`, same origin, cookie session).
 *
 * Paths, parameters, bodies and replies are typed by the API document: `schema.gen.ts` is generated
 * from openapi/openapi.json by openapi-typescript (`pnpm openapi`), and the requests are made by
 * openapi-fetch. A path or field the gateway renames fails the typecheck of web/, not a screen.
 *
 * Every failure becomes an `ApiError`: RFC 9457 problem+json bodies are parsed into status, type,
 * severity, messages and field errors; a request that never got an answer becomes status 0 with
 * the spec's 'Network Error'. A 401 from a call made on behalf of a signed-in user is reported to
 * the handler the app registers (it clears the session cache and returns to /, or, for a sign-in
 * whose second step is pending, shows that step). A 401 `step-up-required` (an action that wants a
 * recent second factor) goes to the step-up handler instead: it asks for the factor, and the same
 * request is sent once more, so the screen that made it never notices.
 */
import { UI_MESSAGES } from '@wbs/shared/messages';
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
  type MaybeOptionalInit,
  type MethodResponse,
  mergeHeaders,
  type ParamsOption,
  type RequestBodyOption,
} from 'openapi-fetch';
import type { components, paths } from './schema.gen.ts';

type Problem = components['schemas']['Problem'];

export type Severity = NonNullable<Problem['severity']>;

/** A problem body as it may arrive: every member is checked before it is used. */
export type ProblemBody = Partial<Problem>;

const STATUS_TEXT: Record<number, string> = {
  0: UI_MESSAGES.networkError,
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ApiError extends Error {
  readonly status: number;
  /** Problem type name, the last segment of the problem `type` URI (`validation`, `legacy-warning`…). */
  readonly type: string;
  readonly severity: Severity;
  /** Messages to show, in order, without duplicates (legacy messages, else the detail, else a status text). */
  readonly messages: string[];
  /** The problem's title, else the status text: what went wrong in general, where `messages` say why. */
  readonly title: string;
  /** Field → message, from a `validation` problem. */
  readonly fieldErrors: Record<string, string>;
  /** The app's 401 handler took this error (it announces the ended session once): screens stay quiet. */
  handled = false;

  constructor(init: {
    status: number;
    type: string;
    severity: Severity;
    messages: string[];
    title?: string;
    fieldErrors?: Record<string, string>;
  }) {
    super(init.messages.join('\n') || STATUS_TEXT[init.status] || 'Error');
    this.title = init.title ?? (STATUS_TEXT[init.status] || 'Error');
    this.name = 'ApiError';
    this.status = init.status;
    this.type = init.type;
    this.severity = init.severity;
    this.messages = init.messages;
    this.fieldErrors = init.fieldErrors ?? {};
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export function networkError(): ApiError {
  return new ApiError({
    status: 0,
    type: 'network',
    severity: 'error',
    messages: [UI_MESSAGES.networkError],
  });
}

/** A 2xx reply whose body is not the JSON it claims to be. */
const badReply = () =>
  new ApiError({ status: 502, type: 'bad-reply', severity: 'error', messages: ['Bad Gateway'] });

const unique = (items: string[]) => [...new Set(items.map((s) => s.trim()).filter(Boolean))];

/** Builds the error of a non-2xx reply from its status and (possibly empty or non-JSON) body text. */
export function errorFromResponse(status: number, contentType: string | null, bodyText: string): ApiError {
  let problem: ProblemBody | null = null;
  if (bodyText && contentType && /json/i.test(contentType)) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      if (parsed && typeof parsed === 'object') problem = parsed as ProblemBody;
    } catch {
      problem = null;
    }
  }
  const typeUri = typeof problem?.type === 'string' ? problem.type : '';
  const type = typeUri ? (typeUri.split('/').pop() ?? typeUri) : `http-${status}`;
  const fieldErrors =
    problem?.errors && typeof problem.errors === 'object' && !Array.isArray(problem.errors)
      ? Object.fromEntries(
          Object.entries(problem.errors).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : {};
  let messages = Array.isArray(problem?.messages)
    ? unique(problem.messages.filter((m): m is string => typeof m === 'string'))
    : [];
  if (messages.length === 0 && typeof problem?.detail === 'string') messages = unique([problem.detail]);
  if (messages.length === 0 && typeof problem?.title === 'string') messages = unique([problem.title]);
  if (messages.length === 0) messages = [STATUS_TEXT[status] ?? `HTTP ${status}`];
  const severity: Severity = problem?.severity === 'warning' ? 'warning' : 'error';
  const title = typeof problem?.title === 'string' && problem.title.trim() ? problem.title.trim() : undefined;
  return new ApiError({ status, type, severity, messages, fieldErrors, ...(title ? { title } : {}) });
}

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * The app registers what happens on a 401 of a signed-in call (clear session, go to /, snackbar) and
 * on a `password-change-required` problem (go to the forced change-password screen).
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/**
 * Reports a session that ended without a 401 of its own (the session probe found nobody signed in
 * while the app still showed a user): the same sign-out as a 401. False when no handler listens.
 */
export function reportSessionEnded(message: string): boolean {
  if (!unauthorizedHandler) return false;
  unauthorizedHandler(
    new ApiError({ status: 401, type: 'unauthorized', severity: 'error', messages: [message] }),
  );
  return true;
}

/** What the app adds to openapi-fetch's options of a call. */
export type CallOptions = {
  /** false for calls whose 401 is an ordinary answer (session probe, login, tracking). */
  authRedirect?: boolean;
};

/**
 * 401s that belong to a session's second factor, not to the handler's sign-out: the step-up prompt's
 * own (handled in `send`), a refused code or passkey (an ordinary answer of the second-factor step),
 * and the step closed after too many wrong codes (the prompt itself says so and offers to sign in
 * again). `second-factor-required` does reach the handler, which shows the pending step instead of
 * signing out.
 */
const SESSION_LIVES = new Set(['step-up-required', 'second-factor-failed', 'second-factor-locked']);

function report401(error: ApiError, options: CallOptions): void {
  if (options.authRedirect === false || !unauthorizedHandler) return;
  if (error.status !== 401 && error.type !== 'password-change-required') return;
  if (SESSION_LIVES.has(error.type)) return;
  error.handled = true;
  unauthorizedHandler(error);
}

/** Asks for a second factor; true once it was given, false when the user declined. */
type StepUpHandler = (error: ApiError) => Promise<boolean>;
let stepUpHandler: StepUpHandler | null = null;
let stepUpPending: Promise<boolean> | null = null;

/**
 * The app registers the prompt of a 401 `step-up-required` (Verifikasi Ulang). Calls that need it
 * at the same time share one prompt.
 */
export function setStepUpHandler(handler: StepUpHandler | null): void {
  stepUpHandler = handler;
}

function stepUp(handler: StepUpHandler, error: ApiError): Promise<boolean> {
  stepUpPending ??= handler(error)
    .catch(() => false)
    .finally(() => {
      stepUpPending = null;
    });
  return stepUpPending;
}

async function safeText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}

// ---- Types of a call, from the document ------------------------------------------------------

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Api = Client<paths>;

/** The document's paths (with `/api/v1`, `{id}` placeholders) that answer `method`. */
export type ApiPath<M extends Method> = ClientPathsWithMethod<Api, M>;

/** The success reply of an operation, as the document describes it (undefined for 204 No Content). */
export type ApiReply<M extends Method, P extends ApiPath<M>> = [MethodResponse<Api, M, P>] extends [never]
  ? undefined
  : MethodResponse<Api, M, P>;

/** The JSON body of an operation, as the document describes it. */
export type ApiBody<M extends Method, P extends ApiPath<M>> = NonNullable<
  RequestBodyOption<paths[P][M]>['body']
>;

/** openapi-fetch's options of one operation: `params` (path, query, header) and `body`. */
type ApiInit<M extends Method, P extends ApiPath<M>> = MaybeOptionalInit<paths[P], M>;

type RequiredKeys<T> = { [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? never : K }[keyof T];

/**
 * The options argument: required when the operation has required parameters or a required body,
 * so `api.GET('/api/v1/cases/{id}')` without the id does not compile (as in openapi-fetch).
 */
type InitArgs<I> = [RequiredKeys<I>] extends [never] ? [init?: I & CallOptions] : [init: I & CallOptions];

type JsonCall<M extends Method> = <P extends ApiPath<M>, I extends ApiInit<M, P>>(
  path: P,
  ...init: InitArgs<I>
) => Promise<ApiReply<M, P>>;

export type Download = { blob: Blob; fileName: string | null };

type DownloadCall<M extends Method> = <P extends ApiPath<M>, I extends ApiInit<M, P>>(
  path: P,
  ...init: InitArgs<I>
) => Promise<Download>;

// ---- The one request path --------------------------------------------------------------------

const client = createClient<paths>({
  credentials: 'same-origin',
  // Looked up at every call rather than bound once, so the fetch of the page now is the one used.
  fetch: (request) => globalThis.fetch(request),
});

// A failed reply is read here, whatever the call parses a success as (JSON or a file), so a JSON
// call and a download turn the same problem into the same ApiError (an upload: errorFromResponse too).
client.use({
  async onResponse({ response }) {
    if (response.ok) return undefined;
    throw errorFromResponse(response.status, response.headers.get('content-type'), await safeText(response));
  },
});

type AnyInit = CallOptions & { headers?: Record<string, string>; [option: string]: unknown };

/**
 * Sends one request of the document: a JSON call (`Accept: application/json`, reply parsed) or a
 * download (reply as a Blob). Errors: an ApiError of the reply, 502 for a 2xx that is not JSON,
 * Network Error when no answer came; an abort is passed on as it is. A 401 `step-up-required` asks
 * for the second factor and sends the request once more; declined, the call fails quietly (its
 * error is marked handled: nobody asked for a message).
 */
async function send(
  method: Method,
  path: string,
  init: AnyInit | undefined,
  parseAs: 'json' | 'blob',
): Promise<{ data: unknown; response: Response }> {
  try {
    return await sendOnce(method, path, init, parseAs);
  } catch (error) {
    const handler = stepUpHandler;
    if (!(error instanceof ApiError) || error.type !== 'step-up-required' || !handler) throw error;
    if (!(await stepUp(handler, error))) {
      error.handled = true;
      throw error;
    }
  }
  return sendOnce(method, path, init, parseAs);
}

async function sendOnce(
  method: Method,
  path: string,
  init: AnyInit | undefined,
  parseAs: 'json' | 'blob',
): Promise<{ data: unknown; response: Response }> {
  const { authRedirect, headers, ...options } = init ?? {};
  // The typed signatures are the public ones (api, download, read); here the path is any path.
  const request = client.request as unknown as (
    method: Method,
    path: string,
    init: object,
  ) => Promise<{ data?: unknown; response: Response }>;
  try {
    const { data, response } = await request(method, path, {
      ...options,
      headers: parseAs === 'json' ? mergeHeaders({ Accept: 'application/json' }, headers) : headers,
      parseAs,
    });
    return { data, response };
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error =
      cause instanceof ApiError ? cause : cause instanceof SyntaxError ? badReply() : networkError();
    report401(error, { authRedirect });
    throw error;
  }
}

const jsonCall = <M extends Method>(method: M) =>
  (async (path: string, init?: AnyInit) => (await send(method, path, init, 'json')).data) as JsonCall<M>;

const downloadCall = <M extends Method>(method: M) =>
  (async (path: string, init?: AnyInit): Promise<Download> => {
    const { data, response } = await send(method, path, init, 'blob');
    return {
      blob: data as Blob,
      fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
    };
  }) as DownloadCall<M>;

/**
 * JSON calls: `await api.GET('/api/v1/cases/{id}', withId(42))` answers the document's reply
 * (undefined for 204) or throws an ApiError.
 */
export const api = {
  GET: jsonCall('get'),
  POST: jsonCall('post'),
  PUT: jsonCall('put'),
  PATCH: jsonCall('patch'),
  DELETE: jsonCall('delete'),
};

/** File replies (Excel export, audit trail CSV, attachments) as a Blob with the server's file name. */
export const download = {
  GET: downloadCall('get'),
  POST: downloadCall('post'),
};

/**
 * The `{id}` of a path. The document types numeric path parameters as digit strings (the gateway
 * checks them with a pattern), so the app's numeric ids are written out here.
 */
export const withId = (id: number) => ({ params: { path: { id: String(id) } } });

const querySerializer = createQuerySerializer();

/** The URL openapi-fetch requests for `path` with `params` (also the SWR key of a GET). */
function urlOf(path: string, params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }) {
  return createFinalURL(path, {
    baseUrl: '',
    params: params ?? {},
    querySerializer,
    pathSerializer: defaultPathSerializer,
  });
}

/** A GET as an SWR query (see useApi.ts): its cache key is the request's URL. */
export type Query<R> = { key: string | readonly unknown[]; load: () => Promise<R> };

/** The query of a typed GET: `useApi(read('/api/v1/case-statuses'))`. */
export function read<P extends ApiPath<'get'>, I extends ApiInit<'get', P>>(
  path: P,
  ...init: InitArgs<I>
): Query<ApiReply<'get', P>> {
  const [options] = init as [AnyInit | undefined];
  return {
    key: urlOf(path, options?.params as Parameters<typeof urlOf>[1]),
    load: async () => (await send('get', path, options, 'json')).data as ApiReply<'get', P>,
  };
}

export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}

// ---- Uploads ---------------------------------------------------------------------------------

/** The POST paths whose body is multipart/form-data (new case, activity log, Tambah Bukti). */
export type UploadPath = {
  [P in ApiPath<'post'>]: paths[P]['post'] extends {
    requestBody: { content: { 'multipart/form-data': unknown } };
  }
    ? P
    : never;
}[ApiPath<'post'>];

export type UploadOptions<P extends UploadPath> = CallOptions &
  ParamsOption<paths[P]['post']> & {
    headers?: Record<string, string>;
    /** Fraction 0..1 of the request body sent so far (real XHR upload progress). */
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal;
  };

/**
 * Multipart upload through XMLHttpRequest, for real upload progress (fetch reports none); same URL,
 * error contract and 401 handling as `api`. The parts themselves are the caller's FormData.
 */
export function upload<P extends UploadPath>(
  path: P,
  form: FormData,
  options: UploadOptions<P>,
): Promise<ApiReply<'post', P>> {
  type Reply = ApiReply<'post', P>;
  const params = (options as { params?: Parameters<typeof urlOf>[1] }).params;
  return new Promise<Reply>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlOf(path, params));
    xhr.withCredentials = false; // same origin: cookies are sent anyway
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const contentType = xhr.getResponseHeader('content-type');
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        if (!xhr.responseText) return resolve(undefined as Reply);
        try {
          resolve(JSON.parse(xhr.responseText) as Reply);
        } catch {
          reject(badReply());
        }
        return;
      }
      if (xhr.status === 0) return reject(networkError());
      const error = errorFromResponse(xhr.status, contentType, xhr.responseText);
      report401(error, options);
      reject(error);
    };
    xhr.onerror = () => reject(networkError());
    xhr.ontimeout = () => reject(networkError());
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
