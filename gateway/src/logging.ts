/**
 * Ops logs: pino JSON, one line per response (request id, route, status, duration, legacy latency,
 * user id and type), debug lines per legacy call, and audit lines (`audit: true`, `event`).
 *
 * Decisions: client IP addresses and user agents are NEVER logged (reporters must not be traceable
 * through our logs, and the simplest guarantee is not to log them anywhere). Query strings are not
 * logged either (only the path and the route pattern). Secrets and reporter identity fields are
 * redacted at the top level and one level down (e.g. `err.password`) as a safety net: we log no
 * bodies. (Deeper wildcards cost ~30% throughput in pino's redaction for no practical gain.)
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

const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`);
const redactPaths = REDACTED_KEYS.flatMap((k) => {
  const p = key(k);
  const dot = p.startsWith('[') ? p : `.${p}`;
  return [p, `*${dot}`];
});

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    // Fastify's default req/res serializers would print the remote address; ours print no peer data.
    serializers: {
      req: (req: { method?: string; url?: string }) => ({
        method: req.method,
        path: req.url?.split('?')[0],
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
  const user = request.session?.user;
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
      const user = request.session?.user;
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          route: request.routeOptions.url ?? null,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
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
