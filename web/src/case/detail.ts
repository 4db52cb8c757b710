/**
 * The case detail as the screens read it (GET /cases/{id}, POST /tracking). The contract names the
 * parts (reporter, communication, report answers, attachments, logs) but not their exact layout, so
 * this normaliser accepts both nested (`reporter.name`) and flat (`reporterName`) spellings.
 */
import type { CaseStatus } from '../api/types.ts';

export type CaseLog = {
  id: number;
  createdAt: string;
  statusName: string;
  message: string;
  noteHidden: boolean;
  createdBy: string | null;
  attachmentName: string | null;
};

export type CaseAttachment = { id: number; name: string };
export type CaseInvolved = { name: string; position: string; description: string };

export type CaseDetail = {
  id: number;
  number: string;
  createdAt: string;
  companyId: number | null;
  companyName: string | null;
  categoryId: number | null;
  categoryName: string | null;
  caseLineId: number | null;
  caseLineName: string | null;
  channelName: string | null;
  status: CaseStatus | null;
  reporter: {
    anonymous: boolean;
    type: number | null;
    name: string;
    department: string;
    email: string;
    phone: string;
    address: string;
    provinceName: string;
    cityName: string;
    districtName: string;
  };
  communication: { types: number[]; time: string };
  report: Record<
    | 'what'
    | 'where'
    | 'when'
    | 'perpetrator'
    | 'directorate'
    | 'division'
    | 'how'
    | 'involved'
    | 'financialLoss'
    | 'occurredBefore'
    | 'reportedToBefore'
    | 'perpetratorResponse'
    | 'repeatReason'
    | 'identificationReason'
    | 'protectionReason',
    string
  > & { needsProtection: boolean | null };
  evidenceLink: string;
  attachments: CaseAttachment[];
  allegedlyInvolved: CaseInvolved[];
  logs: CaseLog[];
  noteHidden: boolean;
};

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function at(raw: unknown, path: string): unknown {
  let node: unknown = raw;
  for (const part of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

function first(raw: unknown, paths: string[]): unknown {
  for (const path of paths) {
    const value = at(raw, path);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

const str = (raw: unknown, ...paths: string[]): string => {
  const value = first(raw, paths);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
};
const strOrNull = (raw: unknown, ...paths: string[]): string | null => str(raw, ...paths) || null;
const num = (raw: unknown, ...paths: string[]): number | null => {
  const value = first(raw, paths);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return null;
};
const bool = (raw: unknown, ...paths: string[]): boolean | null => {
  const value = first(raw, paths);
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return null;
};
const list = (raw: unknown, ...paths: string[]): unknown[] => {
  const value = first(raw, paths);
  return Array.isArray(value) ? value : [];
};

function communicationTypes(raw: unknown): number[] {
  const value = first(raw, ['communication.types', 'communicationTypes', 'reporter.communicationTypes']);
  if (Array.isArray(value)) return value.map(Number).filter((n) => Number.isInteger(n));
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number)
      .filter((n) => Number.isInteger(n));
  }
  return [];
}

function status(raw: unknown): CaseStatus | null {
  const id = num(raw, 'status.id', 'statusId');
  const name = str(raw, 'status.name', 'statusName');
  if (id === null && !name) return null;
  return { id: id ?? 0, name, order: num(raw, 'status.order', 'statusOrder') ?? 0 };
}

const REPORT_KEYS = [
  'what',
  'where',
  'when',
  'perpetrator',
  'directorate',
  'division',
  'how',
  'involved',
  'financialLoss',
  'occurredBefore',
  'reportedToBefore',
  'perpetratorResponse',
  'repeatReason',
  'identificationReason',
  'protectionReason',
] as const;

export function normaliseCaseDetail(input: unknown): CaseDetail {
  const raw = isObject(input) && isObject(input.case) ? input.case : input;
  const report = Object.fromEntries(
    REPORT_KEYS.map((key) => [key, str(raw, `report.${key}`, `answers.${key}`, key)]),
  );
  const noteHidden = bool(raw, 'noteHidden') === true;
  return {
    id: num(raw, 'id') ?? 0,
    number: str(raw, 'number', 'caseNumber'),
    createdAt: str(raw, 'createdAt', 'created'),
    companyId: num(raw, 'companyId', 'company.id'),
    companyName: strOrNull(raw, 'companyName', 'company.name'),
    categoryId: num(raw, 'categoryId', 'category.id', 'report.categoryId'),
    categoryName: strOrNull(raw, 'categoryName', 'category.name', 'report.categoryName'),
    caseLineId: num(raw, 'caseLineId', 'caseLine.id'),
    caseLineName: strOrNull(raw, 'caseLineName', 'caseLine.name'),
    channelName: strOrNull(raw, 'channelName', 'channel.name'),
    status: status(raw),
    reporter: {
      anonymous: bool(raw, 'reporter.anonymous', 'anonymous') === true,
      type: num(raw, 'reporter.type', 'reporter.reporterType', 'reporterType'),
      name: str(raw, 'reporter.name', 'reporterName', 'name'),
      department: str(raw, 'reporter.department', 'department'),
      email: str(raw, 'reporter.email', 'email'),
      phone: str(raw, 'reporter.phone', 'phone'),
      address: str(raw, 'reporter.address', 'address'),
      provinceName: str(raw, 'reporter.provinceName', 'reporter.province.name', 'provinceName'),
      cityName: str(raw, 'reporter.cityName', 'reporter.city.name', 'cityName'),
      districtName: str(raw, 'reporter.districtName', 'reporter.district.name', 'districtName'),
    },
    communication: {
      types: communicationTypes(raw),
      time: str(raw, 'communication.time', 'communicationTime', 'reporter.communicationTime'),
    },
    report: {
      ...(report as Record<(typeof REPORT_KEYS)[number], string>),
      needsProtection: bool(raw, 'report.needsProtection', 'needsProtection'),
    },
    evidenceLink: str(raw, 'evidenceLink', 'report.evidenceLink', 'evidence.link'),
    attachments: list(raw, 'attachments', 'evidence.attachments').map((a) => ({
      id: num(a, 'id', 'attachmentId') ?? 0,
      name: str(a, 'name', 'attachmentName', 'fileName'),
    })),
    allegedlyInvolved: list(raw, 'allegedlyInvolved', 'allegedlyInvolveds', 'report.allegedlyInvolved').map(
      (p) => ({
        name: str(p, 'name'),
        position: str(p, 'position'),
        description: str(p, 'description'),
      }),
    ),
    logs: list(raw, 'logs', 'caseLogs').map((l) => ({
      id: num(l, 'id') ?? 0,
      createdAt: str(l, 'createdAt', 'created'),
      statusName: str(l, 'statusName', 'status.name'),
      message: str(l, 'message', 'note'),
      noteHidden: noteHidden || bool(l, 'noteHidden') === true,
      createdBy: strOrNull(l, 'createdBy', 'author'),
      attachmentName: strOrNull(l, 'attachmentName', 'attachment.name'),
    })),
    noteHidden,
  };
}

/** '2026-05-03T08:15:00' → '03/05/2026 08:15' (display format DD/MM/YYYY). */
export function formatDateTime(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso);
  if (!match) return iso;
  const [, y, m, d, hh, mm] = match;
  return hh ? `${d}/${m}/${y} ${hh}:${mm}` : `${d}/${m}/${y}`;
}
