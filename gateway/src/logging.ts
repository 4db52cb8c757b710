/**
 * Ops logs: pino JSON, one line per response with pino's conventional fields (`reqId`, `req.method`,
 * `req.url` without its query, `req.route`, `res.statusCode`, `responseTime` in ms) plus the legacy
 * latency and the user id and type; static files and probes at debug level unless they failed. Debug
 * lines per legacy call, and audit lines (`audit: true`, `event`).
 *
 * Decisions: client IP addresses and user agents are NEVER logged (reporters must not be traceable
 * through our logs, and the simplest guarantee is not to log them anywhere). Query strings are not
 * logged either (only the path and the route pattern). Secrets and reporter identity fields are
 * redacted at the top level and one level down (e.g. `err.password`) as a safety net: we log no
 * bodies (see `redactLine`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LoggerOptions } from 'pino';

const SECRET_KEYS = [
  'password',
  'oldPassword',
  'newPassword',
  'confirmNewPassword',
  'confirmPassword',
  'casePassword',
  'caseConfirmPassword',
  'wbsUserPassword',
  'token',
  'legacyToken',
  'authorization',
  'Authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'box',
];
const IDENTITY_KEYS = [
  'name',
  'fullName',
  'email',
  'phone',
  'address',
  'caseWhistleblowerName',
  'caseWhistleblowerEmail',
  'caseWhistleblowerContactNum',
  'caseWhistleblowerAddress',
  'whistleblowerFullName',
  'wbsUserEmail',
];

export const REDACTED_KEYS = [...SECRET_KEYS, ...IDENTITY_KEYS];

const REDACTED = new Set(REDACTED_KEYS);
const CENSOR = '[redacted]';

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/** A copy that keeps an Error an Error (message and stack are not enumerable). */
function copyOf(value: Fields): Fields {
  if (value instanceof Error) {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(value)), value) as Fields;
    copy.message = value.message;
    copy.stack = value.stack;
    return copy;
  }
  return { ...value };
}

/** `value` with every redacted key of ITS level censored (the same object when there is none). */
function censorLevel(value: Fields, deeper: boolean): Fields {
  let out = value;
  for (const k in value) {
    const field = value[k];
    let replacement: unknown = field;
    if (REDACTED.has(k)) replacement = CENSOR;
    else if (deeper && isRecord(field)) replacement = censorLevel(field, false);
    if (replacement === field) continue;
    if (out === value) out = copyOf(value);
    out[k] = replacement;
  }
  return out;
}

/**
 * Secrets and reporter identity censored at the top level and one level down (e.g. `err.password`,
 * `body.email`): a safety net, as we log no bodies. A walk over the line's own keys (copying only
 * when something is censored) instead of pino's path redaction, which cost ~8% of a request's CPU.
 */
export function redactLine(fields: Fields): Fields {
  return censorLevel(fields, true);
}

/** The path of a URL without its query string (complaint numbers and searches never reach the logs). */
const pathOf = (url: string | undefined) => {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    formatters: { log: redactLine },
    // Fastify's default req/res serializers would print the remote address; ours print no peer data.
    serializers: {
      req: (req: { method?: string; url?: string; route?: string | null }) => ({
        method: req.method,
        url: pathOf(req.url),
        ...(req.route === undefined ? {} : { route: req.route }),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Total time spent waiting for the legacy API during this request (ms). */
    legacyMs: number;
    legacyCalls: number;
  }
}

/** An audit line: who did what (never secrets or reporter identity). */
export function audit(request: FastifyRequest, event: string, fields: Record<string, unknown> = {}): void {
  const user = (request.session ?? request.secondFactorPending)?.user;
  request.log.info(
    {
      audit: true,
      event,
      userId: user?.id ?? null,
      userType: user?.userTypeId ?? null,
      route: request.routeOptions.url,
      ...fields,
    },
    `audit ${event}`,
  );
  // Staff actions also enter the store's hash-chained trail (audit/plugin.ts).
  request.server.auditTrail?.record(request, event, fields);
}

export const loggingPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('legacyMs', 0);
    app.decorateRequest('legacyCalls', 0);
    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      // Static files and probes are routine: debug unless they failed.
      const level = !request.url.startsWith('/api/') && reply.statusCode < 400 ? 'debug' : 'info';
      const user = request.session?.user;
      request.log[level](
        {
          req: { method: request.method, url: request.url, route: request.routeOptions.url ?? null },
          res: { statusCode: reply.statusCode },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
          legacyMs: Math.round(request.legacyMs * 10) / 10,
          legacyCalls: request.legacyCalls,
          userId: user?.id ?? null,
          userType: user?.userTypeId ?? null,
        },
        'request completed',
      );
    });
  },
  { name: 'wbs-logging', dependencies: ['wbs-session'] },
);
