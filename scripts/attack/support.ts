/**
 * What every attack case gets: HTTP to the running gateway (each case from its own client address
 * unless it says otherwise, always with a recognisable User-Agent, so the log checks can look for
 * both), signed-in sessions of the seeded demo accounts, and the ids of seeded records to aim at.
 */

import { request } from 'undici';
import { addDays, wibToday } from '../../shared/src/handling-clock.ts';
import {
  type Call,
  call,
  cookieFrom,
  type PasswordSession,
  passwordSignIn,
  type Reply,
  type SignInOptions,
  signInFully,
} from '../support/http.ts';
import { guestReportFields, reportForm, tinyPng, type UploadFile } from '../support/report-form.ts';
import { unzipEntries } from './xlsx.ts';

export const USER_AGENT = 'wbs-attack-suite/1.0 (UA-marker-7f3a91)';
/** Every client address the suite uses starts with this (they must never reach a log line). */
export const ADDRESS_PREFIX = '10.77.';

export class Failure extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Failure(message);
}

export type DemoUser = {
  username: string;
  password: string;
  userTypeId: number;
  role: number;
  companyId?: number;
};

/** The seeded demo accounts (scripts/legacy-sim/README.md), one per subject the matrix tries. */
export const SUBJECTS: DemoUser[] = [
  { username: 'admin', password: 'Admin#2026!', userTypeId: 1, role: 1 },
  { username: 'admin.kahuripan', password: 'Perusahaan#2026!', userTypeId: 2, role: 1, companyId: 1 },
  { username: 'admin.pakuan', password: 'Perusahaan#2026!', userTypeId: 2, role: 1, companyId: 2 },
  { username: 'holding', password: 'Partner#2026!', userTypeId: 3, role: 1 },
  { username: 'analis.direksi', password: 'Analis#2026!', userTypeId: 4, role: 1, companyId: 1 },
  { username: 'analis.spi', password: 'Analis#2026!', userTypeId: 4, role: 2, companyId: 1 },
  { username: 'staff.holding', password: 'Staff#2026!', userTypeId: 5, role: 1 },
  { username: 'staff.holding2', password: 'Staff#2026!', userTypeId: 5, role: 2 },
  { username: 'pelapor', password: 'Pelapor#2026!', userTypeId: 6, role: 2, companyId: 1 },
];

export type Fixtures = {
  /** A company-1 case with logs (WBS-10000002), its attachment and a log with an attachment. */
  company1Case: { id: number; attachmentId: number; logId: number | null };
  /** A company-2 case with logs (WBS-10000003). */
  company2Case: { id: number; attachmentId: number; logId: number | null };
  /** A company-1 case routed to line 1 (Jalur Direksi): outside analis.spi's scope. */
  direksiCaseId: number;
  /** A case of the signed-in pelapor (whistleblower 1), or null when the seed gives it none. */
  pelaporCaseId: number | null;
  /** Every case of the pelapor (company 1). */
  pelaporCaseIds: number[];
  categoryId: number;
};

export class Tools {
  readonly baseUrl: string;
  /** The system's PUBLIC_URL (`http://localhost:<port>`): the origin its passkeys answer to. */
  readonly publicUrl: string;
  readonly simUrl: string;
  readonly logs: string[];
  readonly sessions = new Map<string, string>();
  /** The gateway's SESSION_SECRET: lets a case sign a cookie that is valid except for one thing. */
  sessionSecret = '';
  /** The mail sink the gateway sends to (its page and API), where a case reads what was mailed. */
  mailSinkUrl = '';
  fixtures!: Fixtures;
  #address = 0;

  constructor(baseUrl: string, simUrl: string, logs: string[], publicUrl = baseUrl) {
    this.baseUrl = baseUrl;
    this.publicUrl = publicUrl;
    this.simUrl = simUrl;
    this.logs = logs;
  }

  /** A client address of its own (X-Forwarded-For through the trusted loopback proxy). */
  nextAddress(): string {
    this.#address++;
    return `${ADDRESS_PREFIX}${(this.#address >> 8) & 255}.${this.#address & 255}`;
  }

  /** One request; `as` names a demo user whose session cookie is sent. */
  async send(c: Call & { as?: string; address?: string }): Promise<Reply> {
    const cookie = c.cookie ?? (c.as ? this.sessions.get(c.as) : undefined);
    if (c.as && !cookie) throw new Failure(`no session for ${c.as}`);
    return call(this.baseUrl, {
      ...c,
      ...(cookie ? { cookie } : {}),
      headers: { 'user-agent': USER_AGENT, 'x-forwarded-for': c.address ?? this.nextAddress(), ...c.headers },
    });
  }

  /** How a sign-in of the suite reaches the gateway: one client address for all its steps. */
  signInOptions(address = this.nextAddress()): SignInOptions {
    return {
      publicUrl: this.publicUrl,
      headers: () => ({ 'user-agent': USER_AGENT, 'x-forwarded-for': address }),
    };
  }

  /**
   * A fresh full session of a demo user (its own cookie, not the shared one): the password, then the
   * second factor with the user's software passkey (registered at the account's first sign-in).
   */
  async freshSession(username: string, password?: string): Promise<string> {
    const user = SUBJECTS.find((s) => s.username === username);
    try {
      const session = await signInFully(
        this.baseUrl,
        username,
        password ?? user?.password ?? '',
        this.signInOptions(),
      );
      return session.cookie;
    } catch (error) {
      throw new Failure(error instanceof Error ? error.message : String(error));
    }
  }

  /** The password step alone: a session still waiting for its second factor (`verify` or `enrol`). */
  async passwordSession(username: string, password?: string): Promise<PasswordSession> {
    const user = SUBJECTS.find((s) => s.username === username);
    try {
      return await passwordSignIn(
        this.baseUrl,
        username,
        password ?? user?.password ?? '',
        this.signInOptions(),
      );
    } catch (error) {
      throw new Failure(error instanceof Error ? error.message : String(error));
    }
  }

  async signInAll(): Promise<void> {
    for (const user of SUBJECTS) this.sessions.set(user.username, await this.freshSession(user.username));
  }
}

export function json<T = Record<string, unknown>>(reply: Reply): T {
  try {
    return JSON.parse(reply.text) as T;
  } catch {
    throw new Failure(`reply is not JSON: HTTP ${reply.status} ${reply.text.slice(0, 80)}`);
  }
}

/** Today and earlier days as the system counts them: WIB days (legacy dates, the list filter). */
export const today = () => wibToday();
export const daysAgo = (days: number) => addDays(wibToday(), -days);

/** The filters of a case search over the whole seeded year. */
export const wholeYear = (extra: Record<string, unknown> = {}) => ({
  from: daysAgo(400),
  to: today(),
  page: 1,
  pageSize: 100,
  ...extra,
});

export type AttackCase = {
  area: string;
  name: string;
  /**
   * The case changes what other cases rely on (a demo account's password, role or sessions, a complaint
   * number's back-off): it runs after every other case, before the log checks.
   */
  last?: boolean;
  run(t: Tools): Promise<void>;
};

/**
 * GET /session names nobody: a 401, or the 200 without a user a signed-out visitor gets (a guest's
 * probe is not an error).
 */
export function namesNobody(reply: Reply): boolean {
  if (reply.status === 401) return true;
  if (reply.status !== 200) return false;
  try {
    const user = (JSON.parse(reply.text) as { user?: { id?: unknown } | null }).user;
    return !user || user.id === undefined;
  } catch {
    return false;
  }
}

/** Problem+json type's last segment (`https://…/problems/csrf` → `csrf`). */
export function problemType(reply: Reply): string | undefined {
  try {
    const type = (JSON.parse(reply.text) as { type?: string }).type;
    return type?.split('/').pop();
  } catch {
    return undefined;
  }
}

/** Nothing in a reply that tells an attacker about the inside: stacks, addresses, paths, versions. */
export function assertNoInternals(reply: Reply, simUrl: string): void {
  const text = `${JSON.stringify(reply.headers)}\n${reply.text}`;
  const sim = new URL(simUrl);
  const leaks: [RegExp | string, string][] = [
    [/\bat [\w.<>]+ \(/, 'a stack frame'],
    [/\.(ts|js):\d+/, 'a source position'],
    [/\/work\/|\/home\/|node_modules/, 'a file path'],
    [sim.host, "legacy-sim's address"],
    [/ECONN|UND_ERR|ETIMEDOUT|EPIPE/, 'a transport error code'],
    [/System\.\w+Exception/, "the legacy's exception"],
    [/fastify|undici|pino|x-powered-by/i, 'a framework name'],
  ];
  for (const [pattern, what] of leaks) {
    const found = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
    expect(!found, `reply discloses ${what}`);
  }
}

export { cookieFrom, type Reply, type UploadFile };

export const GUEST_PASSWORD = 'Rahasia#Pelapor-2026';

/** A guest report (multipart, as the wizard sends it); `fields` override the wizard's defaults. */
export function fileReport(
  t: Tools,
  options: {
    files?: UploadFile[];
    fields?: Record<string, string>;
    address?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const fields = {
    ...guestReportFields('Dugaan penerimaan hadiah dari rekanan.', GUEST_PASSWORD, t.fixtures.categoryId),
    ...options.fields,
  };
  const files = options.files ?? [
    { field: 'evidence', name: 'bukti.png', type: 'image/png', bytes: tinyPng() },
  ];
  return t.send({
    path: '/api/v1/cases',
    form: reportForm(fields, files),
    headers: { accept: 'application/json', ...options.headers },
    ...(options.address ? { address: options.address } : {}),
  });
}

/** The complaint number of a 201 reply. */
export function caseNumberOf(reply: Reply): string {
  expect(reply.status === 201, `filing answered ${reply.status} ${reply.text.slice(0, 160)}`);
  const number = json<{ caseNumber?: string }>(reply).caseNumber;
  expect(number && /^WBS-\d{8}$/.test(number), 'no complaint number');
  return number;
}

/** Company 1's case export (admin.kahuripan) of the days given: the workbook's parts by name. */
export async function exportWorkbook(
  t: Tools,
  days: { from: string; to: string },
): Promise<Map<string, string>> {
  const reply = await request(new URL('/api/v1/cases/export', t.baseUrl), {
    method: 'POST',
    headers: {
      origin: new URL(t.baseUrl).origin,
      cookie: t.sessions.get('admin.kahuripan') ?? '',
      'content-type': 'application/json',
    },
    body: JSON.stringify(days),
  });
  const bytes = Buffer.from(await reply.body.arrayBuffer());
  expect(reply.statusCode === 200, `export answered ${reply.statusCode}`);
  return unzipEntries(bytes);
}

/** PUT /api/v1/password with the session (or forced-change ticket) cookie given. */
export function changePassword(
  t: Tools,
  cookie: string,
  oldPassword: string,
  newPassword: string,
): Promise<Reply> {
  return t.send({
    method: 'PUT',
    path: '/api/v1/password',
    json: { oldPassword, newPassword, confirmNewPassword: newPassword },
    cookie,
  });
}

/** The id of a company-1 case by its number, as admin.kahuripan finds it. */
export async function caseIdOf(t: Tools, number: string): Promise<number> {
  const reply = await t.send({
    path: '/api/v1/cases/search',
    json: wholeYear({ number }),
    as: 'admin.kahuripan',
  });
  const id = json<{ items: { id: number; number: string }[] }>(reply).items.find(
    (c) => c.number === number,
  )?.id;
  expect(id, `${number} is not in company 1's list`);
  return id;
}
