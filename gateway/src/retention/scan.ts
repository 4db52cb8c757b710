/**
 * The retention scan (docs/product/retention.md, docs/adr/0063-retention-scan-and-disposal-register.md).
 * One run, bounded:
 * 1. when each final case of the case index became final (`case_index.closed_at`), read from the
 *    legacy's activity log with the gateway's own account: the entry that moved the case into its
 *    current final stretch; when the log shows none, the time the gateway learnt the case's current
 *    facts (the index row's `changed_at`). A few cases per run; the rest at the next one;
 * 2. every final case past its company's retention period that the register lacks: in ONE
 *    transaction its register entry is made (the unique entry per incarnation is the claim: a second
 *    replica's scan finds it and does nothing), the gateway's personal data of that incarnation is
 *    deleted, and one audit record with the counts is chained.
 * 3. every registered case, still final, whose incarnation holds gateway data again: deleted again.
 * What is kept: the case index and its events (facts only) and the audit trail. Nothing is deleted at
 * the legacy: the officer does that and marks the entry.
 *
 * Plain options, no request: the job and POST /disposals/scan run the same function.
 */
import { STATUS_NEW_ID } from '@wbs/shared/constants';
import {
  addMonths,
  normaliseWallTime,
  statusChangeEvents,
  wibToday,
  wibWallTime,
} from '@wbs/shared/handling-clock';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditActor } from '../audit/chain.ts';
import { appendAuditRunIn, type StoreTx } from '../audit/store.ts';
import { eachLimited } from '../clocks/service.ts';
import { ApiProblem } from '../errors.ts';
import type { LegacyCase } from '../legacy/case-schemas.ts';
import { companyCase } from '../legacy/cases.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';
import { caseStatusTable } from '../legacy/reference.ts';
import { type BoundCase, ofThisCase } from '../store/case-binding.ts';
import { sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';

/** What one run may do. */
export type ScanBudget = {
  /** Case details read to learn when a case became final. */
  closedLookups: number;
  /** Cases purged and registered. */
  purges: number;
};

export const DEFAULT_SCAN_BUDGET: ScanBudget = { closedLookups: 50, purges: 200 };

/** Who the audit records name: the officer of POST /disposals/scan, or the gateway itself (the job). */
export type ScanActor = { actor: AuditActor; method: string; route: string | null };

/** The gateway's own actor in the audit trail (user id 0, as the operator's tools use). */
export const SYSTEM_ACTOR: ScanActor = {
  actor: { userId: 0, userType: 0, role: null, companyId: null, partnerId: null },
  method: 'JOB',
  route: null,
};

export type RetentionScanOptions = {
  store: Store;
  /** Runs legacy work with the gateway's own account (legacy/plugin.ts asServiceAccount). */
  withLegacy<T>(work: (legacy: LegacyCaller) => Promise<T>): Promise<T>;
  log: FastifyBaseLogger;
  /** The group's retention period (RETENTION_MONTHS). */
  defaultMonths: number;
  by?: ScanActor;
  budget?: Partial<ScanBudget>;
  now?: () => number;
};

export type ScanReport = {
  /** The status table was read (without it nothing is final, and nothing is done). */
  finalsKnown: boolean;
  /** Index rows whose final time was learnt, and lookups that failed (tried again next run). */
  closedFound: number;
  lookupsFailed: number;
  /** Cases entered in the register, and those of them whose gateway data held any row to delete. */
  registered: number;
  purged: number;
  /** Work is left for the next run (a long backlog). */
  more: boolean;
};

/** Rows deleted (or unlinked) per kind for one case: what its audit record says. */
export type PurgeCounts = {
  messages: number;
  conversations: number;
  identityAccesses: number;
  clocks: number;
  subscriptions: number;
  confirmationSends: number;
  noticeLinks: number;
  /** The reporter's "came back" fact (insights/returns.ts). */
  returns: number;
};

/**
 * When the case entered its current final stretch, as its log tells: the entry that moved it from an
 * open status into a final one (a later move from one final status to another does not restart the
 * period). Null when the log shows no such entry.
 */
export function closedAtOf(c: LegacyCase, finals: ReadonlySet<number>): string | null {
  const events = statusChangeEvents(
    (c.caselogs ?? []).map((log) => ({
      at: normaliseWallTime(log.caseLogCreated),
      statusId: log.caseLogCaseStatusId,
    })),
    STATUS_NEW_ID,
    (id) => finals.has(id),
  );
  let closedAt: string | null = null;
  let wasFinal = false;
  for (const event of events) {
    const isFinal = event.kind === 'final-status';
    if (isFinal && !wasFinal) closedAt = event.at;
    if (!isFinal) closedAt = null;
    wasFinal = isFinal;
  }
  return wasFinal ? closedAt : null;
}

type IndexRow = {
  company_id: number;
  case_id: number;
  case_binding: string;
  filed_at: string;
  status_id: number | null;
  changed_at: Date | string;
};

type DueRow = IndexRow & { closed_at: string; months: number | string };

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** Step 1: the final time of a few final cases that lack it. */
async function learnClosedTimes(
  options: RetentionScanOptions,
  finals: ReadonlySet<number>,
  budget: ScanBudget,
  report: ScanReport,
): Promise<void> {
  const { store } = options;
  const ids = [...finals];
  // Open again (or moved by another path than the watcher): the final time no longer holds.
  await store.db.execute(sql`
    update case_index set closed_at = null
     where closed_at is not null and (status_id is null or status_id not in (${idList(ids)}))`);
  const result = (await store.db.execute(sql`
    select company_id, case_id, case_binding, filed_at, status_id, changed_at from case_index
     where closed_at is null and status_id in (${idList(ids)})
     order by changed_at, company_id, case_id
     limit ${budget.closedLookups + 1}`)) as unknown as { rows: IndexRow[] };
  const rows = result.rows.slice(0, budget.closedLookups);
  if (result.rows.length > budget.closedLookups) report.more = true;
  await eachLimited(rows, 4, async (row) => {
    let c: LegacyCase | null;
    try {
      c = await options.withLegacy((legacy) =>
        companyCase(legacy, Number(row.company_id), Number(row.case_id)),
      );
    } catch (error) {
      report.lookupsFailed += 1;
      options.log.warn(
        {
          companyId: row.company_id,
          caseId: row.case_id,
          reason: error instanceof ApiProblem ? error.type : (error as Error)?.name,
        },
        'retention: case detail unread',
      );
      return;
    }
    // Gone, another incarnation, or no longer final at the legacy: the watcher brings the index in
    // step first.
    if (!c || store.cases.bind(c).binding !== row.case_binding) return;
    if (c.caseCaseStatusId === null || !finals.has(c.caseCaseStatusId)) return;
    const closedAt = closedAtOf(c, finals) ?? wibWallTime(new Date(row.changed_at));
    const updated = (await store.db.execute(sql`
      update case_index set closed_at = ${closedAt}
       where company_id = ${row.company_id} and case_id = ${row.case_id}
         and case_binding = ${row.case_binding} and status_id = ${row.status_id} and closed_at is null
      returning case_id`)) as unknown as { rows: unknown[] };
    report.closedFound += updated.rows.length;
  });
}

/** The incarnation of an index row as the store's other rows name it (store/case-binding.ts). */
function boundOf(row: IndexRow): BoundCase {
  const filedAt = normaliseWallTime(row.filed_at);
  const filedMs = filedAt ? Date.parse(`${filedAt}+07:00`) : Number.NaN;
  return {
    companyId: Number(row.company_id),
    caseId: Number(row.case_id),
    binding: row.case_binding,
    filedAt,
    filedMs: Number.isFinite(filedMs) ? filedMs : null,
  };
}

const count = (result: unknown) => (result as { rows: unknown[] }).rows.length;

/** Deletes the gateway's personal data of one case incarnation (inside the caller's transaction). */
export async function purgeCaseData(tx: StoreTx, ref: BoundCase): Promise<PurgeCounts> {
  const { companyId, caseId, binding } = ref;
  const ofCase = sql`company_id = ${companyId} and case_id = ${caseId}`;
  const messages = count(
    await tx.execute(sql`delete from case_message where ${ofCase}
      and ${ofThisCase(ref, sql`case_binding`, sql`created_at`)} returning id`),
  );
  // The unread marks: message ids of this incarnation (an unbound row marks nothing of another one).
  const conversations = count(
    await tx.execute(sql`delete from case_conversation where ${ofCase}
      and (case_binding = ${binding} or case_binding is null) returning case_id`),
  );
  // Identity-access history, the contact reveals included.
  const identityAccesses = count(
    await tx.execute(sql`delete from identity_access where ${ofCase}
      and ${ofThisCase(ref, sql`case_binding`, sql`accessed_at`)} returning id`),
  );
  const clocks = count(
    await tx.execute(sql`delete from case_clock where ${ofCase}
      and (case_binding = ${binding} or (case_binding is null and filed_at = ${ref.filedAt ?? ''}))
      returning case_id`),
  );
  const subscriptions = (await tx.execute(sql`delete from reporter_subscription where ${ofCase}
      and case_binding = ${binding} returning id`)) as unknown as { rows: { id: number | string }[] };
  const subscriptionIds = subscriptions.rows.map((row) => Number(row.id));
  // The confirmation sends of those subscriptions, and any of the case left without one.
  const confirmationSends = count(
    await tx.execute(sql`delete from reporter_confirmation_send s where s.company_id = ${companyId}
      and s.case_id = ${caseId}
      and (${subscriptionIds.length > 0 ? sql`s.subscription_id in (${idList(subscriptionIds)}) or ` : sql``}
           not exists (select 1 from reporter_subscription r where r.id = s.subscription_id))
      returning s.id`),
  );
  const returns = count(
    await tx.execute(
      sql`delete from case_return where ${ofCase} and case_binding = ${binding} returning case_id`,
    ),
  );
  // Handlers' notices stay (who was told what kind of thing, and when); their link to the case goes.
  const noticeLinks = count(
    await tx.execute(sql`update notice set case_id = null, case_binding = null where ${ofCase}
      and ${ofThisCase(ref, sql`case_binding`, sql`created_at`)} returning id`),
  );
  return {
    messages,
    conversations,
    identityAccesses,
    clocks,
    subscriptions: subscriptionIds.length,
    confirmationSends,
    noticeLinks,
    returns,
  };
}

/** Step 2: every due case the register lacks, one transaction each. */
async function purgeDue(
  options: RetentionScanOptions,
  finals: ReadonlySet<number>,
  budget: ScanBudget,
  report: ScanReport,
  today: string,
): Promise<void> {
  const { store } = options;
  const by = options.by ?? SYSTEM_ACTOR;
  const result = (await store.db.execute(sql`
    select i.company_id, i.case_id, i.case_binding, i.filed_at, i.status_id, i.changed_at, i.closed_at,
           coalesce(p.months, ${options.defaultMonths}) as months
      from case_index i
      left join retention_period p on p.company_id = i.company_id
     where i.closed_at is not null and i.status_id in (${idList([...finals])})
       and not exists (select 1 from case_disposal d where d.company_id = i.company_id
                         and d.case_id = i.case_id and d.case_binding = i.case_binding)
       and (left(i.closed_at, 10)::date
            + make_interval(months => coalesce(p.months, ${options.defaultMonths})::int))::date
           <= ${today}::date
     order by i.closed_at, i.company_id, i.case_id
     limit ${budget.purges + 1}`)) as unknown as { rows: DueRow[] };
  const rows = result.rows.slice(0, budget.purges);
  if (result.rows.length > budget.purges) report.more = true;
  for (const row of rows) {
    const ref = boundOf(row);
    const dueDate = addMonths(row.closed_at.slice(0, 10), Number(row.months));
    const outcome = await store.db.transaction(async (tx) => {
      const entered = (await tx.execute(sql`
        insert into case_disposal (company_id, case_id, case_binding, status_id, closed_at, due_date, store_purged_at)
        values (${ref.companyId}, ${ref.caseId}, ${ref.binding}, ${row.status_id}, ${row.closed_at}, ${dueDate},
                clock_timestamp())
        on conflict (company_id, case_id, case_binding) do nothing
        returning id`)) as unknown as { rows: { id: number | string }[] };
      const disposalId = entered.rows[0]?.id;
      // Another scan registered it first: its purge and record are done (or roll back together).
      if (disposalId === undefined) return null;
      const counts = await purgeCaseData(tx, ref);
      await appendAuditRunIn(tx, [
        {
          event: 'retention-purged',
          actor: by.actor,
          method: by.method,
          route: by.route,
          fields: {
            disposalId: Number(disposalId),
            companyId: ref.companyId,
            caseId: ref.caseId,
            retentionMonths: Number(row.months),
            dueDate,
            ...counts,
          },
        },
      ]);
      return counts;
    });
    if (!outcome) continue;
    report.registered += 1;
    if (Object.values(outcome).some((n) => n > 0)) report.purged += 1;
  }
}

/**
 * Step 3: a registered case, still final, whose incarnation holds gateway data again — a tracker may
 * still write on a closed case, a handler may open its identity, a reporter may ask for mail again —
 * loses it as at registration, each time with its own audit record (`again`). A case opened again is
 * left alone: its handling is under way, and what it gathers is deleted when it is final and this
 * step finds it again.
 */
async function purgeAgain(
  options: RetentionScanOptions,
  finals: ReadonlySet<number>,
  budget: ScanBudget,
  report: ScanReport,
): Promise<void> {
  const { store } = options;
  const by = options.by ?? SYSTEM_ACTOR;
  const ofEntry = (table: string) => sql`exists (select 1 from ${sql.raw(table)} x
      where x.company_id = d.company_id and x.case_id = d.case_id and x.case_binding = d.case_binding)`;
  const result = (await store.db.execute(sql`
    select d.id as disposal_id, i.company_id, i.case_id, i.case_binding, i.filed_at, i.status_id, i.changed_at
      from case_disposal d
      join case_index i on i.company_id = d.company_id and i.case_id = d.case_id
                       and i.case_binding = d.case_binding
     where i.status_id in (${idList([...finals])})
       and (${ofEntry('case_message')} or ${ofEntry('identity_access')} or ${ofEntry('case_conversation')}
            or ${ofEntry('case_clock')} or ${ofEntry('reporter_subscription')}
            or ${ofEntry('case_return')})
     order by d.id
     limit ${budget.purges + 1}`)) as unknown as { rows: (IndexRow & { disposal_id: number | string })[] };
  const rows = result.rows.slice(0, budget.purges);
  if (result.rows.length > budget.purges) report.more = true;
  for (const row of rows) {
    const ref = boundOf(row);
    const purged = await store.db.transaction(async (tx) => {
      const counts = await purgeCaseData(tx, ref);
      if (!Object.values(counts).some((n) => n > 0)) return false;
      await appendAuditRunIn(tx, [
        {
          event: 'retention-purged',
          actor: by.actor,
          method: by.method,
          route: by.route,
          fields: {
            disposalId: Number(row.disposal_id),
            companyId: ref.companyId,
            caseId: ref.caseId,
            again: true,
            ...counts,
          },
        },
      ]);
      return true;
    });
    if (purged) report.purged += 1;
  }
}

/** One bounded run of the scan. Legacy failures are counted and logged (ids only); store errors throw. */
export async function runRetentionScan(options: RetentionScanOptions): Promise<ScanReport> {
  const budget = { ...DEFAULT_SCAN_BUDGET, ...options.budget };
  const now = options.now ?? Date.now;
  const report: ScanReport = {
    finalsKnown: false,
    closedFound: 0,
    lookupsFailed: 0,
    registered: 0,
    purged: 0,
    more: false,
  };
  let finals: ReadonlySet<number>;
  try {
    const table = await options.withLegacy((legacy) => caseStatusTable(legacy));
    finals = new Set(table.filter((s) => !s.open).map((s) => s.id));
  } catch (error) {
    options.log.warn(
      { reason: error instanceof ApiProblem ? error.type : (error as Error)?.name },
      'retention: status table unread, nothing scanned',
    );
    return report;
  }
  // Without a final status nothing can be past its period; an empty list is never read as "all".
  if (finals.size === 0) return report;
  report.finalsKnown = true;
  await learnClosedTimes(options, finals, budget, report);
  await purgeDue(options, finals, budget, report, wibToday(now()));
  await purgeAgain(options, finals, budget, report);
  return report;
}
