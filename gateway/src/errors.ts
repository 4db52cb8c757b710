/**
 * The one error module: stable RFC 9457 problem types with neutral Indonesian texts, the error class
 * every layer throws, and the Fastify error / not-found handlers that turn anything into a problem.
 * No stack trace, upstream address or legacy internals ever reach a reply.
 */
import { PROBLEM_TYPE_BASE, type Problem } from '@wbs/shared/api/common';
import { problemDetailOf } from '@wbs/shared/forms';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const PROBLEMS = {
  validation: { status: 400, title: PROBLEM_MESSAGES.validation },
  'bad-request': { status: 400, title: PROBLEM_MESSAGES.validation },
  'second-factor-failed': { status: 400, title: PROBLEM_MESSAGES.secondFactorFailed },
  unauthorized: { status: 401, title: PROBLEM_MESSAGES.unauthorized },
  'second-factor-required': { status: 401, title: PROBLEM_MESSAGES.secondFactorRequired },
  'step-up-required': { status: 401, title: PROBLEM_MESSAGES.stepUpRequired },
  // Too many wrong codes in a row: the session that typed them has ended (docs/product/second-factor.md).
  'second-factor-locked': { status: 401, title: PROBLEM_MESSAGES.secondFactorLocked },
  'password-change-required': { status: 403, title: PROBLEM_MESSAGES.passwordChangeRequired },
  forbidden: { status: 403, title: PROBLEM_MESSAGES.forbidden },
  csrf: { status: 403, title: PROBLEM_MESSAGES.csrf },
  'not-found': { status: 404, title: PROBLEM_MESSAGES.notFound },
  'method-not-allowed': { status: 405, title: PROBLEM_MESSAGES.methodNotAllowed },
  conflict: { status: 409, title: PROBLEM_MESSAGES.idempotencyConflict },
  'last-factor-required': { status: 409, title: PROBLEM_MESSAGES.lastFactorRequired },
  'second-factor-missing': { status: 409, title: PROBLEM_MESSAGES.secondFactorMissing },
  'already-destroyed': { status: 409, title: PROBLEM_MESSAGES.alreadyDestroyed },
  'scan-running': { status: 409, title: PROBLEM_MESSAGES.retentionScanRunning },
  // Peta Laporan: an area of 1 to 4 reports is never drilled into nor listed (docs/product/insights.md).
  'area-too-small': { status: 409, title: PROBLEM_MESSAGES.areaTooSmall },
  'payload-too-large': { status: 413, title: PROBLEM_MESSAGES.payloadTooLarge },
  'legacy-warning': { status: 422, title: PROBLEM_MESSAGES.validation },
  'legacy-error': { status: 422, title: PROBLEM_MESSAGES.validation },
  'rate-limited': { status: 429, title: PROBLEM_MESSAGES.tooManyRequests },
  internal: { status: 500, title: PROBLEM_MESSAGES.internal },
  'legacy-bad-reply': { status: 502, title: PROBLEM_MESSAGES.legacyBadReply },
  busy: { status: 503, title: PROBLEM_MESSAGES.busy },
  'legacy-unavailable': { status: 503, title: PROBLEM_MESSAGES.legacyUnavailable },
  'legacy-timeout': { status: 504, title: PROBLEM_MESSAGES.legacyTimeout },
  'store-unavailable': { status: 503, title: PROBLEM_MESSAGES.storeUnavailable },
} as const;
export type ProblemType = keyof typeof PROBLEMS;

export const problemUri = (type: ProblemType) => `${PROBLEM_TYPE_BASE}${type}`;

type ProblemExtras = {
  /** The reason, when the thrower knows it better than `detailOf` would derive it. */
  detail?: string;
  severity?: 'warning' | 'error';
  messages?: string[];
  errors?: Record<string, string>;
  /** Seconds sent as `Retry-After` (429 `rate-limited`, 503 `busy`). */
  retryAfter?: number;
  /** Status override, e.g. a generic 4xx from Fastify kept as it is. */
  status?: number;
  /** Ops-only context (never sent): why this happened. */
  cause?: unknown;
};

/** Thrown anywhere; the error handler turns it into `application/problem+json`. */
export class ApiProblem extends Error {
  readonly type: ProblemType;
  readonly status: number;
  readonly extras: ProblemExtras;
  constructor(type: ProblemType, extras: ProblemExtras = {}) {
    super(detailOf(type, extras), extras.cause === undefined ? {} : { cause: extras.cause });
    this.name = 'ApiProblem';
    this.type = type;
    this.status = extras.status ?? PROBLEMS[type].status;
    this.extras = extras;
  }

  toJSON(): Problem {
    const body: Problem = {
      type: problemUri(this.type),
      title: PROBLEMS[this.type].title,
      status: this.status,
      detail: this.message,
    };
    if (this.extras.severity) body.severity = this.extras.severity;
    if (this.extras.messages) body.messages = this.extras.messages;
    if (this.extras.errors) body.errors = this.extras.errors;
    return body;
  }
}

/**
 * What a problem's `detail` says: the specific reason, so a caller reading only the detail (an API
 * integrator, a snackbar, a download link) learns why, not just that. First match wins:
 * - the thrower's own `detail`;
 * - the legacy's messages (a 422 `legacy-warning`/`legacy-error`, or a legacy refusal turned into
 *   field errors), one per line;
 * - the field errors, by the rule of `problemDetailOf` (shared/src/forms.ts): a date rule's reason,
 *   the one field's message, or a sentence naming the fields;
 * - else the title (nothing more is known: a 404, a 503, a body the HTTP layer could not read).
 */
function detailOf(type: ProblemType, extras: ProblemExtras): string {
  if (extras.detail !== undefined && extras.detail !== '') return extras.detail;
  const messages = extras.messages?.filter((m) => m.trim() !== '') ?? [];
  if (messages.length > 0) return messages.join('\n');
  return (extras.errors && problemDetailOf(extras.errors)) ?? PROBLEMS[type].title;
}

/** The validation error our valibot validator compiler returns: `{ field: message }`. */
export class FieldErrors extends Error {
  readonly errors: Record<string, string>;
  statusCode = 400;
  constructor(errors: Record<string, string>) {
    super('validation failed');
    this.name = 'FieldErrors';
    this.errors = errors;
  }
}

export const notFound = () => new ApiProblem('not-found');
export const forbidden = () => new ApiProblem('forbidden');
export const unauthorized = () => new ApiProblem('unauthorized');

/** Maps any thrown value to a problem; unknown errors become `internal`. */
export function toProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (error instanceof FieldErrors) return new ApiProblem('validation', { errors: error.errors });
  const fastifyError = error as Partial<FastifyError> & { validation?: unknown };
  if (fastifyError?.code === 'FST_ERR_VALIDATION') {
    return new ApiProblem('validation', { errors: {} });
  }
  // busboy refuses a malformed multipart header ("Multipart: Boundary not found") with a plain Error.
  if (error instanceof Error && error.message.startsWith('Multipart: ')) {
    return new ApiProblem('bad-request', { status: 400, cause: error.message });
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 404) return new ApiProblem('not-found');
    if (status === 413) return new ApiProblem('payload-too-large');
    if (status === 429) return new ApiProblem('rate-limited');
    if (status === 401) return new ApiProblem('unauthorized');
    if (status === 403) return new ApiProblem('forbidden');
    return new ApiProblem('bad-request', { status });
  }
  return new ApiProblem('internal', { cause: error });
}

/** Seconds a 503 asks the client to wait when its thrower named none (the legacy or store is away). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

export function sendProblem(reply: FastifyReply, problem: ApiProblem): FastifyReply {
  if (problem.extras.retryAfter !== undefined) reply.header('retry-after', String(problem.extras.retryAfter));
  // Every 503 says when to come back (legacy-unavailable, store-unavailable, busy).
  if (problem.status === 503 && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  }
  // A server at capacity does not read the rest of a body it refused (an upload of up to 50 MB).
  if (problem.type === 'busy') reply.header('connection', 'close');
  return reply.code(problem.status).type('application/problem+json').send(problem.toJSON());
}

declare module 'fastify' {
  interface FastifyReply {
    /** Set by the session plugin: how to drop the session cookie (used on 401 `unauthorized`). */
    clearSessionCookies?: () => void;
  }
  interface FastifyInstance {
    spaFallback?: (request: FastifyRequest, reply: FastifyReply) => boolean;
  }
}

/** A route URL (`/api/v1/cases/:id`) as a whole-path regular expression. */
function pathPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const problem = toProblem(error);
      if (problem.status >= 500) {
        request.log.error(
          { err: problem.type === 'internal' ? error : problem.extras.cause, problem: problem.type },
          'request failed',
        );
      } else {
        request.log.info({ problem: problem.type }, 'request refused');
      }
      // A session that ended drops its cookie; one that only owes its second factor (or a fresh one
      // for step-up) keeps it: the next request brings the factor.
      if (problem.type === 'unauthorized') reply.clearSessionCookies?.();
      return sendProblem(reply, problem);
    });
    // Every route's path pattern with its methods, so a known path asked with a wrong method is a 405.
    const methodsByPattern = new Map<string, { pattern: RegExp; methods: Set<string> }>();
    app.addHook('onRoute', (route) => {
      // Catch-all routes (static files) would make every unknown path "known".
      if (route.url.includes('*')) return;
      const entry = methodsByPattern.get(route.url) ?? {
        pattern: pathPattern(route.url),
        methods: new Set(),
      };
      for (const method of [route.method].flat()) entry.methods.add(method);
      methodsByPattern.set(route.url, entry);
    });
    const allowedMethods = (path: string) => {
      const allowed = new Set<string>();
      for (const { pattern, methods } of methodsByPattern.values()) {
        if (pattern.test(path)) for (const method of methods) allowed.add(method);
      }
      return [...allowed].sort();
    };
    app.setNotFoundHandler((request, reply) => {
      // Non-API GETs fall back to the web app's index.html when it is served (see static.ts).
      if (request.server.spaFallback?.(request, reply)) return reply;
      const allowed = allowedMethods(request.url.split('?')[0] ?? '');
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '));
        return sendProblem(reply, new ApiProblem('method-not-allowed'));
      }
      return sendProblem(reply, new ApiProblem('not-found'));
    });
  },
  { name: 'wbs-errors' },
);
