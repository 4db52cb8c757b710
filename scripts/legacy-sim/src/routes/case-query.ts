/** Case scopes and filters shared by the case tables, the exports and the dashboards. */
import type { Ctx } from '../context.ts';
import { parseRange } from '../dates.ts';
import type { Column, TableSpec } from '../tables.ts';
import type { Case } from '../types.ts';
import { type Bag, num, str } from './util.ts';

export type Scope =
  | { kind: 'partner'; partnerId: number; companyId: number }
  | { kind: 'company'; companyId: number }
  | { kind: 'staff'; companyStaffId: number }
  | { kind: 'whistleblower'; whistleblowerId: number; companyId: number };

/** Cases visible in a list scope. Staff: their company's cases whose line is theirs or not yet set. */
export function scopedCases(ctx: Ctx, scope: Scope): Case[] {
  const { store } = ctx;
  switch (scope.kind) {
    case 'partner': {
      const companies = new Set(
        store.companies
          .filter(
            (c) =>
              c.companyPartnerId === scope.partnerId && (!scope.companyId || c.companyId === scope.companyId),
          )
          .map((c) => c.companyId),
      );
      return store.cases.filter((c) => companies.has(c.companyId));
    }
    case 'company':
      return store.cases.filter((c) => c.companyId === scope.companyId);
    case 'staff': {
      const staff = store.companyStaff.get(scope.companyStaffId);
      if (!staff) return [];
      return store.cases.filter(
        (c) =>
          c.companyId === staff.companyStaffCompanyId &&
          (c.lineId === null || c.lineId === staff.companyStaffCaseLineId),
      );
    }
    case 'whistleblower':
      return store.cases.filter(
        (c) =>
          c.whistleblowerId === scope.whistleblowerId &&
          (!scope.companyId || c.companyId === scope.companyId),
      );
  }
}

/**
 * The list filters: rangeDate 'YYYY/MM/DD-YYYY/MM/DD', caseNumber (contains), caseCaseCategoryId
 * (or caseCaseCategoryName), caseCaseLineId, caseCaseStatusId, caseCompanyId. Empty or 0 = no filter.
 */
export function caseFilter(ctx: Ctx, bag: Bag): (c: Case) => boolean {
  const range = parseRange(bag.rangeDate);
  const number = str(bag, 'caseNumber').toUpperCase();
  const categoryId = num(bag, 'caseCaseCategoryId');
  const categoryName = str(bag, 'caseCaseCategoryName').toLowerCase();
  const lineId = num(bag, 'caseCaseLineId');
  const statusId = num(bag, 'caseCaseStatusId');
  const companyId = num(bag, 'caseCompanyId');
  return (c) =>
    (!range || (c.created >= range[0] && c.created < range[1])) &&
    (!number || c.caseNumber.includes(number)) &&
    (!categoryId || c.categoryId === categoryId) &&
    (!categoryName ||
      ctx.store.caseCategories.get(c.categoryId)?.caseCategoryName.toLowerCase() === categoryName) &&
    (!lineId || c.lineId === lineId) &&
    (!statusId || c.statusId === statusId) &&
    (!companyId || c.companyId === companyId);
}

/** Table columns as the case list shows them: No, date, number, category, line, status. */
export function caseTableSpec(ctx: Ctx): TableSpec<Case> {
  const { store } = ctx;
  const categoryName = (c: Case) => store.caseCategories.get(c.categoryId)?.caseCategoryName ?? '';
  const lineName = (c: Case) => store.caseLines.get(c.lineId)?.caseLineName ?? null;
  const statusOrder = (c: Case) => store.caseStatuses.get(c.statusId)?.caseStatusOrder ?? 0;
  const columns: Column<Case>[] = [
    { name: 'caseId', value: (c) => c.caseId },
    { name: 'caseCreated', value: (c) => c.created },
    { name: 'caseNumber', value: (c) => c.caseNumber },
    { name: 'caseCaseCategory', value: categoryName },
    { name: 'caseCaseLine', value: lineName },
    { name: 'caseCaseStatus', value: statusOrder },
    { name: 'caseCompany', value: (c) => store.companies.get(c.companyId)?.companyName ?? '' },
  ];
  return {
    columns,
    searchable: (c) => [
      c.caseNumber,
      categoryName(c),
      lineName(c),
      store.caseStatuses.get(c.statusId)?.caseStatusName,
      store.companies.get(c.companyId)?.companyName,
    ],
    defaultOrder: { column: 'caseCreated', dir: 'desc' },
  };
}
