/**
 * Turns case events into notices (docs/product/notifications.md#handlers). The events are read in id
 * order after a cursor kept in the store; a batch's notices and the cursor's move are one transaction,
 * and a notice is unique per user and event, so a crash or a second run neither loses nor repeats one.
 * Mails are sent afterwards by the mail jobs (mail-jobs.ts), for the users whose notices ask for one.
 */
import type { MailMode, NoticeKind } from '@wbs/shared/notices';
import type { FastifyBaseLogger } from 'fastify';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { appendCaseEvents } from '../store/case-events.ts';
import { asc, eq, gt, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { type CaseEventKind, caseEvent, eventCursor } from '../store/schema.ts';
import type { CompanyHandlers, HandlerDirectory } from './recipients.ts';
import { handlesLine } from './recipients.ts';
import { addNotices, type NewNotice, preferencesOf, saveRecipients } from './store.ts';

const CURSOR = 'notices';
/** Events turned into notices per run (a long backlog continues in the next run at once). */
export const EVENT_BATCH = 200;

/** The notice each kind of event gives handlers (none: the event is for the index only). */
const NOTICE_OF_EVENT: Partial<Record<CaseEventKind, NoticeKind>> = {
  'case-filed': 'new-report',
  'case-routed': 'case-routed',
  'reporter-message': 'reporter-message',
  'reporter-evidence': 'reporter-evidence',
};

export type NotifierDeps = {
  store: Store;
  /** Runs legacy reads as the service account (its token renewed once when the legacy refuses it). */
  withLegacy: <T>(work: (legacy: LegacyCaller) => Promise<T>) => Promise<T>;
  directory: HandlerDirectory;
  log: FastifyBaseLogger;
  /** No mail server (SMTP_URL unset): notices are for the bell only, none waits for a mail. */
  mailOff?: boolean;
};

export type NotifyResult = {
  events: number;
  notices: number;
  /** Users with a notice just added that asks for a mail at once. */
  mailNow: number[];
  /** More events wait after this batch. */
  more: boolean;
};

type EventRow = typeof caseEvent.$inferSelect;

/** Who of a company's handlers hears of an event: a routed case only the analysts of its new line. */
function recipientsOf(event: EventRow, kind: NoticeKind, company: CompanyHandlers) {
  return company.handlers.filter((handler) => {
    if (kind === 'case-routed') return handler.userType === 4 && handlesLine(handler, event.lineId);
    return handlesLine(handler, event.lineId);
  });
}

export async function notifyCaseEvents(deps: NotifierDeps, batch = EVENT_BATCH): Promise<NotifyResult> {
  const { store, directory } = deps;
  const [cursor] = await store.db.select().from(eventCursor).where(eq(eventCursor.name, CURSOR));
  const after = cursor?.lastId ?? 0;
  const events = await store.db
    .select()
    .from(caseEvent)
    .where(gt(caseEvent.id, after))
    .orderBy(asc(caseEvent.id))
    .limit(batch + 1);
  const more = events.length > batch;
  const todo = events.slice(0, batch);
  if (todo.length === 0) return { events: 0, notices: 0, mailNow: [], more: false };

  // The handlers of each company once per batch; a legacy failure throws, and the whole batch is
  // tried again later (nothing of it was written).
  const companies = new Map<number, CompanyHandlers | null>();
  const wanted = [...new Set(todo.filter((e) => NOTICE_OF_EVENT[e.kind]).map((e) => e.companyId))];
  if (wanted.length > 0) {
    await deps.withLegacy(async (legacy) => {
      for (const companyId of wanted) companies.set(companyId, await directory.of(legacy, companyId));
    });
  }

  const candidates: Omit<NewNotice, 'mail'>[] = [];
  for (const event of todo) {
    const kind = NOTICE_OF_EVENT[event.kind];
    const company = companies.get(event.companyId);
    if (!kind || !company) continue;
    for (const handler of recipientsOf(event, kind, company)) {
      candidates.push({
        userId: handler.userId,
        kind,
        companyId: event.companyId,
        companyName: company.companyName,
        caseId: event.caseId,
        caseBinding: event.caseBinding,
        // A case is announced as new once, whoever noticed it first (the watcher's head poll or sweep).
        dedupe:
          kind === 'new-report'
            ? `filed:${event.companyId}:${event.caseId}:${event.caseBinding}`
            : `event:${event.id}`,
      });
    }
  }
  const emails = new Map<number, boolean>();
  const recipients: { userId: number; email: string | null }[] = [];
  for (const company of companies.values()) {
    for (const handler of company?.handlers ?? []) {
      emails.set(handler.userId, handler.email !== null);
      recipients.push({ userId: handler.userId, email: handler.email });
    }
  }
  // Where their mails go, as the legacy says now (a mail job reads it from the store only).
  await saveRecipients(store, recipients);

  const lastId = todo[todo.length - 1]!.id;
  const added = await store.db.transaction(async (tx) => {
    const prefs = await preferencesOf(tx, [...new Set(candidates.map((c) => c.userId))]);
    const rows: NewNotice[] = candidates.map((c) => {
      const mode: MailMode = prefs.get(c.userId)?.[c.kind] ?? 'off';
      // Without an address the bell is the only way: nothing waits for a mail that cannot be sent.
      return { ...c, mail: emails.get(c.userId) && !deps.mailOff ? mode : 'off' };
    });
    const inserted = await addNotices(tx, rows);
    // Moves only from where this run started: a second notifier that got here first wins, and this
    // run's notices were already kept out by their dedupe keys.
    await tx
      .insert(eventCursor)
      .values({ name: CURSOR, lastId })
      .onConflictDoUpdate({
        target: eventCursor.name,
        set: { lastId: sql`greatest(${eventCursor.lastId}, excluded.last_id)` },
      });
    return inserted;
  });
  const mailNow = [...new Set(added.filter((n) => n.mail === 'immediate').map((n) => n.userId))];
  deps.log.debug({ events: todo.length, notices: added.length }, 'notices: events delivered');
  return { events: todo.length, notices: added.length, mailNow, more };
}

/** Records what the gateway itself saw happen to a case (a reporter's message or evidence). */
export async function recordCaseEvent(
  store: Store,
  event: {
    kind: CaseEventKind;
    companyId: number;
    caseId: number;
    caseBinding: string;
    lineId: number | null;
    facts?: Record<string, number | string | boolean | null>;
  },
): Promise<number> {
  const [id] = await store.db.transaction((tx) =>
    appendCaseEvents(tx, [{ ...event, facts: event.facts ?? {} }]),
  );
  return id ?? 0;
}

/**
 * `recordCaseEvent` for a request that already did its work (a reporter's message stored, evidence at
 * the legacy): a failing store must not fail it, so the failure is logged and the handlers miss this
 * one notice (the case list still marks the message unread).
 */
export async function recordCaseEventQuietly(
  store: Store,
  log: FastifyBaseLogger,
  event: Parameters<typeof recordCaseEvent>[1],
): Promise<void> {
  try {
    await recordCaseEvent(store, event);
  } catch (error) {
    log.error(
      { err: { message: (error as Error).message }, kind: event.kind },
      'notices: case event not recorded',
    );
  }
}
