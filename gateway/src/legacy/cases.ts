/**
 * Cases at the legacy: the case tables and exports of each kind of reader, a case's detail (by company
 * or across the group), the tracker's look-up by number and password, downloads, and the multipart
 * calls that file a case, add an activity log or add evidence. Which reader a session is, and whether
 * a case is in its scope, is decided by policies/; here is only how the legacy is asked.
 */
import { openAsBlob } from 'node:fs';
import type { CaseCreateInput, Filer } from '@wbs/shared/api/case-create';
import type { CaseSearchRequest, CaseSortField } from '@wbs/shared/api/cases';
import { toLegacyRange } from '@wbs/shared/dates';
import type { Dispatcher } from 'undici';
import { FormData } from 'undici';
import * as v from 'valibot';
import { MIME } from '../uploads/mime.ts';
import type { SpooledFile } from '../uploads/spool.ts';
import {
  caseAttachmentSchema,
  caseRowSchema,
  type LegacyCase,
  type LegacyCaseRow,
  legacyCaseSchema,
} from './case-schemas.ts';
import { type LegacyAuth, seg, type TableResult } from './client.ts';
import type { LegacyCaller } from './plugin.ts';
import { orMissing } from './records.ts';
import { ignored } from './schemas.ts';

/** Who reads case tables, as the legacy's endpoints tell readers apart (from the session only). */
export type CaseReader =
  | { kind: 'company-admin'; companyId: number }
  | { kind: 'company-staff'; staffId: number; companyId: number }
  | { kind: 'partner'; partnerId: number; companyId: number }
  /** The administrator (type 1) reads a company's table as its admin would, read only. */
  | { kind: 'administrator'; companyId: number }
  | { kind: 'whistleblower'; whistleblowerId: number; companyId: number };

/** A reader's case table: an opaque handle for `casePage` and `walkCaseTable`. */
export type CaseTable = { readonly name: string; readonly path: string };

/** A reader's export, with the scope fields the legacy's export body carries. */
export type CaseExport = {
  readonly name: string;
  readonly path: string;
  readonly scope: Readonly<Record<string, number>>;
};

export function caseTableOf(reader: CaseReader): CaseTable {
  switch (reader.kind) {
    case 'company-admin':
    case 'administrator':
      return { name: 'WBSCase.companyAdminTable', path: `/WBSCase/company/admin/${seg(reader.companyId)}` };
    case 'company-staff':
      return { name: 'WBSCase.staffTable', path: `/WBSCase/company/staff/${seg(reader.staffId)}` };
    case 'partner':
      return {
        name: 'WBSCase.partnerTable',
        path: `/WBSCase/partner/${seg(reader.partnerId)}/${seg(reader.companyId)}`,
      };
    case 'whistleblower':
      return {
        name: 'WBSCase.whistleblowerTable',
        path: `/WBSCase/whistleblower/${seg(reader.whistleblowerId)}/${seg(reader.companyId)}`,
      };
  }
}

/** The reader's export; null for readers who have none (the administrator and the pelapor). */
export function caseExportOf(reader: CaseReader): CaseExport | null {
  switch (reader.kind) {
    case 'company-admin':
      return {
        name: 'WBSCase.companyAdminExport',
        path: '/WBSCase/Company/Admin/Export',
        scope: { caseCompanyId: reader.companyId },
      };
    case 'company-staff':
      // The staff scope is the analyst's line; the company is sent as well, as a second fence.
      return {
        name: 'WBSCase.staffExport',
        path: '/WBSCase/Company/Staff/Export',
        scope: { companyStaffId: reader.staffId, caseCompanyId: reader.companyId },
      };
    case 'partner':
      return {
        name: 'WBSCase.partnerExport',
        path: '/WBSCase/Partner/Export',
        scope: { partnerId: reader.partnerId, caseCompanyId: reader.companyId },
      };
    default:
      return null;
  }
}

/** Our sort keys → the legacy case-table column names. */
const CASE_COLUMNS: Record<CaseSortField, string> = {
  createdAt: 'caseCreated',
  number: 'caseNumber',
  categoryName: 'caseCaseCategory',
  caseLineName: 'caseCaseLine',
  status: 'caseCaseStatus',
  companyName: 'caseCompany',
};

export type CaseFilters = Pick<
  CaseSearchRequest,
  'from' | 'to' | 'number' | 'categoryId' | 'caseLineId' | 'statusId'
>;

/** The filters of the case tables and exports, as the legacy names them (absent = no filter). */
export function caseFilters(f: CaseFilters) {
  return {
    rangeDate: toLegacyRange(f.from, f.to),
    caseNumber: f.number || undefined,
    caseCaseCategoryId: f.categoryId,
    caseCaseLineId: f.caseLineId,
    caseCaseStatusId: f.statusId,
  };
}

/** The legacy `order` of a case table for our sort (newest first by default). */
export function caseOrder(sort: CaseSearchRequest['sort']) {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = (descending ? value.slice(1) : value) as CaseSortField;
  return [{ column: CASE_COLUMNS[field], dir: descending ? 'desc' : 'asc' }];
}

/** One page of a case table (DataTables-style: start, length, search, order, legacy filters). */
export type CasePageQuery = {
  start: number;
  length: number;
  search?: { value: string } | undefined;
  order?: unknown;
  filters?: Record<string, unknown>;
};

export function casePage(
  legacy: LegacyCaller,
  table: CaseTable,
  q: CasePageQuery,
): Promise<TableResult<LegacyCaseRow>> {
  return legacy.table({
    name: table.name,
    method: 'POST',
    path: table.path,
    json: { draw: 1, start: q.start, length: q.length, search: q.search, order: q.order, ...q.filters },
    row: caseRowSchema,
  });
}

/** Rows per legacy call of a walk, and the most a walk reads (beyond it the answer is partial). */
export const WALK_PAGE_SIZE = 500;
export const WALK_MAX_ROWS = 5_000;

export type WalkResult = { rows: LegacyCaseRow[]; complete: boolean };

/** Every row of `companyId` in a case table matching `filters` (at most WALK_MAX_ROWS), in `order`. */
export async function walkCaseTable(
  legacy: LegacyCaller,
  table: CaseTable,
  companyId: number,
  filters: Record<string, unknown>,
  order: unknown,
): Promise<WalkResult> {
  const rows: LegacyCaseRow[] = [];
  for (let start = 0; start < WALK_MAX_ROWS; start += WALK_PAGE_SIZE) {
    const page = await casePage(legacy, table, { start, length: WALK_PAGE_SIZE, order, filters });
    rows.push(...page.rows.filter((row) => row.caseCompanyId === companyId));
    if (page.rows.length < WALK_PAGE_SIZE || start + WALK_PAGE_SIZE >= page.filtered) {
      return { rows, complete: true };
    }
  }
  return { rows, complete: false };
}

/** Pages a look-up of the rows filed on some days reads at the most (beyond: the caller asks per case). */
const FILED_LOOKUP_PAGES = 2;

/**
 * The rows of `companyId` in a case table filed from `fromDay` to `toDay` (YYYY-MM-DD, both
 * inclusive), oldest first, at most FILED_LOOKUP_PAGES × WALK_PAGE_SIZE of them: the rows of a few
 * known cases, found by their filing days (the tables have no filter by case id).
 */
export async function caseRowsFiled(
  legacy: LegacyCaller,
  table: CaseTable,
  companyId: number,
  fromDay: string,
  toDay: string,
): Promise<LegacyCaseRow[]> {
  const rows: LegacyCaseRow[] = [];
  const filters = { rangeDate: toLegacyRange(fromDay, toDay) };
  const order = [{ column: 'caseCreated', dir: 'asc' }];
  for (let page = 0; page < FILED_LOOKUP_PAGES; page++) {
    const start = page * WALK_PAGE_SIZE;
    const result = await casePage(legacy, table, { start, length: WALK_PAGE_SIZE, order, filters });
    rows.push(...result.rows.filter((row) => row.caseCompanyId === companyId));
    if (result.rows.length < WALK_PAGE_SIZE || start + WALK_PAGE_SIZE >= result.filtered) break;
  }
  return rows;
}

/** Whether an analyst's own case table lists this case (the legacy applies its line rule). */
export async function staffTableLists(
  legacy: LegacyCaller,
  staffId: number,
  c: { caseId: number; caseNumber: string },
): Promise<boolean> {
  const { rows } = await legacy.table({
    name: 'WBSCase.staffTable',
    method: 'POST',
    path: `/WBSCase/company/staff/${seg(staffId)}`,
    json: { draw: 1, start: 0, length: 10, caseNumber: c.caseNumber },
    row: v.object({ caseId: caseRowSchema.entries.caseId }),
  });
  return rows.some((row) => row.caseId === c.caseId);
}

/** A case of a company (`GET /WBSCase/company/{companyId}/{caseId}`), or null when it has none. */
export async function companyCase(
  legacy: LegacyCaller,
  companyId: number,
  caseId: number,
): Promise<LegacyCase | null> {
  const found = await orMissing(
    legacy.call({
      name: 'WBSCase.companyDetail',
      method: 'GET',
      path: `/WBSCase/company/${seg(companyId)}/${seg(caseId)}`,
      data: legacyCaseSchema,
    }),
  );
  return found?.data ?? null;
}

/** A case of any company of the group (`GET /WBSCase/partner/{caseId}`), or null. */
export async function groupCase(legacy: LegacyCaller, caseId: number): Promise<LegacyCase | null> {
  const found = await orMissing(
    legacy.call({
      name: 'WBSCase.partnerDetail',
      method: 'GET',
      path: `/WBSCase/partner/${seg(caseId)}`,
      data: legacyCaseSchema,
    }),
  );
  return found?.data ?? null;
}

/**
 * The tracker's case by number and password, or null for an unknown number or a wrong password (the
 * legacy does not tell them apart, and neither do we). Sent without a token: a signed-in user tracking
 * a case is a tracker too.
 */
export async function trackedCase(
  legacy: LegacyCaller,
  caseNumber: string,
  password: string,
): Promise<LegacyCase | null> {
  const found = await orMissing(
    legacy.call({
      name: 'WBSCase.track',
      method: 'POST',
      path: '/WBSCase/Whistleblower/byNumber',
      json: { caseNumber, password },
      data: legacyCaseSchema,
      auth: null,
    }),
  );
  return found?.data ?? null;
}

export function attachmentDownload(
  legacy: LegacyCaller,
  companyId: number,
  attachmentId: number,
): Promise<Dispatcher.ResponseData> {
  return legacy.stream({
    name: 'WBSCase.downloadAttachment',
    method: 'GET',
    path: `/WBSCase/DownloadAttachement/${seg(companyId)}/${seg(attachmentId)}`,
    headers: { accept: '*/*' },
  });
}

export function logAttachmentDownload(
  legacy: LegacyCaller,
  companyId: number,
  logId: number,
): Promise<Dispatcher.ResponseData> {
  return legacy.stream({
    name: 'WBSCase.downloadLogAttachment',
    method: 'GET',
    path: `/WBSCase/DownloadCaseLogAttachement/${seg(companyId)}/${seg(logId)}`,
    headers: { accept: '*/*' },
  });
}

/** The legacy's Excel export of the reader's cases matching `filters` (its bytes, streamed). */
export function exportDownload(
  legacy: LegacyCaller,
  target: CaseExport,
  filters: Record<string, unknown>,
): Promise<Dispatcher.ResponseData> {
  return legacy.stream({
    name: target.name,
    method: 'POST',
    path: target.path,
    headers: { accept: '*/*', 'content-type': 'application/json' },
    body: JSON.stringify({ ...filters, ...target.scope }),
  });
}

// ----------------------------------------------------------------------------- multipart calls

export type FilePart = { field: string; file: SpooledFile };

type Multipart<T> = {
  name: string;
  path: string;
  auth?: LegacyAuth | null;
  fields: Record<string, string>;
  files: readonly FilePart[];
  data: v.GenericSchema<unknown, T>;
};

/**
 * Sends a checked, scrubbed upload as multipart: text parts plus the spooled files, streamed from disk
 * (`fs.openAsBlob` blobs inside an undici `FormData`: undici reads them in chunks and sends a
 * Content-Length, nothing is held whole in memory). The reply goes through the client's one mapping.
 */
async function postMultipart<T>(legacy: LegacyCaller, upload: Multipart<T>) {
  const form = new FormData();
  for (const [field, value] of Object.entries(upload.fields)) form.append(field, value);
  for (const { field, file } of upload.files) {
    const blob = await openAsBlob(file.path, { type: MIME[file.detected] ?? 'application/octet-stream' });
    form.append(field, blob, file.name);
  }
  return legacy.call({
    name: upload.name,
    method: 'POST',
    path: upload.path,
    body: form,
    data: upload.data,
    ...(upload.auth === undefined ? {} : { auth: upload.auth }),
  });
}

const FILE_PATHS: Record<Filer, string> = {
  guest: '/WBSCase/Whistleblower',
  company: '/WBSCase/Company',
  partner: '/WBSCase/Partner',
};

const flag = (value: boolean) => (value ? '1' : '0');

/** Our fields → the legacy's multipart text parts (spec §3 "Case creation fields"). */
export function caseCreationFields(
  input: CaseCreateInput,
  filer: Filer,
  companyId: number,
): Record<string, string> {
  const fields: Record<string, string> = {
    caseWhistleblowerIsAnonym: flag(input.anonymous),
    caseAnonym: flag(input.anonymous),
    caseCompanyId: String(companyId),
    caseChannelId: String(input.channelId ?? 1),
    caseCaseStatusId: '1',
    caseCaseCategoryId: String(input.categoryId),
    caseWhat: input.what,
    caseWhen: input.when,
    caseWhere: input.where,
    caseWhoPerpetratorAndPosition: input.perpetrator,
    caseWhatDirectorate: input.directorate,
    caseWhatDivision: input.division,
    caseHow: input.how,
    caseWhoInvolvedAndPosition: input.involved,
    caseWhatFinancialLoss: input.financialLoss,
    caseWhenOccuredBefore: input.occurredBefore,
    caseWhoEverReportedToAndDetails: input.reportedToBefore,
    caseWhatPerpetratorTalkAndReponse: input.perpetratorResponse,
    caseWhatRepeatableCaseReason: input.repeatReason,
    caseWhatReasonReporterIdentification: input.identificationReason,
    caseIsReporterNeedProtection: flag(input.needsProtection),
    caseWhatReasonForProtection: input.protectionReason,
    caseEvidenceLink: input.evidenceLink,
    // Anonymous reports: name and department empty, no address or location (spec §4).
    caseWhistleblowerName: input.anonymous ? '' : input.name,
    caseWhistleblowerDept: input.anonymous ? '' : input.department,
    caseWhistleblowerEmail: input.email,
    caseWhistleblowerContactNum: input.phone,
    caseWhistleblowerType: String(input.reporterType),
    caseWhistleblowerCommunicationType: input.communicationTypes.join(','),
    caseWhistleblowerCommunicationTime: input.communicationTime,
    allegedlyinvolveds: JSON.stringify(
      input.allegedlyInvolved.map((row) => ({
        allegedlyInvolvedName: row.name,
        allegedlyInvolvedPosition: row.position,
        allegedlyInvolvedDescription: row.description,
      })),
    ),
  };
  if (!input.anonymous) {
    fields.caseWhistleblowerAddress = input.address;
    fields.caseWhistleblowerProvinceId = String(input.provinceId);
    fields.caseWhistleblowerCityId = String(input.cityId);
    fields.caseWhistleblowerDistrictId = String(input.districtId);
  }
  if (filer === 'guest') {
    fields.casePassword = input.password;
    fields.caseConfirmPassword = input.confirmPassword;
  }
  return fields;
}

/** The main evidence first (the legacy stores `caseFile` as the first attachment), then the rest. */
function creationFileParts(files: readonly SpooledFile[]): FilePart[] {
  return [...files]
    .sort((a, b) => Number(b.field === 'evidence') - Number(a.field === 'evidence'))
    .map((file) => ({ field: file.field === 'evidence' ? 'caseFile' : 'attachments', file }));
}

/** Files a report: answers the complaint number the legacy gave (message 2, or `data.caseNumber`). */
export async function fileCase(
  legacy: LegacyCaller,
  filer: Filer,
  fields: Record<string, string>,
  files: readonly SpooledFile[],
): Promise<{ caseNumber: string; messages: string[] }> {
  const { data, messages } = await postMultipart(legacy, {
    name: `WBSCase.create.${filer}`,
    path: FILE_PATHS[filer],
    // A guest has no token; a signed-in filer's own is sent.
    ...(filer === 'guest' ? { auth: null } : {}),
    fields,
    files: creationFileParts(files),
    data: v.optional(v.nullable(v.object({ caseNumber: v.optional(v.string()) })), null),
  });
  return { caseNumber: messages[1]?.trim() || data?.caseNumber || '', messages };
}

/** Buat Catatan Aktivitas: the log entry with its status, line (or 'null') and optional attachment. */
export async function addCaseLog(
  legacy: LegacyCaller,
  entry: {
    caseId: number;
    companyId: number;
    message: string;
    caseLineId: number | null;
    statusId: number;
  },
  attachment: SpooledFile | null,
): Promise<string[]> {
  const { messages } = await postMultipart(legacy, {
    name: 'WBSCase.caseLog',
    path: '/WBSCase/CaseLog',
    fields: {
      caseId: String(entry.caseId),
      caseCompanyId: String(entry.companyId),
      messageLog: entry.message,
      caseCaseLineId: entry.caseLineId === null ? 'null' : String(entry.caseLineId),
      caseCaseStatusId: String(entry.statusId),
    },
    files: attachment ? [{ field: 'Attachment', file: attachment }] : [],
    data: ignored,
  });
  return messages;
}

const caseAttachments = v.array(caseAttachmentSchema);

/** Tambah Bukti: adds files to a case; answers the case's attachments after the addition. */
export async function addCaseAttachments(
  legacy: LegacyCaller,
  c: { caseId: number; companyId: number },
  files: readonly SpooledFile[],
  auth: LegacyAuth | undefined,
) {
  const { data, messages } = await postMultipart(legacy, {
    name: 'WBSCase.addAttachments',
    path: '/WBSCase/Attachment',
    ...(auth ? { auth } : {}),
    fields: { CaseId: String(c.caseId), CaseCompanyId: String(c.companyId) },
    files: files.map((file) => ({ field: 'attachments', file })),
    data: caseAttachments,
  });
  return { attachments: data, messages };
}
