/**
 * The case index rows the figures are computed from (docs/adr/0065-insights-from-the-case-index.md):
 * one statement per request, the caller's companies and line, the filing days of the range, each row
 * with its kept clock facts, its first two handler messages and whether the reporter came back. No
 * legacy read: what the watcher has not read yet is counted as unknown, never looked up here.
 */
import { filedFrom, filedUpTo } from '../case-index/filing-days.ts';
import { UNBOUND_ROW_GRACE_MS } from '../store/case-binding.ts';
import { type SQL, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';

/** Whose cases: companies of the scope, and for an analyst its line and the cases not routed yet. */
export type FigureScope = {
  companyIds: readonly number[];
  /** An analyst (type 4): cases of this line or of none yet; null: only those of none. */
  staffLineId?: number | null;
};

export type FigureClock = {
  filedAt: string;
  ackDays: number;
  feedbackMonths: number;
  statusIdSeen: number | null;
  logAcknowledgedAt: string | null;
  logAnsweredAt: string | null;
};

/** One report as the figures see it (facts only: no number, no name, no text). */
export type FigureRow = {
  companyId: number;
  caseId: number;
  binding: string;
  filedAt: string;
  lineId: number | null;
  categoryId: number | null;
  statusId: number | null;
  channelId: number | null;
  anonymous: boolean | null;
  provinceId: number | null;
  cityId: number | null;
  detailRead: boolean;
  returned: boolean;
  /** Kept clock facts of this incarnation (clocks/store.ts), or null. */
  clock: FigureClock | null;
  /** When the first two handler messages of this incarnation were written (ms), oldest first. */
  messageMs: number[];
};

type Row = {
  company_id: number;
  case_id: number;
  case_binding: string;
  filed_at: string;
  line_id: number | null;
  category_id: number | null;
  status_id: number | null;
  channel_id: number | null;
  anonymous: boolean | null;
  province_id: number | null;
  city_id: number | null;
  detail_read: boolean;
  returned: boolean;
  has_clock?: boolean;
  c_filed_at?: string | null;
  ack_days?: number | null;
  feedback_months?: number | null;
  status_id_seen?: number | null;
  log_acknowledged_at?: string | null;
  log_answered_at?: string | null;
  message_ms?: number[] | string | null;
};

const nullableNumber = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

/** A float8[] as node-postgres (numbers) or PGlite (numbers, or the array's text) hands it over. */
const msList = (value: Row['message_ms']): number[] => {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
};

export type FigureRange = { from?: string | undefined; to?: string | undefined };

/**
 * The index rows (alias `i`) of `scope` filed on the days `from` to `to` (YYYY-MM-DD, WIB, both
 * inclusive). `scope.companyIds` must not be empty.
 */
export function scopeWhere(scope: FigureScope, range: FigureRange): SQL {
  const conditions = [sql`i.company_id in ${[...scope.companyIds]}`, sql`i.filed_at <> ''`];
  if (range.from) conditions.push(filedFrom(sql`i.filed_at`, range.from));
  if (range.to) conditions.push(filedUpTo(sql`i.filed_at`, range.to));
  if (scope.staffLineId !== undefined) {
    conditions.push(
      scope.staffLineId === null
        ? sql`i.line_id is null`
        : sql`(i.line_id is null or i.line_id = ${scope.staffLineId})`,
    );
  }
  return sql.join(conditions, sql` and `);
}

/**
 * The reports of `scope` filed on the days `from` to `to` (YYYY-MM-DD, WIB, both inclusive), oldest
 * first. `clocks`: with the clock facts and handler messages (Statistik); without, location only.
 */
export async function figureRows(
  store: Store,
  scope: FigureScope,
  range: FigureRange,
  clocks: boolean,
): Promise<FigureRow[]> {
  if (scope.companyIds.length === 0) return [];
  const where = scopeWhere(scope, range);
  const returned = sql`exists (select 1 from case_return r where r.company_id = i.company_id
    and r.case_id = i.case_id and r.case_binding = i.case_binding) as returned`;
  // The clock row and the messages of the index row's own incarnation (store/case-binding.ts), as the
  // overdue path joins them (case-index/store.ts overdueCandidates).
  const query = clocks
    ? sql`
    select i.*, ${returned}, c.case_id is not null as has_clock, c.filed_at as c_filed_at, c.ack_days,
           c.feedback_months, c.status_id_seen, c.log_acknowledged_at, c.log_answered_at, m.message_ms
      from case_index i
      left join case_clock c
        on c.company_id = i.company_id and c.case_id = i.case_id
       and (c.case_binding = i.case_binding or (c.case_binding is null and c.filed_at = i.filed_at))
      left join lateral (
        select array_agg(x.ms order by x.id) as message_ms
          from (select m.id, (extract(epoch from m.created_at) * 1000)::float8 as ms
                  from case_message m
                 where m.company_id = i.company_id and m.case_id = i.case_id and m.author_kind = 'handler'
                   and (m.case_binding = i.case_binding
                        or (m.case_binding is null
                            and m.created_at >= (i.filed_at || '+07:00')::timestamptz
                                               - make_interval(secs => ${UNBOUND_ROW_GRACE_MS / 1000})))
                 order by m.id
                 limit 2) x
      ) m on true
     where ${where}
     order by i.filed_at, i.company_id, i.case_id`
    : sql`select i.*, ${returned} from case_index i where ${where} order by i.filed_at, i.company_id, i.case_id`;
  const result = (await store.db.execute(query)) as unknown as { rows: Row[] };
  return result.rows.map((row) => ({
    companyId: Number(row.company_id),
    caseId: Number(row.case_id),
    binding: row.case_binding,
    filedAt: row.filed_at,
    lineId: nullableNumber(row.line_id),
    categoryId: nullableNumber(row.category_id),
    statusId: nullableNumber(row.status_id),
    channelId: nullableNumber(row.channel_id),
    anonymous: row.anonymous,
    provinceId: nullableNumber(row.province_id),
    cityId: nullableNumber(row.city_id),
    detailRead: Boolean(row.detail_read),
    returned: Boolean(row.returned),
    clock: row.has_clock
      ? {
          filedAt: row.c_filed_at as string,
          ackDays: Number(row.ack_days),
          feedbackMonths: Number(row.feedback_months),
          statusIdSeen: nullableNumber(row.status_id_seen),
          logAcknowledgedAt: row.log_acknowledged_at ?? null,
          logAnsweredAt: row.log_answered_at ?? null,
        }
      : null,
    messageMs: msList(row.message_ms),
  }));
}

/** Whether the watcher has swept each of these companies once (their index rows are complete). */
export async function unseededCompanies(store: Store, companyIds: readonly number[]): Promise<number[]> {
  if (companyIds.length === 0) return [];
  const result = (await store.db.execute(
    sql`select company_id from case_watch where seeded and company_id in ${[...companyIds]}`,
  )) as unknown as { rows: { company_id: number }[] };
  const seeded = new Set(result.rows.map((row) => Number(row.company_id)));
  return companyIds.filter((id) => !seeded.has(id));
}
