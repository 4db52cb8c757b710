/** GET /api/v1/audit-trail/export (types 1 and 2): the audit trail of a period as CSV. */
import type * as v from 'valibot';
import { dashboardRangeQuery } from './dashboard.ts';

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`: WIB days, both inclusive (the API's one date rule, ./dates.ts). */
export const auditTrailExportQuery = dashboardRangeQuery;
export type AuditTrailExportQuery = v.InferOutput<typeof auditTrailExportQuery>;

/** More records than this in one period: the user is asked for a shorter one. */
export const AUDIT_EXPORT_MAX_RECORDS = 50_000;
