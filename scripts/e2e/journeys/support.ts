/**
 * Shared pieces of the browser journeys: one Chromium per file, one context per actor with the
 * reporter-protection guard (no request may leave the system's own origin) and the console guard
 * (any console error or uncaught page error fails the journey), sign-in, and small API helpers for
 * setting up data through the gateway.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { addDays, wibToday } from '../../../shared/src/handling-clock.ts';
import { launchChromium } from '../../support/browser.ts';
import type { FilePayload } from '../../support/files.ts';
import { signIn as signInThroughApi } from '../../support/http.ts';
import { guestReportFields } from '../../support/report-form.ts';
import { completeSecondFactor } from './second-factor.ts';

/** The gateway serving the built web app, e.g. http://localhost:41234 (no trailing slash). */
export const baseUrl = inject('baseUrl').replace(/\/$/, '');
const ownOrigin = new URL(baseUrl).origin;

/** Long enough for a loaded 2-core CI machine, short enough to fail fast on a stuck screen. */
export const STEP_TIMEOUT_MS = 20_000;

/** A phone (roughly a mid-range Android): the product must be usable on one. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

type HttpAllowance = { status: (status: number) => boolean; path: RegExp; why: string };

export type Actor = {
  name: string;
  context: BrowserContext;
  page: Page;
  /** Everything that went wrong outside the journey's own assertions (console errors, foreign hosts…). */
  problems: string[];
  /**
   * Declares a failed HTTP reply the journey provokes on purpose (the browser logs every 4xx/5xx as a
   * console error): e.g. the tracking form with a wrong password.
   */
  allowHttpError(status: number | ((status: number) => boolean), path: RegExp, why: string): void;
  /** Fails the test when anything unexpected was recorded. */
  expectClean(): void;
  close(): Promise<void>;
};

/** None: a signed-out visit's session probe answers 200 (`user: null`), so it logs nothing. */
const ALWAYS_ALLOWED: HttpAllowance[] = [];

const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})/;

/**
 * Opens a fresh browser context for one actor and watches it:
 * - any request (page, worker, fetch, asset, websocket) to a host other than the system's own;
 * - console errors (except declared HTTP failures) and uncaught page errors.
 */
export async function openActor(
  browser: Browser,
  name: string,
  options: {
    viewport?: { width: number; height: number };
    isMobile?: boolean;
    hasTouch?: boolean;
    /** The browser's zone (default Asia/Jakarta): another zone proves WIB is printed regardless. */
    timezoneId?: string;
    /** Another system than the shared one (e.g. a gateway on PostgreSQL started by the journey). */
    baseUrl?: string;
  } = {},
): Promise<Actor> {
  const actorOrigin = new URL(options.baseUrl ?? baseUrl).origin;
  const context = await browser.newContext({
    baseURL: options.baseUrl ?? baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    isMobile: options.isMobile ?? false,
    hasTouch: options.hasTouch ?? false,
    locale: 'id-ID',
    timezoneId: options.timezoneId ?? 'Asia/Jakarta',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: actorOrigin });
  const problems: string[] = [];
  const allowances: HttpAllowance[] = [...ALWAYS_ALLOWED];

  const foreign = (url: string) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) return false;
    const origin = parsed.protocol.startsWith('ws')
      ? `${parsed.protocol === 'wss:' ? 'https:' : 'http:'}//${parsed.host}`
      : parsed.origin;
    return origin !== actorOrigin;
  };

  context.on('request', (request) => {
    if (foreign(request.url())) problems.push(`[${name}] third-party request: ${request.url()}`);
  });

  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      const failed = FAILED_RESOURCE.exec(text);
      if (failed) {
        const status = Number(failed[1]);
        const where = message.location().url;
        let path = where;
        try {
          const url = new URL(where);
          if (url.origin === actorOrigin) path = url.pathname;
        } catch {
          // keep the raw location
        }
        if (allowances.some((a) => a.status(status) && a.path.test(path))) return;
        problems.push(`[${name}] HTTP ${status} for ${where} (console: ${text})`);
        return;
      }
      problems.push(`[${name}] console error: ${text} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`[${name}] uncaught page error: ${error.message}`));
    page.on('websocket', (socket) => {
      if (foreign(socket.url())) problems.push(`[${name}] third-party websocket: ${socket.url()}`);
    });
  };
  context.on('page', watch);
  const page = await context.newPage();

  return {
    name,
    context,
    page,
    problems,
    allowHttpError(status, path, why) {
      allowances.push({ status: typeof status === 'number' ? (s) => s === status : status, path, why });
    },
    expectClean() {
      expect(problems, `unexpected browser events:\n${problems.join('\n')}`).toEqual([]);
    },
    close: () => context.close(),
  };
}

const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR ?? join(tmpdir(), 'wbs-e2e-artifacts');

/**
 * Per journey file: one Chromium; actors opened with `actor()` inside a test live until the end of
 * that test. After a failed test a full-page screenshot of each of its pages is saved (path printed)
 * with the browser events recorded so far.
 */
export function useJourney(file: string) {
  let browser: Browser | undefined;
  let actors: Actor[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterEach(async (ctx) => {
    const done = actors;
    actors = [];
    if (ctx.task.result?.state === 'fail') {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      for (const a of done) {
        for (const [i, p] of a.context.pages().entries()) {
          const path = join(ARTIFACTS_DIR, `${file}-${a.name}-${i}-${Date.now()}.png`);
          await p.screenshot({ path, fullPage: true }).catch(() => undefined);
          console.error(`screenshot of ${a.name} (${p.url()}): ${path}`);
        }
        if (a.problems.length) console.error(a.problems.join('\n'));
      }
    }
    for (const a of done) await a.close().catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async actor(name: string, options?: Parameters<typeof openActor>[2]): Promise<Actor> {
      if (!browser) throw new Error('the browser is not launched yet (call actor() inside a test)');
      const a = await openActor(browser, name, options);
      actors.push(a);
      return a;
    },
  };
}

/**
 * Signs in through /auth/login and waits until the app has left the login screen. A staff account
 * then owes its second factor: `completeSecondFactor` gives it (enrolling one first when the account
 * has none). `secondFactor: false` stops at that step, for the journeys about it.
 */
export async function signIn(
  page: Page,
  username: string,
  password: string,
  options: { secondFactor?: false } = {},
): Promise<void> {
  await page.goto('/auth/login');
  const main = page.getByRole('main');
  await main.getByLabel('Username').fill(username);
  await main.getByLabel('Kata sandi', { exact: true }).fill(password);
  await main.getByRole('button', { name: 'Masuk' }).click();
  await page.waitForURL((url) => url.pathname !== '/auth/login');
  if (options.secondFactor !== false) await completeSecondFactor(page, username);
}

/** Keluar from the top bar's user menu (named by the user's type): 'Berhasil Keluar', back on /. */
export async function signOut(page: Page, userTypeName: string): Promise<void> {
  await page
    .getByRole('banner')
    .getByRole('button', { name: new RegExp(`${userTypeName}$`) })
    .click();
  await page.getByRole('menuitem', { name: 'Keluar' }).click();
  await snackbar(page, 'Berhasil Keluar').first().waitFor();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Pantau Laporan: opens the tracking page, searches `caseNumber` with `password` and waits for the
 * case's detail heading. Returns the page's main region.
 */
export async function trackCase(page: Page, caseNumber: string, password: string) {
  const main = page.getByRole('main');
  await page.goto('/admin/checkcase');
  await main.getByLabel('Nomor Laporan').fill(caseNumber);
  await main.getByLabel('Kata sandi', { exact: true }).fill(password);
  await main.getByRole('button', { name: 'Cari Laporan' }).click();
  await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
  return main;
}

/** A snackbar (a toast, role status, in the Notifikasi region) showing `text`. */
export function snackbar(page: Page, text: string | RegExp) {
  return page.getByRole('region', { name: 'Notifikasi' }).getByRole('status').filter({ hasText: text });
}

/** Today and an earlier day in Jakarta time, as YYYY-MM-DD (the case-list date filter). */
export function jakartaDay(offsetDays = 0): string {
  return addDays(wibToday(), -offsetDays);
}

// ---- Gateway API helpers (test set-up only; the journeys themselves go through the UI) ----------

export type ApiSession = { cookie: string };

/**
 * Signs in through the gateway's API (of the shared system, or of `base`) and keeps the session cookie.
 * A staff account's session then owes its second factor: given with the account's test passkey
 * (registered first when the account has none), as the browser journeys do (scripts/support/http.ts).
 */
export async function apiSignIn(username: string, password: string, base = baseUrl): Promise<ApiSession> {
  return { cookie: await signInThroughApi(base, username, password) };
}

/** GET a JSON reply of /api/v1 (throws with the status and body otherwise). */
export async function apiGet<T>(path: string, session?: ApiSession, base = baseUrl): Promise<T> {
  const reply = await fetch(`${base}/api/v1${path}`, {
    headers: { accept: 'application/json', ...(session ? { cookie: session.cookie } : {}) },
  });
  const body = await reply.text();
  if (reply.status !== 200) throw new Error(`GET /api/v1${path}: HTTP ${reply.status} ${body}`);
  return JSON.parse(body) as T;
}

/** This month in Jakarta, first to last day (the dashboard's, the map's and Statistik's default). */
export function jakartaMonth(): { from: string; to: string } {
  const month = jakartaDay(0).slice(0, 8);
  return { from: `${month}01`, to: addDays(`${addDays(`${month}28`, 4).slice(0, 8)}01`, -1) };
}

/**
 * The Peta Laporan figures of `query` once the gateway's case index holds every report of the period
 * the caller's case list holds (the index learns a report at its watcher's next poll, so one filed by
 * an earlier journey may come in late) and has read every location (`unread` 0: the watcher reads the
 * reports' details a few per poll, newest first, after start).
 */
export async function settledMap<T extends { unread: number; total: number }>(
  query: string,
  session: ApiSession,
  timeoutMs = 70_000,
): Promise<T> {
  const params = new URLSearchParams(query);
  const to = params.get('to') ?? '';
  const today = jakartaDay(0);
  const filters = {
    from: params.get('from'),
    // The list refuses a day after today; nothing is filed after now anyway.
    to: to > today ? today : to,
    ...(params.has('companyId') ? { companyId: Number(params.get('companyId')) } : {}),
    page: 1,
    pageSize: 1,
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const map = await apiGet<T>(`/maps/provinces?${query}`, session);
    const listed = await fetch(`${baseUrl}/api/v1/cases/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ownOrigin, cookie: session.cookie },
      body: JSON.stringify(filters),
    });
    if (listed.status !== 200) throw new Error(`POST /api/v1/cases/search: HTTP ${listed.status}`);
    const { total } = (await listed.json()) as { total: number };
    if ((map.unread === 0 && map.total === total) || Date.now() > deadline) return map;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

export type CaseListItem = {
  id: number;
  number: string;
  companyId: number;
  status: { name: string };
  /** Filing time, WIB wall time (YYYY-MM-DDTHH:mm:ss). */
  createdAt: string;
};

/** The id of a case by its complete number, as seen by `session` (within the last 60 days). */
export async function findCase(session: ApiSession, caseNumber: string): Promise<CaseListItem> {
  const filters = { from: jakartaDay(60), to: jakartaDay(0), number: caseNumber, page: 1, pageSize: 10 };
  const reply = await fetch(`${baseUrl}/api/v1/cases/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ownOrigin, cookie: session.cookie },
    body: JSON.stringify(filters),
  });
  const body = await reply.text();
  if (reply.status !== 200) throw new Error(`POST /api/v1/cases/search: HTTP ${reply.status} ${body}`);
  const list = JSON.parse(body) as { items: CaseListItem[] };
  const found = list.items.find((c) => c.number === caseNumber);
  if (!found) throw new Error(`${caseNumber} is not in the case list: ${body}`);
  return found;
}

/**
 * Files an anonymous guest report through POST /api/v1/cases (multipart, as the wizard sends it)
 * and returns its number. Used where the report is the starting point, not the subject.
 */
export async function fileGuestReport(input: {
  password: string;
  evidence: FilePayload;
  attachments?: FilePayload[];
  what?: string;
  /** Another system than the shared one. */
  baseUrl?: string;
}): Promise<string> {
  const base = input.baseUrl ?? baseUrl;
  const form = new FormData();
  const categories = await apiGet<{ items: { id: number }[] }>('/case-categories', undefined, base);
  const category = categories.items[0];
  if (!category) throw new Error('no case category for guests');
  const fields = {
    ...guestReportFields(
      input.what ?? 'Dugaan penerimaan hadiah dari rekanan pengadaan meter air.',
      input.password,
      category.id,
    ),
    // The journeys find this address again, masked and revealed, in the handler's view.
    email: 'pelapor.e2e@example.com',
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const blob = (f: FilePayload) => new Blob([new Uint8Array(f.buffer)], { type: f.mimeType });
  form.append('evidence', blob(input.evidence), input.evidence.name);
  for (const f of input.attachments ?? []) form.append('attachments', blob(f), f.name);
  const reply = await fetch(`${base}/api/v1/cases`, {
    method: 'POST',
    headers: { accept: 'application/json', origin: new URL(base).origin },
    body: form,
  });
  const body = await reply.text();
  if (reply.status !== 201) throw new Error(`POST /api/v1/cases: HTTP ${reply.status} ${body}`);
  const caseNumber = (JSON.parse(body) as { caseNumber?: unknown }).caseNumber;
  if (typeof caseNumber !== 'string' || !/^WBS-\d{8}$/.test(caseNumber)) {
    throw new Error(`POST /api/v1/cases answered no complaint number: ${body}`);
  }
  return caseNumber;
}

/** Drops browser events a journey provokes on purpose (aborted requests, a cut link, caught failures). */
export function forgive(problems: string[], pattern: RegExp): void {
  for (let i = problems.length - 1; i >= 0; i--) if (pattern.test(problems[i] ?? '')) problems.splice(i, 1);
}
