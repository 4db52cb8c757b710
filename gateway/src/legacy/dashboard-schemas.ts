/**
 * Valibot schemas of the legacy dashboard replies (spec section 7 "Dashboards", legacy-sim README
 * "Dashboards"): `PartnerDashboard/*` and `CompanyDashboard/*`. As in schemas.ts only the fields the
 * gateway reads are listed, numbers may come as numeric strings, and a missing name becomes ''.
 */
import * as v from 'valibot';
import { num } from './schemas.ts';

const name = v.pipe(
  v.optional(v.nullable(v.string()), null),
  v.transform((value) => value ?? ''),
);
const count = v.pipe(
  v.optional(v.nullable(num), null),
  v.transform((value) => value ?? 0),
);

/**
 * A company and its number of cases in the range: `CompanyDashboard/Summary` answers one,
 * `PartnerDashboard/Summary` one per company of the partner.
 */
export const companySummarySchema = v.object({
  companyId: num,
  companyName: name,
  totalCase: count,
});
export type LegacyCompanySummary = v.InferOutput<typeof companySummarySchema>;

/** `*Dashboard/SummaryStatus`: every status (zeros included), in status order. */
export const statusSummaryRowSchema = v.object({
  caseStatusId: num,
  caseStatusName: name,
  totalCase: count,
});
export type LegacyStatusSummaryRow = v.InferOutput<typeof statusSummaryRowSchema>;

/** `*Dashboard/SummaryCategory`: every category of the company. */
export const categorySummaryRowSchema = v.object({
  caseCategoryId: num,
  caseCategoryName: name,
  totalCase: count,
});
export type LegacyCategorySummaryRow = v.InferOutput<typeof categorySummaryRowSchema>;

/** `*Dashboard/SummaryOpenCases`: per category holding open cases, one value per open status. */
export const openCasesRowSchema = v.object({
  caseCategoryId: num,
  caseCategoryName: name,
  values: v.pipe(
    v.optional(
      v.nullable(
        v.array(
          v.object({
            caseStatusId: num,
            caseStatusName: name,
            totalCases: count,
          }),
        ),
      ),
      null,
    ),
    v.transform((values) => values ?? []),
  ),
});
export type LegacyOpenCasesRow = v.InferOutput<typeof openCasesRowSchema>;

const list = <T extends v.GenericSchema>(row: T) =>
  v.pipe(
    v.optional(v.nullable(v.array(row)), null),
    v.transform((rows) => rows ?? []),
  );

export const partnerSummarySchema = list(companySummarySchema);
export const statusSummarySchema = list(statusSummaryRowSchema);
export const categorySummarySchema = list(categorySummaryRowSchema);
export const openCasesSchema = list(openCasesRowSchema);
