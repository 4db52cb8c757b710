/**
 * The API conventions every operation of the OpenAPI document gets without per-route work: a stable
 * `operationId`, security derived from the route's policy (and who may call it, from the permission
 * matrix), problem replies as `application/problem+json` with their types, the shared headers, and the
 * shared shapes as `components.schemas`. Applied by @fastify/swagger's `transform` (per route) and
 * `transformObject` (the whole document), so routes added later are covered too.
 */
import { PROBLEM_TYPE_BASE } from '@wbs/shared/api/common';
import { PRIVILEGED_ROLE, type UserTypeId } from '@wbs/shared/constants';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import { can, type Subject, USER_TYPE_NAMES } from '@wbs/shared/permissions';
import { PROBLEMS } from './errors.ts';
import type { Policy } from './policies/plugin.ts';

type Json = Record<string, unknown>;

export const SESSION_COOKIE = 'wbs_session';
export const PASSWORD_CHANGE_COOKIE = 'wbs_pwchange';
/** A request id we keep when a client sends one: a safe charset and a bounded length. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Marks a route that honours `Idempotency-Key` (set by routeSchema, read by the document). */
export const IDEMPOTENT_MARK = 'x-idempotency-key';

export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'Session cookie set by `POST /api/v1/session` (httpOnly, SameSite=Strict). CSRF rule: every ' +
      'state-changing request that carries the cookie must send an `Origin` header naming this ' +
      'site (browsers do this themselves); otherwise 403 `csrf`.',
  },
  passwordChange: {
    type: 'apiKey',
    in: 'cookie',
    name: PASSWORD_CHANGE_COOKIE,
    description:
      'Single-use ticket set by `POST /api/v1/session` for a user with an initial password; accepted only ' +
      'by `PUT /api/v1/password`.',
  },
};

/** `GET /api/v1/cases/:id/logs/:logId/attachment` → `getCasesByIdLogsByLogIdAttachment`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v\d+/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment));
  const camel = words
    .flatMap((word) => word.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `${method.toLowerCase()}${camel || 'Root'}`;
}

type LabelledSubject = { label: string; subject: Subject };
const SUBJECTS: LabelledSubject[] = [
  { label: 'anonim (tanpa sesi)', subject: null },
  ...([1, 2, 3, 4, 5, 6] as UserTypeId[]).flatMap((type): LabelledSubject[] =>
    type === 4 || type === 5
      ? [
          {
            label: `${type} ${USER_TYPE_NAMES[type]} (role istimewa)`,
            subject: { userTypeId: type, role: PRIVILEGED_ROLE },
          },
          { label: `${type} ${USER_TYPE_NAMES[type]}`, subject: { userTypeId: type, role: 0 } },
        ]
      : [{ label: `${type} ${USER_TYPE_NAMES[type]}`, subject: { userTypeId: type, role: null } }],
  ),
];

/** Who may call a route under a policy, from the one permission matrix. */
export function allowedSubjects(policy: Policy): string[] {
  if (policy === 'public') return SUBJECTS.map((s) => s.label);
  return SUBJECTS.filter(({ subject }) => can(subject, policy)).map((s) => s.label);
}

function securityOf(policy: Policy, passwordChange: boolean) {
  if (passwordChange) return [{ session: [] }, { passwordChange: [] }];
  const allowed = allowedSubjects(policy);
  if (allowed.length === SUBJECTS.length) return [];
  // Anonymous callers allowed beside some signed-in ones: the session is optional.
  if (policy !== 'public' && can(null, policy)) return [{}, { session: [] }];
  return [{ session: [] }];
}

type TransformInput = { schema: Json; url: string; route: { method: string | string[]; config?: unknown } };

/** @fastify/swagger `transform`: per-route conventions (operationId, security, who may call it). */
export function transformRoute({ schema, url, route }: TransformInput): { schema: Json; url: string } {
  if (!schema || schema.hide) return { schema, url };
  const config = (route.config ?? {}) as { policy?: Policy; passwordChange?: boolean };
  const policy = config.policy ?? 'public';
  const method = [route.method].flat()[0] ?? 'get';
  const allowed = allowedSubjects(policy);
  const who = `Siapa boleh memanggil (${policy}): ${allowed.join(', ')}.`;
  return {
    url,
    schema: {
      ...schema,
      operationId: (schema.operationId as string | undefined) ?? operationIdOf(method, url),
      security: securityOf(policy, config.passwordChange === true),
      description: schema.description ? `${schema.description}\n\n${who}` : who,
      'x-policy': policy,
      'x-allowed-subjects': allowed,
    },
  };
}

const REQUEST_ID_HEADER = {
  description:
    'The request id: the caller’s `X-Request-Id` when valid (8–128 of A-Z a-z 0-9 . _ : -), else a new one.',
  schema: { type: 'string' },
};
const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 0 },
};
const SET_COOKIE_HEADER = {
  description: `Sets or clears \`${SESSION_COOKIE}\` (and \`${PASSWORD_CHANGE_COOKIE}\`): httpOnly, SameSite=Strict, Path=/.`,
  schema: { type: 'string' },
};
const LOCATION_HEADER = {
  description: 'URL of the created record.',
  schema: { type: 'string' },
};

const PROBLEM_SCHEMA: Json = {
  type: 'object',
  description: 'RFC 9457 problem details; `title` and `detail` are Indonesian.',
  properties: {
    type: {
      type: 'string',
      enum: Object.keys(PROBLEMS).map((t) => `${PROBLEM_TYPE_BASE}${t}`),
    },
    title: {
      type: 'string',
      description: 'What went wrong in general; the same for every problem of a type.',
    },
    status: { type: 'integer' },
    detail: {
      type: 'string',
      description:
        'The specific reason: the one the route states; else the legacy `messages`, one per line; else, ' +
        'for field errors, the reason of a date rule, the message of the one field, or `Terdapat {n} isian ' +
        'yang tidak valid: {fields}` naming up to five `errors` keys; the title only when nothing more is known.',
    },
    severity: { type: 'string', enum: ['warning', 'error'] },
    messages: { type: 'array', items: { type: 'string' } },
    errors: {
      type: 'object',
      description: 'Field errors of a `validation` problem: `{ field: message }`.',
      additionalProperties: { type: 'string' },
    },
  },
  required: ['type', 'title', 'status', 'detail'],
};

function problemTypesWith(status: (s: number) => boolean): string[] {
  return Object.entries(PROBLEMS)
    .filter(([, p]) => status(p.status))
    .map(([type, p]) => `\`${type}\` (${p.status})`);
}

function problemResponse(
  description: string,
  retryAfter: boolean,
  example?: string,
  /** Example fields besides type, title and status (the detail defaults to the title). */
  extras: Json = {},
): Json {
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  if (retryAfter) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  const type = example ?? 'internal';
  const p = PROBLEMS[type as keyof typeof PROBLEMS];
  return {
    description,
    headers,
    content: {
      'application/problem+json': {
        schema: { $ref: '#/components/schemas/Problem' },
        example: {
          type: `${PROBLEM_TYPE_BASE}${type}`,
          title: p.title,
          status: p.status,
          detail: p.title,
          ...extras,
        },
      },
    },
  };
}

const COMPONENT_RESPONSES: Json = {
  Validation: problemResponse(
    '`validation` or `bad-request`: a field is missing or wrong (`errors`; the reason in `detail`).',
    false,
    'validation',
    { detail: FIELD_MESSAGES.passwordRequired, errors: { password: FIELD_MESSAGES.passwordRequired } },
  ),
  Unauthorized: problemResponse('`unauthorized`: no valid session.', false, 'unauthorized'),
  Forbidden: problemResponse(
    '`forbidden` (not allowed for this user), `csrf` (cookie without a matching `Origin`) or ' +
      '`password-change-required`.',
    false,
    'forbidden',
  ),
  NotFound: problemResponse('`not-found`: no such record, or not in the caller’s scope.', false, 'not-found'),
  TooManyRequests: problemResponse('`rate-limited`: wait `Retry-After` seconds.', true, 'rate-limited'),
  ClientProblem: problemResponse(
    `Other client problems: ${problemTypesWith((s) => s >= 400 && s < 500).join(', ')}.`,
    false,
    'legacy-error',
  ),
  Unavailable: problemResponse(
    '`legacy-unavailable`, `store-unavailable` or `busy`: try again after `Retry-After` seconds.',
    true,
    'legacy-unavailable',
  ),
  ServerProblem: problemResponse(
    `Server problems: ${problemTypesWith((s) => s >= 500).join(', ')}.`,
    false,
    'internal',
  ),
};

const EXAMPLE_USER = {
  id: 12,
  username: 'admin.kahuripan',
  email: 'admin@kahuripan.example',
  displayName: 'Admin Kahuripan',
  userTypeId: 2,
  userTypeName: 'Admin Perusahaan',
  role: 1,
  partnerId: null,
  companyId: 1,
  caseLineId: null,
  whistleblowerId: null,
  staffId: null,
};

/** Examples of the main operations, by operationId: the request body and the success reply. */
const EXAMPLES: Record<string, { request?: unknown; reply?: unknown }> = {
  postSession: {
    request: { username: 'admin.kahuripan', password: 'kata-sandi-anda' },
    reply: {
      user: EXAMPLE_USER,
      secondFactor: {
        status: 'verify',
        required: true,
        methods: ['totp', 'passkey'],
        recoveryCodesLeft: 9,
        stepUpUntil: null,
      },
    },
  },
  getSession: { reply: { user: null, passwordChangeRequired: false, secondFactor: null } },
  postPartners: {
    request: {
      name: 'PT Air Sejahtera',
      username: 'air.sejahtera',
      email: 'admin@airsejahtera.example',
      phone: '0215550123',
      address: 'Jl. Merdeka 1, Jakarta',
      provinceId: 31,
      cityId: 3171,
    },
    reply: { id: 4, message: 'Partner berhasil disimpan', initialPassword: 'Xk7!pQ2m' },
  },
  postTracking: { request: { caseNumber: 'WBS-10000002', password: 'kata-sandi-laporan' } },
};

/** Puts an operation's examples on its JSON request body and its first success reply. */
function addExamples(op: Json, responses: Record<string, Json>) {
  const example = EXAMPLES[op.operationId as string];
  if (!example) return;
  const body = ((op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
    'application/json'
  ];
  if (body && example.request !== undefined) body.example = example.request;
  const success = Object.keys(responses).find((status) => status.startsWith('2'));
  const reply = success
    ? (responses[success]?.content as Record<string, Json> | undefined)?.['application/json']
    : undefined;
  if (reply && example.reply !== undefined) reply.example = example.reply;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

/** PascalCase name of a shared shape (`partnerReply` → `PartnerReply`). */
const componentName = (exportName: string) => exportName.charAt(0).toUpperCase() + exportName.slice(1);

/**
 * Moves every schema titled with a shared shape's name into `components.schemas` and points to it;
 * the same name with a different shape (input vs output of one valibot schema) gets a suffix.
 */
function extractComponents(node: unknown, schemas: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((item) => extractComponents(item, schemas));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) out[key] = extractComponents(value, schemas);
  const title = out['x-component'];
  if (typeof title !== 'string') return out;
  const { 'x-component': _mark, description, ...shape } = out;
  let name = componentName(title);
  for (let n = 2; schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(shape); n++) {
    name = `${componentName(title)}${n}`;
  }
  schemas[name] = shape;
  return description === undefined
    ? { $ref: `#/components/schemas/${name}` }
    : { $ref: `#/components/schemas/${name}`, description };
}

/** @fastify/swagger `transformObject`: document-wide conventions. */
export function finishDocument(doc: Json): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const schemas: Record<string, Json> = { Problem: PROBLEM_SCHEMA };
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      finishOperation(path, method, op);
    }
  }
  const extracted = extractComponents(paths, schemas);
  const tagNames = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item))
      for (const tag of (op.tags as string[] | undefined) ?? []) tagNames.add(tag);
  }
  const components = (doc.components ?? {}) as Json;
  return {
    ...doc,
    tags: [...tagNames].sort().map((name) => ({ name })),
    paths: extracted,
    components: {
      ...components,
      schemas: { ...((components.schemas as Json) ?? {}), ...schemas },
      responses: COMPONENT_RESPONSES,
      headers: {
        'X-Request-Id': REQUEST_ID_HEADER,
        'Retry-After': RETRY_AFTER_HEADER,
        'Set-Cookie': SET_COOKIE_HEADER,
        Location: LOCATION_HEADER,
      },
      parameters: {
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: REQUEST_ID_HEADER.description,
          schema: { type: 'string', pattern: REQUEST_ID_PATTERN.source },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A retry with the same key and the same content answers the first reply again (nothing is ' +
            'created twice); the same key with different content is 409 `conflict`.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$' },
        },
      },
    },
  };
}

function finishOperation(path: string, method: string, op: Json) {
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const parameters = ((op.parameters as Json[] | undefined) ?? []).slice();
  parameters.push({ $ref: '#/components/parameters/X-Request-Id' });
  if (op[IDEMPOTENT_MARK]) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
  delete op[IDEMPOTENT_MARK];
  op.parameters = parameters;

  const security = (op.security ?? []) as Json[];
  const signedIn = security.some((s) => Object.keys(s).length > 0);
  const sessionPath = path === '/api/v1/session' || path === '/api/v1/password';
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[23]/.test(status)) continue;
    const headers = { ...((response.headers as Json) ?? {}) };
    headers['X-Request-Id'] = { $ref: '#/components/headers/X-Request-Id' };
    if (sessionPath && method !== 'get') headers['Set-Cookie'] = { $ref: '#/components/headers/Set-Cookie' };
    if (status === '201') headers.Location = { $ref: '#/components/headers/Location' };
    response.headers = headers;
    if (status === '204') delete response.content;
    // Fastify's empty-reply marker documents no body.
    const json = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
    if (json && (json.schema as Json | undefined)?.type === 'null') delete response.content;
  }
  addExamples(op, responses);
  delete responses['4XX'];
  delete responses['5XX'];
  const hasInput = parameters.length > 1 || op.requestBody !== undefined;
  if (hasInput) responses['400'] = { $ref: '#/components/responses/Validation' };
  if (signedIn) {
    responses['401'] = { $ref: '#/components/responses/Unauthorized' };
    responses['403'] = { $ref: '#/components/responses/Forbidden' };
  } else if (STATE_CHANGING.has(method)) {
    responses['403'] = { $ref: '#/components/responses/Forbidden' };
  }
  if (path.includes('{')) responses['404'] = { $ref: '#/components/responses/NotFound' };
  responses['429'] = { $ref: '#/components/responses/TooManyRequests' };
  responses['503'] = { $ref: '#/components/responses/Unavailable' };
  responses['4XX'] = { $ref: '#/components/responses/ClientProblem' };
  responses['5XX'] = { $ref: '#/components/responses/ServerProblem' };
  op.responses = responses;
}
