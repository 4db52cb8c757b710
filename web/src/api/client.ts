/**
 * The one way the web app talks to the gateway (`/api/v1`, same origin, cookie session).
 *
 * Every failure becomes an `ApiError`: RFC 9457 problem+json bodies are parsed into status, type,
 * severity, messages and field errors; a request that never got an answer becomes status 0 with
 * the spec's 'Network Error'. A 401 from a call made on behalf of a signed-in user is reported to
 * the handler the app registers (it clears the session cache and returns to /).
 */
import { UI_MESSAGES } from '@wbs/shared/messages';

export const API_BASE = '/api/v1';

export type Severity = 'warning' | 'error';

export type ProblemBody = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  severity?: Severity;
  messages?: string[];
  errors?: Record<string, string>;
};

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
  /** Field → message, from a `validation` problem. */
  readonly fieldErrors: Record<string, string>;
  /** The app's 401 handler took this error (it announces the ended session once): screens stay quiet. */
  handled = false;

  constructor(init: {
    status: number;
    type: string;
    severity: Severity;
    messages: string[];
    fieldErrors?: Record<string, string>;
  }) {
    super(init.messages.join('\n') || STATUS_TEXT[init.status] || 'Error');
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
  return new ApiError({ status, type, severity, messages, fieldErrors });
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

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false for calls whose 401 is an ordinary answer (session probe, login, tracking). */
  authRedirect?: boolean;
};

function report401(error: ApiError, options: { authRedirect?: boolean }): void {
  if (options.authRedirect === false || !unauthorizedHandler) return;
  if (error.status !== 401 && error.type !== 'password-change-required') return;
  error.handled = true;
  unauthorizedHandler(error);
}

/** Fetches `path` (relative to /api/v1) and returns the parsed JSON reply (undefined for 204). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError();
  }
  if (!response.ok) {
    const error = errorFromResponse(
      response.status,
      response.headers.get('content-type'),
      await safeText(response),
    );
    report401(error, options);
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await safeText(response);
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError({ status: 502, type: 'bad-reply', severity: 'error', messages: ['Bad Gateway'] });
  }
}

async function safeText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}

/** Downloads a file reply as a Blob with the server-suggested file name. */
export async function download(
  path: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
    });
  } catch {
    throw networkError();
  }
  if (!response.ok) {
    const error = errorFromResponse(
      response.status,
      response.headers.get('content-type'),
      await safeText(response),
    );
    report401(error, options);
    throw error;
  }
  return {
    blob: await response.blob(),
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
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

export type UploadOptions = {
  method?: 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** Fraction 0..1 of the request body sent so far (real XHR upload progress). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  authRedirect?: boolean;
};

/** Multipart upload through XMLHttpRequest, for real upload progress; same error contract as `api`. */
export function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', `${API_BASE}${path}`);
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
        if (!xhr.responseText) return resolve(undefined as T);
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(
            new ApiError({ status: 502, type: 'bad-reply', severity: 'error', messages: ['Bad Gateway'] }),
          );
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

/** SWR fetcher: the key is the path under /api/v1. */
export const swrFetcher = <T>(path: string): Promise<T> => api<T>(path);
