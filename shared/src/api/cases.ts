/**
 * Cases and tracking (docs/api-contract.md, "Cases, tracking"): the case search and page, the
 * export filters, the ONE case detail shape (GET /cases/{id} and POST /tracking, the tracker's copy
 * masked by the gateway) and the tracking request.
 */
import * as v from 'valibot';
import { isSupportedIsoDate } from '../dates.ts';
import { ACK_DAYS_RANGE, calendarDayIn, FEEDBACK_MONTHS_RANGE } from '../handling-clock.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { idString, nullableNumber, nullableString, pageOf, wibDateTime } from './common.ts';
import { periodEntries, periodOrdered } from './dates.ts';
import { caseStatusSchema } from './reference.ts';

const witDay = calendarDayIn(9 * 3600_000);

/**
 * Today's date (YYYY-MM-DD) in WIT (UTC+9), Indonesia's easternmost time zone: the latest calendar
 * day any Indonesian user can have, so "not later than today" never refuses a user's own today
 * (a browser in Jayapura is 2 hours ahead of the WIB server day).
 */
export function latestIndonesianToday(now: number = Date.now()): string {
  return witDay(now);
}

/** Spec §9: the case-list date filter cannot be later than today. */
const toNotAfterToday = (input: { to: string }) =>
  !isSupportedIsoDate(input.to) || input.to <= latestIndonesianToday();

const numberFilter = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(50, M.caseNumberInvalid)));

/** Sort keys of the case list (`-` = descending); the web sends `-createdAt`. */
export const CASE_SORT_FIELDS = [
  'createdAt',
  'number',
  'categoryName',
  'caseLineName',
  'status',
  'companyName',
] as const;
export type CaseSortField = (typeof CASE_SORT_FIELDS)[number];
const sortValues = CASE_SORT_FIELDS.flatMap((f) => [f, `-${f}`] as const);

const optionalId = v.optional(v.pipe(v.number('Id tidak valid'), v.integer('Id tidak valid'), v.minValue(1)));
const pageNumber = (max: number) =>
  v.optional(
    v.pipe(
      v.number('Nomor halaman tidak valid'),
      v.integer('Nomor halaman tidak valid'),
      v.minValue(1, 'Nomor halaman tidak valid'),
      v.maxValue(max, 'Nomor halaman tidak valid'),
    ),
  );

/**
 * The filters of the case list and of its export. `from`/`to` (YYYY-MM-DD) are required;
 * `companyId` is required for partner users (types 3, 5) and must be the caller's own company for
 * company users.
 */
const caseFilterEntries = {
  ...periodEntries,
  number: numberFilter,
  categoryId: optionalId,
  caseLineId: optionalId,
  statusId: optionalId,
  companyId: optionalId,
};

/**
 * POST /cases/search body: the filters, paging and sort. A body, not a query string, because the
 * `number` filter is a complaint number, which must never appear in a URL (proxy and access logs,
 * browser history).
 */
export const caseSearchRequest = v.pipe(
  v.object({
    ...caseFilterEntries,
    page: pageNumber(1_000_000),
    pageSize: pageNumber(100),
    search: v.optional(v.pipe(v.string(), v.maxLength(100))),
    sort: v.optional(v.picklist(sortValues, M.sortInvalid)),
    /** Only reports whose running handling step is past its deadline (the gateway pages them itself). */
    overdue: v.optional(v.boolean()),
    /**
     * Only reports of the reporter's province (and city), or with `unlocated` only those naming none
     * (Peta Laporan's links; answered from the case index, docs/product/insights.md). A small area
     * (1 to 4 reports) is 409 `area-too-small`, as on the map.
     */
    provinceId: optionalId,
    cityId: optionalId,
    unlocated: v.optional(v.boolean()),
  }),
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
  v.forward(v.partialCheck([['to']], toNotAfterToday, M.dateAfterToday), ['to']),
);
export type CaseSearchRequest = v.InferOutput<typeof caseSearchRequest>;

/** POST /cases/export body: the list filters without paging. */
export const caseExportRequest = v.pipe(
  v.object(caseFilterEntries),
  v.forward(v.partialCheck([['from'], ['to']], periodOrdered, M.dateRangeInvalid), ['from']),
  v.forward(v.partialCheck([['to']], toNotAfterToday, M.dateAfterToday), ['to']),
);
export type CaseExportRequest = v.InferOutput<typeof caseExportRequest>;

const clockState = v.picklist(['onTime', 'dueSoon', 'overdue', 'met', 'late']);
const clockSchema = v.object({
  /** YYYY-MM-DD (WIB): the last day the step is on time. */
  dueDate: v.string(),
  /** WIB wall time of the status change or message that completed the step. */
  doneAt: v.nullable(wibDateTime),
  state: clockState,
});

/**
 * The handling clocks of a report (shared/src/handling-clock.ts): acknowledgement (default 7 days after
 * filing) and feedback (default 3 months), `stage` the running one. Null when the gateway's store could
 * not be read: the rest of the reply is still served.
 */
export const handlingClockSchema = v.object({
  stage: v.picklist(['acknowledgement', 'feedback', 'done']),
  acknowledgement: clockSchema,
  feedback: clockSchema,
});

/** A company's handling deadlines: the group default unless the company has its own. */
export const handlingDeadlinesSchema = v.object({
  ackDays: v.pipe(
    v.number('Jumlah hari tidak valid'),
    v.integer('Jumlah hari tidak valid'),
    v.minValue(ACK_DAYS_RANGE.min, `Minimal ${ACK_DAYS_RANGE.min} hari`),
    v.maxValue(ACK_DAYS_RANGE.max, `Maksimal ${ACK_DAYS_RANGE.max} hari`),
  ),
  feedbackMonths: v.pipe(
    v.number('Jumlah bulan tidak valid'),
    v.integer('Jumlah bulan tidak valid'),
    v.minValue(FEEDBACK_MONTHS_RANGE.min, `Minimal ${FEEDBACK_MONTHS_RANGE.min} bulan`),
    v.maxValue(FEEDBACK_MONTHS_RANGE.max, `Maksimal ${FEEDBACK_MONTHS_RANGE.max} bulan`),
  ),
});
export type HandlingDeadlinesInput = v.InferOutput<typeof handlingDeadlinesSchema>;

/** GET /handling-deadlines: per company of the caller's scope, its deadlines and where they come from. */
export const handlingDeadlinesReply = v.object({
  defaults: v.object({ ackDays: v.number(), feedbackMonths: v.number() }),
  companies: v.array(
    v.object({
      companyId: v.number(),
      companyName: v.string(),
      ackDays: v.number(),
      feedbackMonths: v.number(),
      /** True when the company has its own setting (else the group default applies). */
      own: v.boolean(),
    }),
  ),
});
export type HandlingDeadlinesReply = v.InferOutput<typeof handlingDeadlinesReply>;

/** One row of the case list. */
export const caseListItemSchema = v.object({
  id: v.number(),
  number: v.string(),
  createdAt: wibDateTime,
  companyId: v.number(),
  companyName: nullableString,
  categoryId: nullableNumber,
  categoryName: nullableString,
  caseLineId: nullableNumber,
  caseLineName: nullableString,
  status: v.nullable(caseStatusSchema),
  handling: v.nullable(handlingClockSchema),
});
export type CaseListItem = v.InferOutput<typeof caseListItemSchema>;
/**
 * A row of the case list: the case, and for handlers (types 2-5) how many messages from the reporter
 * no handler has read yet (null for other readers). Carried by the list itself, so the marks follow
 * exactly the list's scope.
 */
export const caseListRowSchema = v.object({
  ...caseListItemSchema.entries,
  unreadFromReporter: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export type CaseListRow = v.InferOutput<typeof caseListRowSchema>;
export const caseListReply = pageOf(caseListRowSchema);
export type CaseListReply = v.InferOutput<typeof caseListReply>;

export const caseAttachmentParams = v.object({ id: idString, attachmentId: idString });
export const caseLogParams = v.object({ id: idString, logId: idString });

/** The reporter (step 0 of the wizard). `null` = not given, or withheld from this reader. */
export const caseReporterSchema = v.object({
  anonymous: v.boolean(),
  /**
   * The signed-in pelapor chose "Sembunyikan identitas" on its profile: name and identity fields are
   * withheld from handlers (null) on all of its cases.
   */
  identityHidden: v.boolean(),
  /**
   * `email` and `phone` are masked for this reader (anonymous report or hidden identity, read by a
   * handler); `POST /cases/{id}/contact-reveal` gives them in clear to whoever may write activity logs.
   */
  contactMasked: v.boolean(),
  /** 1 Pribadi, 2 Instansi. */
  type: nullableNumber,
  name: nullableString,
  department: nullableString,
  email: nullableString,
  phone: nullableString,
  address: nullableString,
  provinceName: nullableString,
  cityName: nullableString,
  districtName: nullableString,
});

/** The answers of step 2, named as the wizard's fields (web/src/case/questions.ts). */
export const caseReportSchema = v.object({
  what: nullableString,
  where: nullableString,
  when: nullableString,
  perpetrator: nullableString,
  directorate: nullableString,
  division: nullableString,
  how: nullableString,
  involved: nullableString,
  financialLoss: nullableString,
  occurredBefore: nullableString,
  reportedToBefore: nullableString,
  perpetratorResponse: nullableString,
  repeatReason: nullableString,
  identificationReason: nullableString,
  needsProtection: v.nullable(v.boolean()),
  protectionReason: nullableString,
});
export type CaseReport = v.InferOutput<typeof caseReportSchema>;

/**
 * An activity log entry. For readers without `case-logs:read-full` (type 6, trackers) the gateway
 * sends `message: '**********'`, `noteHidden: true`, `createdBy: null`, `attachmentName: null`.
 */
export const caseLogEntrySchema = v.object({
  id: v.number(),
  createdAt: wibDateTime,
  statusName: nullableString,
  message: v.string(),
  noteHidden: v.boolean(),
  createdBy: nullableString,
  attachmentName: nullableString,
});
export type CaseLogEntry = v.InferOutput<typeof caseLogEntrySchema>;

export const caseDetailAttachmentSchema = v.object({ id: v.number(), name: v.string() });
export type CaseDetailAttachment = v.InferOutput<typeof caseDetailAttachmentSchema>;

export const caseDetailInvolvedSchema = v.object({
  name: v.string(),
  position: v.string(),
  description: nullableString,
});

/** GET /cases/{id} and POST /tracking: the list row's fields, then the whole report. */
export const caseDetailSchema = v.object({
  ...caseListItemSchema.entries,
  channelName: nullableString,
  reporter: caseReporterSchema,
  communication: v.object({ types: v.array(v.number()), time: nullableString }),
  report: caseReportSchema,
  evidenceLink: nullableString,
  attachments: v.array(caseDetailAttachmentSchema),
  allegedlyInvolved: v.array(caseDetailInvolvedSchema),
  logs: v.array(caseLogEntrySchema),
  /** True when every log note of this reply is masked. */
  noteHidden: v.boolean(),
});
export type CaseDetail = v.InferOutput<typeof caseDetailSchema>;

/**
 * POST /tracking: the complaint number and the case password, both required (docs/product/following-a-report.md#tracking).
 * Only in a POST body, never in a URL.
 */
export const trackingRequest = v.object({
  caseNumber: v.optional(
    v.pipe(
      v.string(M.caseNumberRequired),
      v.trim(),
      v.nonEmpty(M.caseNumberRequired),
      v.maxLength(50, M.caseNumberInvalid),
    ),
    '',
  ),
  password: v.optional(
    v.pipe(v.string(M.passwordRequired), v.nonEmpty(M.passwordRequired), v.maxLength(200, M.passwordInvalid)),
    '',
  ),
});
export type TrackingRequest = v.InferOutput<typeof trackingRequest>;
