/**
 * What leaves of the retention register: company and case ids, the company's and status's names, the
 * dates, and the officer's attestation. Never a complaint number or anything of the reporter.
 */
import type { DisposalItem, DisposalScanReply } from '@wbs/shared/api/retention';
import type { ScanReport } from '../retention/scan.ts';
import type { DisposalRow } from '../retention/store.ts';

export function presentDisposal(
  row: DisposalRow,
  names: { company: ReadonlyMap<number, string>; status: ReadonlyMap<number, string> },
): DisposalItem {
  return {
    id: row.id,
    companyId: row.companyId,
    companyName: names.company.get(row.companyId) ?? '',
    caseId: row.caseId,
    statusName: row.statusId === null ? '' : (names.status.get(row.statusId) ?? ''),
    closedAt: row.closedAt,
    dueAt: row.dueDate,
    storePurgedAt: row.storePurgedAt,
    state: row.state,
    destroyedAt: row.destroyedAt,
    destroyedByName: row.destroyedByName,
    note: row.note,
  };
}

export function presentScan(report: ScanReport): DisposalScanReply {
  return { purged: report.purged, registered: report.registered };
}
