/**
 * Handling clocks (docs/product/handling.md#handling-clocks): by when a report must be acknowledged and
 * answered, and whether that happened on time. Pure rules, shared by the gateway (which computes every
 * clock: none lives only in a browser) and the web app (which only formats what the gateway sent).
 *
 * - Acknowledged = the first status change away from Baru or the first message of a handler to the
 *   reporter; answered = a later status change or message. A change to a final status both
 *   acknowledges and answers (the reporter has an outcome).
 * - Both deadlines count from the filing DAY in WIB, in calendar days and calendar months (weekends and
 *   public holidays count: docs/product/handling.md#handling-clocks); a deadline holds until the end of its day in WIB.
 */

import { civilFromDays, daysFromCivil, daysInMonth, parseIsoDate } from './dates.ts';

/** Days after filing to acknowledge, and months after filing to answer: the group's defaults. */
export const DEFAULT_ACK_DAYS = 7;
export const DEFAULT_FEEDBACK_MONTHS = 3;
/** Bounds of a company's own setting (the store and the form refuse anything else). */
export const ACK_DAYS_RANGE = { min: 1, max: 30 } as const;
export const FEEDBACK_MONTHS_RANGE = { min: 1, max: 12 } as const;
/** A running clock is "due soon" this many days before its deadline (inclusive). */
export const DUE_SOON_DAYS = { acknowledgement: 2, feedback: 14 } as const;

export type HandlingDeadlines = { ackDays: number; feedbackMonths: number };

/** `onTime`/`dueSoon`/`overdue`: the clock runs; `met`/`late`: it stopped, by or after its deadline. */
export type ClockState = 'onTime' | 'dueSoon' | 'overdue' | 'met' | 'late';
export type ClockStage = 'acknowledgement' | 'feedback' | 'done';

export type Clock = {
  /** YYYY-MM-DD (WIB): the last day the step is on time. */
  dueDate: string;
  /** WIB wall time ('YYYY-MM-DDTHH:mm:ss') of the event that stopped the clock, or null. */
  doneAt: string | null;
  state: ClockState;
};

export type HandlingClock = {
  /** The running step, or `done` when the report is acknowledged and answered. */
  stage: ClockStage;
  acknowledgement: Clock;
  feedback: Clock;
};

/** What a clock is derived from: the filing time and the handling events, all in WIB wall time. */
export type HandlingFacts = {
  filedAt: string;
  acknowledgedAt: string | null;
  answeredAt: string | null;
};

const WIB_OFFSET_MS = 7 * 3600_000;

/** A moment as WIB wall time 'YYYY-MM-DDTHH:mm:ss' (how the legacy writes its dates). */
export function wibWallTime(moment: Date | number): string {
  const ms = typeof moment === 'number' ? moment : moment.getTime();
  return new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19);
}

const DAY_MS = 86_400_000;

/**
 * The calendar day (YYYY-MM-DD) at `now` in a zone `offsetMs` ahead of UTC, kept until that zone's next
 * midnight: every case list asks for today more than once, and formatting a date each time was about
 * 1 % of the list's CPU. Any `now` outside the kept day (a test's, or the next day's) is read afresh.
 */
export function calendarDayIn(offsetMs: number): (now: number) => string {
  let from = Number.POSITIVE_INFINITY;
  let until = Number.NEGATIVE_INFINITY;
  let day = '';
  return (now) => {
    if (now >= from && now < until) return day;
    const shifted = now + offsetMs;
    day = new Date(shifted).toISOString().slice(0, 10);
    from = Math.floor(shifted / DAY_MS) * DAY_MS - offsetMs;
    until = from + DAY_MS;
    return day;
  };
}

const wibDay = calendarDayIn(WIB_OFFSET_MS);

/** Today's date in WIB (YYYY-MM-DD). */
export function wibToday(now: number = Date.now()): string {
  return wibDay(now);
}

/**
 * Legacy dates already read, with their reading: a case list reads the same 25 on every request.
 * Bounded (cleared when full); only strings of a date's length are kept. A plain Map on purpose, not
 * lru-cache: a string's reading never changes, so neither age nor recency matters and clearing costs
 * only reading again; and shared/ is bundled into the web app too (HandlingClock.tsx), where a cache
 * library would be weight for nothing.
 */
const wallTimes = new Map<string, string | null>();
const WALL_TIMES_MAX = 20_000;
const WALL_TIME_MAX_LENGTH = 40;

/**
 * A legacy date ('2026-05-03T08:15:00', '2026-05-03 08:15:00.123', '2026-05-03') as comparable WIB
 * wall time 'YYYY-MM-DDTHH:mm:ss'; null when unreadable or not a plausible date (year 1900–2999).
 */
export function normaliseWallTime(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.length > WALL_TIME_MAX_LENGTH) return readWallTime(value);
  let reading = wallTimes.get(value);
  if (reading !== undefined) return reading;
  reading = readWallTime(value);
  if (wallTimes.size >= WALL_TIMES_MAX) wallTimes.clear();
  wallTimes.set(value, reading);
  return reading;
}

function readWallTime(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value.trim());
  if (!match) return null;
  const [, yyyy = '', mo = '', dd = '', hh = '00', mm = '00', ss = '00'] = match;
  // Years outside 1900–2999 are no filing date (and would leave the 4-digit form in arithmetic).
  const year = Number(yyyy);
  if (year < 1900 || year > 2999 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  const month = Number(mo);
  const day = Number(dd);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return `${yyyy}-${mo}-${dd}T${hh}:${mm}:${ss}`;
}

/**
 * The arithmetic below takes real calendar days 'YYYY-MM-DD' (years 0000–9999) and whole numbers, and
 * throws a RangeError on anything else, as the Date-based versions it replaced did on an unreadable day.
 * Its callers pass days read by normaliseWallTime (1900–2999) or wibToday, and offsets of at most a
 * year, so a throw means a programming error, not a user's input.
 */
function dayParts(isoDay: string): [number, number, number] {
  const parts = parseIsoDate(isoDay);
  if (!parts) throw new RangeError('not a calendar day');
  return parts;
}

function formatIsoDay([y, m, d]: [number, number, number]): string {
  if (y < 0 || y > 9999) throw new RangeError('date outside the years 0000-9999');
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

function wholeNumber(n: number): number {
  if (!Number.isInteger(n)) throw new RangeError('not a whole number');
  return n;
}

const dayNumber = (isoDay: string) => daysFromCivil(...dayParts(isoDay));

/** `isoDay` + `days` calendar days. */
export function addDays(isoDay: string, days: number): string {
  return formatIsoDay(civilFromDays(dayNumber(isoDay) + wholeNumber(days)));
}

/** `isoDay` + `months` calendar months, clamped to the month's last day (30 Nov + 3 → 28/29 Feb). */
export function addMonths(isoDay: string, months: number): string {
  const [y, m, d] = dayParts(isoDay);
  const monthIndex = y * 12 + (m - 1) + wholeNumber(months);
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return formatIsoDay([year, month, Math.min(d, daysInMonth(year, month))]);
}

function clockOf(dueDate: string, doneAt: string | null, today: string, dueSoonDays: number): Clock {
  if (doneAt !== null) return { dueDate, doneAt, state: doneAt.slice(0, 10) <= dueDate ? 'met' : 'late' };
  if (today > dueDate) return { dueDate, doneAt, state: 'overdue' };
  const daysLeft = dayNumber(dueDate) - dayNumber(today);
  return { dueDate, doneAt, state: daysLeft <= dueSoonDays ? 'dueSoon' : 'onTime' };
}

/** Both clocks of a report on `today` (WIB day). */
export function handlingClock(
  facts: HandlingFacts,
  deadlines: HandlingDeadlines,
  today: string,
): HandlingClock {
  const filedDay = facts.filedAt.slice(0, 10);
  const acknowledgement = clockOf(
    addDays(filedDay, deadlines.ackDays),
    facts.acknowledgedAt,
    today,
    DUE_SOON_DAYS.acknowledgement,
  );
  const feedback = clockOf(
    addMonths(filedDay, deadlines.feedbackMonths),
    facts.answeredAt,
    today,
    DUE_SOON_DAYS.feedback,
  );
  const stage: ClockStage =
    facts.acknowledgedAt === null ? 'acknowledgement' : facts.answeredAt === null ? 'feedback' : 'done';
  return { stage, acknowledgement, feedback };
}

/** The clock of the running step (the list column), or null when the report is handled. */
export function runningClock(clock: HandlingClock): Clock | null {
  if (clock.stage === 'done') return null;
  return clock[clock.stage];
}

/** Overdue now: the running step is past its deadline. */
export const isOverdue = (clock: HandlingClock): boolean => runningClock(clock)?.state === 'overdue';

/**
 * The date promised to the reporter: the deadline of the running step, or null once answered
 * ("Laporan Anda akan ditanggapi paling lambat …").
 */
export function promisedReplyDate(clock: HandlingClock): string | null {
  return runningClock(clock)?.dueDate ?? null;
}

/** One handling event: a status change (final or not) from the legacy's log, or a handler message. */
export type HandlingEvent = { at: string; kind: 'status-change' | 'final-status' | 'message' };

/**
 * Acknowledgement and answer from the events (any order): the first event acknowledges, the next one
 * answers; a final status answers at once (and acknowledges, when it is the first).
 */
export function handlingFacts(filedAt: string, events: readonly HandlingEvent[]): HandlingFacts {
  const sorted = [...events].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  let acknowledgedAt: string | null = null;
  let answeredAt: string | null = null;
  for (const event of sorted) {
    if (acknowledgedAt === null) {
      acknowledgedAt = event.at;
      if (event.kind === 'final-status') answeredAt = event.at;
    } else if (answeredAt === null) {
      answeredAt = event.at;
    }
    if (answeredAt !== null) break;
  }
  return { filedAt, acknowledgedAt, answeredAt };
}

/**
 * Status changes in a legacy activity log: each entry whose status differs from the one before it
 * (a case starts in `initialStatusId`, Baru); a note in the same status changes nothing.
 */
export function statusChangeEvents(
  logs: readonly { at: string | null; statusId: number | null }[],
  initialStatusId: number,
  isFinal: (statusId: number) => boolean,
): HandlingEvent[] {
  const ordered = logs
    .filter((log): log is { at: string; statusId: number } => log.at !== null && log.statusId !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const events: HandlingEvent[] = [];
  let current = initialStatusId;
  for (const log of ordered) {
    if (log.statusId === current) continue;
    current = log.statusId;
    events.push({ at: log.at, kind: isFinal(log.statusId) ? 'final-status' : 'status-change' });
  }
  return events;
}
