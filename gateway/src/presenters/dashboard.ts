/** Legacy dashboard rows → the `/api/v1/dashboard` replies (shared/src/api/dashboard.ts). */
import type {
  DashboardCount,
  DashboardOpenCasesReply,
  DashboardSummaryReply,
} from '@wbs/shared/api/dashboard';
import type {
  LegacyCategorySummaryRow,
  LegacyCompanySummary,
  LegacyOpenCasesRow,
  LegacyStatusSummaryRow,
} from '../legacy/dashboard-schemas.ts';

type Range = { from: string; to: string };

const sum = (items: readonly { total: number }[]) => items.reduce((acc, item) => acc + item.total, 0);

export function presentCompanyCount(row: LegacyCompanySummary): DashboardCount {
  return { id: row.companyId, name: row.companyName, total: row.totalCase };
}

export function presentStatusCount(row: LegacyStatusSummaryRow): DashboardCount {
  return { id: row.caseStatusId, name: row.caseStatusName, total: row.totalCase };
}

export function presentCategoryCount(row: LegacyCategorySummaryRow): DashboardCount {
  return { id: row.caseCategoryId, name: row.caseCategoryName, total: row.totalCase };
}

export function presentCompanies(range: Range, rows: readonly LegacyCompanySummary[]) {
  const items = rows.map(presentCompanyCount);
  return { ...range, total: sum(items), items };
}

export function presentSummary(input: {
  range: Range;
  company: LegacyCompanySummary;
  statuses: readonly LegacyStatusSummaryRow[];
  categories: readonly LegacyCategorySummaryRow[];
}): DashboardSummaryReply {
  return {
    companyId: input.company.companyId,
    companyName: input.company.companyName,
    ...input.range,
    total: input.company.totalCase,
    byStatus: input.statuses.map(presentStatusCount),
    byCategory: input.categories.map(presentCategoryCount),
  };
}

/**
 * The open statuses are the union of every row's values, in first-seen order (the legacy sends them
 * in status order); a category missing a status counts 0 there, so every stack has the same series.
 */
export function presentOpenCases(
  companyId: number,
  rows: readonly LegacyOpenCasesRow[],
): DashboardOpenCasesReply {
  const statuses = new Map<number, string>();
  for (const row of rows) {
    for (const value of row.values) {
      if (!statuses.has(value.caseStatusId)) statuses.set(value.caseStatusId, value.caseStatusName);
    }
  }
  const categories = rows.map((row) => {
    const totals = new Map<number, number>();
    for (const value of row.values) {
      totals.set(value.caseStatusId, (totals.get(value.caseStatusId) ?? 0) + value.totalCases);
    }
    const byStatus = [...statuses.keys()].map((statusId) => ({ statusId, total: totals.get(statusId) ?? 0 }));
    return { id: row.caseCategoryId, name: row.caseCategoryName, total: sum(byStatus), byStatus };
  });
  return {
    companyId,
    total: sum(categories),
    statuses: [...statuses].map(([id, name]) => ({ id, name })),
    categories,
  };
}
