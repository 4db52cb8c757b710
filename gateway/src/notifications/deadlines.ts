/**
 * Deadline notices (docs/product/notifications.md#handlers): once an hour, every open report of a
 * company the watcher has passed over once is checked against its handling clock, computed as the case
 * list computes it (clocks/service.ts `clockOf`: the kept log facts, the handler messages, the company's
 * deadlines). A report whose acknowledgement is due today or late, or whose feedback is due within 7
 * days or late, gives its handlers one notice of that kind, once per report: the dedupe key names the
 * kind and the case incarnation, so the hourly scan repeats nothing.
 *
 * A report whose status moved since its log facts were read is left for the next scan (the watcher
 * refreshes those facts): a notice on a guessed clock would be a false alarm.
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import {
  addDays,
  type HandlingClock,
  type HandlingDeadlines,
  wibToday,
  wibWallTime,
} from '@wbs/shared/handling-clock';
import type { NoticeKind } from '@wbs/shared/notices';
import type { FastifyBaseLogger } from 'fastify';
import { type OverdueCandidate, overdueCandidates } from '../case-index/store.ts';
import { clockOf } from '../clocks/service.ts';
import { deadlinesOf } from '../clocks/store.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { eq } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { caseWatch } from '../store/schema.ts';
import { type HandlerDirectory, handlesLine } from './recipients.ts';
import { addNotices, type NewNotice, preferencesOf, saveRecipients } from './store.ts';

/** Feedback due within this many days is announced (acknowledgement: due today). */
export const FEEDBACK_DUE_DAYS = 7;

/** The deadline notice a clock calls for today, if any. */
export function deadlineKind(clock: HandlingClock, today: string): NoticeKind | null {
  if (clock.stage === 'acknowledgement') {
    if (clock.acknowledgement.state === 'overdue') return 'ack-overdue';
    return clock.acknowledgement.dueDate <= today ? 'ack-due' : null;
  }
  if (clock.stage === 'feedback') {
    if (clock.feedback.state === 'overdue') return 'feedback-overdue';
    return clock.feedback.dueDate <= addDays(today, FEEDBACK_DUE_DAYS) ? 'feedback-due' : null;
  }
  return null;
}

/** The clock of an index row, or null when its kept facts are not of its current status. */
function clockOfCandidate(
  c: OverdueCandidate,
  deadlines: HandlingDeadlines,
  today: string,
): HandlingClock | null {
  const messages = c.messageMs.map((ms) => wibWallTime(ms));
  if (c.clock && c.clock.statusIdSeen === c.statusId) {
    return clockOf({ ...c.clock, companyId: c.companyId, caseId: c.caseId }, messages, today);
  }
  // Still new: no status change in its log yet, so nothing to read.
  if (c.statusId !== STATUS_NEW_ID && c.statusId !== null) return null;
  return clockOf(
    {
      companyId: c.companyId,
      caseId: c.caseId,
      caseBinding: c.binding,
      filedAt: c.filedAt,
      ackDays: c.clock?.ackDays ?? deadlines.ackDays,
      feedbackMonths: c.clock?.feedbackMonths ?? deadlines.feedbackMonths,
      statusIdSeen: c.statusId,
      logAcknowledgedAt: null,
      logAnsweredAt: null,
    },
    messages,
    today,
  );
}

export type DeadlineDeps = {
  store: Store;
  withLegacy: <T>(work: (legacy: LegacyCaller) => Promise<T>) => Promise<T>;
  directory: HandlerDirectory;
  defaults: HandlingDeadlines;
  finalStatusIds: readonly number[];
  log: FastifyBaseLogger;
  mailOff?: boolean;
  now?: Date;
};

/** One scan over every seeded company; answers the users given a notice that asks for a mail now. */
export async function scanDeadlines(deps: DeadlineDeps): Promise<{ notices: number; mailNow: number[] }> {
  const { store } = deps;
  const today = wibToday((deps.now ?? new Date()).getTime());
  const seeded = await store.db.select().from(caseWatch).where(eq(caseWatch.seeded, true));
  let notices = 0;
  const mailNow = new Set<number>();
  for (const { companyId } of seeded) {
    const deadlines = (await deadlinesOf(store, [companyId], deps.defaults)).get(companyId) ?? deps.defaults;
    const candidates = await overdueCandidates(store, {
      companyId,
      finalStatusIds: deps.finalStatusIds,
      filedUpTo: today,
    });
    const due: { c: OverdueCandidate; kind: NoticeKind }[] = [];
    for (const c of candidates) {
      if (!c.filedAt) continue;
      const clock = clockOfCandidate(c, deadlines, today);
      const kind = clock && deadlineKind(clock, today);
      if (kind) due.push({ c, kind });
    }
    if (due.length === 0) continue;
    const company = await deps.withLegacy((legacy) => deps.directory.of(legacy, companyId));
    if (!company) continue;
    await saveRecipients(
      store,
      company.handlers.map((h) => ({ userId: h.userId, email: h.email })),
    );
    const prefs = await preferencesOf(
      store.db,
      company.handlers.map((h) => h.userId),
    );
    const rows: NewNotice[] = [];
    for (const { c, kind } of due) {
      for (const handler of company.handlers) {
        if (!handlesLine(handler, c.lineId)) continue;
        const mode = prefs.get(handler.userId)?.[kind] ?? 'off';
        rows.push({
          userId: handler.userId,
          kind,
          companyId,
          companyName: company.companyName,
          caseId: c.caseId,
          caseBinding: c.binding,
          dedupe: `${kind}:${companyId}:${c.caseId}:${c.binding}`,
          mail: handler.email && !deps.mailOff ? mode : 'off',
        });
      }
    }
    const added = await addNotices(store.db, rows);
    notices += added.length;
    for (const n of added) if (n.mail === 'immediate') mailNow.add(n.userId);
  }
  deps.log.debug({ notices }, 'notices: deadlines scanned');
  return { notices, mailNow: [...mailNow] };
}
