/**
 * The audit trail as CSV (RFC 4180, UTF-8 with a BOM so spreadsheet programs read the accents).
 * Every cell is quoted, and a cell a spreadsheet would take as a formula (starting with = + - @, a
 * tab or a carriage return) is prefixed with an apostrophe (OWASP's CSV-injection advice).
 */
import { USER_TYPE_NAMES } from '@wbs/shared/permissions';
import type { AuditBody, StoredAuditRecord } from '../../audit/chain.ts';
import { csvCell } from '../../presenters/csv.ts';

const HEADER = [
  'No',
  'Waktu (WIB)',
  'Peristiwa',
  'Id Pengguna',
  'Tipe Pengguna',
  'Id Perusahaan',
  'Id Partner',
  'Metode',
  'Rute',
  'Rincian',
  'Hash Sebelumnya',
  'Hash',
];

/** `YYYY-MM-DD HH:mm:ss` in WIB (UTC+7, no daylight saving). */
export function wibTimestamp(at: Date): string {
  return new Date(at.getTime() + 7 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function row(record: StoredAuditRecord): string {
  let body: Partial<AuditBody> = {};
  try {
    body = JSON.parse(record.body) as AuditBody;
  } catch {
    // A damaged body is still listed (audit:verify names it); its details stay empty.
  }
  const details = Object.entries(body.fields ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join('; ');
  const type = record.actorUserType as keyof typeof USER_TYPE_NAMES | null;
  return [
    record.seq,
    wibTimestamp(record.at),
    record.event,
    record.actorUserId,
    type === null ? null : (USER_TYPE_NAMES[type] ?? String(type)),
    record.actorCompanyId,
    record.actorPartnerId,
    body.method ?? null,
    body.route ?? null,
    details,
    record.prevHash,
    record.hash,
  ]
    .map(csvCell)
    .join(',');
}

export function auditCsv(records: StoredAuditRecord[]): string {
  return `\ufeff${[HEADER.map(csvCell).join(','), ...records.map(row)].join('\r\n')}\r\n`;
}
