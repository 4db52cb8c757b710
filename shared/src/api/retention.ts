/**
 * Retention and disposal (docs/product/retention.md): the retention period of each company
 * (`/retention-periods`), the disposal register (`/disposals`) and the records of processing
 * (`/processing-records`). Type 1 only. No complaint number and no reporter data anywhere: a case is
 * named by its company and case id.
 */
import * as v from 'valibot';
import { DISPOSAL_NOTE_MAX, RETENTION_MONTHS_RANGE } from '../retention.ts';
import { nullableString, wibDateTime } from './common.ts';

const MONTHS_INVALID = 'Jumlah bulan tidak valid';

/** PUT /retention-periods/{id}: the company's own period. */
export const retentionPeriodRequest = v.object({
  months: v.pipe(
    v.number(MONTHS_INVALID),
    v.integer(MONTHS_INVALID),
    v.minValue(RETENTION_MONTHS_RANGE.min, `Minimal ${RETENTION_MONTHS_RANGE.min} bulan`),
    v.maxValue(RETENTION_MONTHS_RANGE.max, `Maksimal ${RETENTION_MONTHS_RANGE.max} bulan`),
  ),
});
export type RetentionPeriodRequest = v.InferOutput<typeof retentionPeriodRequest>;

/** GET /retention-periods: the group default and every company's period. */
export const retentionPeriodsReply = v.object({
  defaultMonths: v.number(),
  companies: v.array(
    v.object({
      companyId: v.number(),
      companyName: v.string(),
      months: v.number(),
      /** True when the company has its own period (else the group default applies). */
      own: v.boolean(),
    }),
  ),
});
export type RetentionPeriodsReply = v.InferOutput<typeof retentionPeriodsReply>;

export const disposalStateSchema = v.picklist(['waiting', 'overdue', 'destroyed']);

/** GET /disposals: `state` waiting (overdue included) or destroyed; absent: every entry. */
export const disposalListQuery = v.object({
  state: v.optional(v.picklist(['waiting', 'destroyed'], 'Keadaan tidak valid')),
  page: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9][0-9]{0,5}$/, 'Nomor halaman tidak valid'),
      v.transform(Number),
      v.maxValue(1_000_000, 'Nomor halaman tidak valid'),
    ),
  ),
  size: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9][0-9]{0,2}$/, 'Ukuran halaman tidak valid'),
      v.transform(Number),
      v.maxValue(100, 'Ukuran halaman tidak valid'),
    ),
  ),
});
export type DisposalListQuery = v.InferOutput<typeof disposalListQuery>;

/** One case of the register: named by company and case id only (the officer opens it in the legacy). */
export const disposalItem = v.object({
  id: v.number(),
  companyId: v.number(),
  companyName: v.string(),
  caseId: v.number(),
  /** The case's final status as the legacy names it (empty when the status table could not be read). */
  statusName: v.string(),
  /** When the case reached its final status (WIB wall time). */
  closedAt: wibDateTime,
  /** The day its retention period ended (YYYY-MM-DD, WIB). */
  dueAt: v.string(),
  /** When the gateway deleted its own personal data of the case (WIB wall time). */
  storePurgedAt: v.nullable(wibDateTime),
  state: disposalStateSchema,
  destroyedAt: v.nullable(wibDateTime),
  destroyedByName: nullableString,
  note: nullableString,
});
export type DisposalItem = v.InferOutput<typeof disposalItem>;

export const disposalSummary = v.object({ waiting: v.number(), overdue: v.number() });
export type DisposalSummary = v.InferOutput<typeof disposalSummary>;

export const disposalListReply = v.object({
  items: v.array(disposalItem),
  total: v.number(),
  summary: v.object({ ...disposalSummary.entries, destroyed: v.number() }),
});
export type DisposalListReply = v.InferOutput<typeof disposalListReply>;

/**
 * Characters a plain-text note may not hold: controls other than tab and line breaks, format
 * characters (bidi overrides, zero-width ones) and the Unicode line and paragraph separators.
 */
const NOT_PLAIN = /[\p{Cf}\u2028\u2029]|(?![\t\n\r])\p{Cc}/u;

/** POST /disposals/{id}/destroyed: the officer's attestation, with an optional note. */
export const disposalDestroyedRequest = v.object({
  note: v.optional(
    v.pipe(
      v.string('Catatan tidak valid'),
      v.trim(),
      v.maxLength(DISPOSAL_NOTE_MAX, `Maksimal ${DISPOSAL_NOTE_MAX} Karakter`),
      v.check((note) => !NOT_PLAIN.test(note), 'Catatan hanya boleh berisi teks biasa'),
    ),
  ),
});
export type DisposalDestroyedRequest = v.InferOutput<typeof disposalDestroyedRequest>;

/** POST /disposals/scan: cases whose gateway data was deleted, and cases entered in the register. */
export const disposalScanReply = v.object({ purged: v.number(), registered: v.number() });
export type DisposalScanReply = v.InferOutput<typeof disposalScanReply>;

/** GET /processing-records: the records of processing (Catatan Pemrosesan Data). */
export const processingActivity = v.object({
  name: v.string(),
  purpose: v.string(),
  subjects: v.string(),
  dataCategories: v.array(v.string()),
  storedIn: v.string(),
  access: v.array(v.string()),
  retention: v.string(),
  legalBasis: v.string(),
});
export type ProcessingActivity = v.InferOutput<typeof processingActivity>;

export const processingRecordsReply = v.object({
  /** When these records were generated from the running configuration (WIB wall time). */
  generatedAt: wibDateTime,
  controller: v.string(),
  activities: v.array(processingActivity),
});
export type ProcessingRecordsReply = v.InferOutput<typeof processingRecordsReply>;
