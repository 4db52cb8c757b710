/**
 * The case detail as the screens read it (GET /cases/{id}, POST /tracking): exactly the shared
 * contract shape of `@wbs/shared/api/cases`. The gateway has already applied every privacy rule
 * (masked notes, withheld names); this module only checks the shape and formats dates.
 */
import {
  type CaseDetail,
  type CaseDetailAttachment,
  type CaseLogEntry,
  caseDetailSchema,
} from '@wbs/shared/api/cases';
import * as v from 'valibot';

export type { CaseDetail };
export type CaseLog = CaseLogEntry;
export type CaseAttachment = CaseDetailAttachment;
export type CaseInvolved = CaseDetail['allegedlyInvolved'][number];

/** The reply of GET /cases/{id} or POST /tracking, checked against the contract (throws if it is not one). */
export function normaliseCaseDetail(input: unknown): CaseDetail {
  return v.parse(caseDetailSchema, input);
}

/** '2026-05-03T08:15:00' → '03/05/2026 08:15' (display format DD/MM/YYYY). */
export function formatDateTime(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso);
  if (!match) return iso;
  const [, y, m, d, hh, mm] = match;
  return hh ? `${d}/${m}/${y} ${hh}:${mm}` : `${d}/${m}/${y}`;
}
