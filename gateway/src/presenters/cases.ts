/**
 * Legacy cases → our list rows and the one case detail shape, with the privacy rules applied here,
 * so that what a reader may not see never leaves the gateway (docs/product/privacy.md#identity-and-privacy):
 * - log notes, authors and log attachment names only for readers with `case-logs:read-full`
 *   (types 2–5); everyone else (type 6, trackers) gets every note masked;
 * - the reporter's name is withheld from type 6 (spec §2, §6);
 * - type 1 (reads, does not handle) gets no reporter identity or contact at all
 * (docs/product/roles-and-screens.md#administrator);
 * - an anonymous report carries no identity fields (name, department, address, region) for anyone;
 * - a pelapor who chose "Sembunyikan identitas" on its profile: the same for handlers, on all its cases;
 * - in both cases handlers get the e-mail and phone masked (./contact-mask.ts); the reporter itself
 *   (tracker, type 6) keeps seeing its own contact details.
 */
import type { CaseDetail, CaseListItem, CaseListRow, CaseLogEntry } from '@wbs/shared/api/cases';
import type { CaseStatus } from '@wbs/shared/api/reference';
import { USER_TYPES } from '@wbs/shared/constants';
import { type HandlingClock, normaliseWallTime } from '@wbs/shared/handling-clock';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { can, type Subject } from '@wbs/shared/permissions';
import type { LegacyCase, LegacyCaseLog, LegacyCaseRow } from '../legacy/case-schemas.ts';
import { shownFileName } from '../uploads/policy.ts';
import { maskEmail, maskPhone } from './contact-mask.ts';

/** What one reader may see of a case detail. */
export type DetailAudience = {
  /** Log notes, authors and log attachment names. */
  fullLogs: boolean;
  /** The reporter's name (withheld from type 6). */
  reporterName: boolean;
  /** Identity and contact at all: name, department, e-mail, phone, address, region (withheld from type 1). */
  reporterIdentity: boolean;
  /**
   * A handler (types 2–5), not the reporter itself: hidden reporters' identity is withheld and their
   * contact details are masked.
   */
  handler: boolean;
};

/** The anonymous tracker (complaint number + password): the reporter, but without a session. */
export const TRACKER_AUDIENCE: DetailAudience = {
  fullLogs: false,
  reporterName: true,
  reporterIdentity: true,
  handler: false,
};

export function audienceOf(subject: Subject): DetailAudience {
  const reporter = subject === null || subject.userTypeId === USER_TYPES.WHISTLEBLOWER;
  return {
    fullLogs: can(subject, 'case-logs:read-full'),
    reporterName: !reporter,
    reporterIdentity: can(subject, 'case-reporter:read'),
    handler: !reporter,
  };
}

/** Whether the case was filed anonymously (either legacy flag). */
export const isAnonymousCase = (c: LegacyCase): boolean =>
  c.caseWhistleblowerIsAnonym ?? c.caseAnonym ?? false;

/** The reporter's contact details in clear: only for a stated, audited reveal. */
export function presentContact(c: LegacyCase): { email: string | null; phone: string | null } {
  return { email: text(c.caseWhistleblowerEmail), phone: text(c.caseWhistleblowerContactNum) };
}

/** Trimmed text, or null for nothing at all. */
const text = (value: string | null): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** 0 and null both mean "none" in legacy ids. */
const ref = (value: number | null): number | null => (value && value > 0 ? value : null);

function presentStatus(
  id: number | null,
  status: {
    caseStatusId: number | null;
    caseStatusName: string | null;
    caseStatusOrder: number | null;
  } | null,
): CaseStatus | null {
  const name = text(status?.caseStatusName ?? null);
  const statusId = status?.caseStatusId ?? id;
  if (name === null || statusId === null) return null;
  return { id: statusId, name, order: status?.caseStatusOrder ?? 0 };
}

/**
 * A legacy date as every instant of the API is written: WIB wall time `YYYY-MM-DDTHH:mm:ss` (the
 * legacy may add a fraction or write a space for the `T`). One the gateway cannot read is passed on as
 * the legacy wrote it: a reply never invents a time.
 */
const wallTime = (legacy: string): string => normaliseWallTime(legacy) ?? legacy;

export function presentCaseRow(row: LegacyCaseRow, handling: HandlingClock | null = null): CaseListItem {
  return {
    id: row.caseId,
    number: row.caseNumber,
    createdAt: wallTime(row.caseCreated),
    companyId: row.caseCompanyId,
    companyName: text(row.caseCompany?.companyName ?? null),
    categoryId: ref(row.caseCaseCategoryId),
    categoryName: text(row.caseCaseCategory?.caseCategoryName ?? null),
    caseLineId: ref(row.caseCaseLineId),
    caseLineName: text(row.caseCaseLine?.caseLineName ?? null),
    status: presentStatus(row.caseCaseStatusId, row.caseCaseStatus),
    handling,
  };
}

/** A row of the case list: the case and, for handlers, its unread reporter messages (else null). */
export function presentCaseListRow(
  row: LegacyCaseRow,
  handling: HandlingClock | null,
  unreadFromReporter: number | null,
): CaseListRow {
  return { ...presentCaseRow(row, handling), unreadFromReporter };
}

function presentLog(log: LegacyCaseLog): CaseLogEntry {
  return {
    id: log.caseLogId,
    createdAt: wallTime(log.caseLogCreated ?? ''),
    statusName: text(log.caseLogCaseStatus?.caseStatusName ?? null),
    message: log.caseLogMessage ?? '',
    noteHidden: false,
    createdBy: text(log.caseLogCreatedBy),
    attachmentName: shownFileName(text(log.caseLogAttachmentName) ?? text(log.caseLogAttachmentFile)),
  };
}

/**
 * Every note replaced by '**********', no author, no attachment name: what the tracker and type 6
 * see. Only the date and the status of each step remain.
 */
export function maskTrackerLogs(logs: readonly CaseLogEntry[]): CaseLogEntry[] {
  return logs.map((log) => ({
    id: log.id,
    createdAt: log.createdAt,
    statusName: log.statusName,
    message: UI_MESSAGES.maskedNote,
    noteHidden: true,
    createdBy: null,
    attachmentName: null,
  }));
}

/**
 * `identityHidden`: the pelapor who filed the case asked on its profile to hide its identity (or that
 * could not be checked: the caller fails closed).
 */
export function presentCaseDetail(
  c: LegacyCase,
  audience: DetailAudience,
  identityHidden = false,
  handling: HandlingClock | null = null,
): CaseDetail {
  const anonymous = isAnonymousCase(c);
  const hiddenFromReader = anonymous || (audience.handler && identityHidden);
  // Defence in depth: the legacy stores no identity for anonymous reports, but we never pass one on.
  const identity = (value: string | null) =>
    hiddenFromReader || !audience.reporterIdentity ? null : text(value);
  const contactMasked = audience.handler && hiddenFromReader;
  const contact = audience.reporterIdentity ? presentContact(c) : { email: null, phone: null };
  const name =
    identity(c.caseWhistleblowerName) ?? identity(c.caseWhistleblower?.whistleblowerFullName ?? null);
  const logs = (c.caselogs ?? []).map(presentLog);
  return {
    ...presentCaseRow(c, handling),
    channelName: text(c.caseChannel?.channelName ?? null),
    reporter: {
      anonymous,
      identityHidden: audience.handler && identityHidden && !anonymous,
      contactMasked,
      type: ref(c.caseWhistleblowerType),
      name: audience.reporterName ? name : null,
      department: identity(c.caseWhistleblowerDept),
      email: contact.email !== null && contactMasked ? maskEmail(contact.email) : contact.email,
      phone: contact.phone !== null && contactMasked ? maskPhone(contact.phone) : contact.phone,
      address: identity(c.caseWhistleblowerAddress),
      provinceName: identity(c.caseProvince?.provinceName ?? null),
      cityName: identity(c.caseCity?.cityName ?? null),
      districtName: identity(c.caseDistrict?.districtName ?? null),
    },
    communication: {
      types: c.caseWhistleblowerCommunicationType,
      time: text(c.caseWhistleblowerCommunicationTime),
    },
    report: {
      what: text(c.caseWhat),
      where: text(c.caseWhere),
      when: text(c.caseWhen),
      perpetrator: text(c.caseWhoPerpetratorAndPosition),
      directorate: text(c.caseWhatDirectorate),
      division: text(c.caseWhatDivision),
      how: text(c.caseHow),
      involved: text(c.caseWhoInvolvedAndPosition),
      financialLoss: text(c.caseWhatFinancialLoss),
      occurredBefore: text(c.caseWhenOccuredBefore),
      reportedToBefore: text(c.caseWhoEverReportedToAndDetails),
      perpetratorResponse: text(c.caseWhatPerpetratorTalkAndReponse),
      repeatReason: text(c.caseWhatRepeatableCaseReason),
      identificationReason: text(c.caseWhatReasonReporterIdentification),
      needsProtection: c.caseIsReporterNeedProtection,
      protectionReason: text(c.caseWhatReasonForProtection),
    },
    evidenceLink: text(c.caseEvidenceLink),
    attachments: (c.attachments ?? []).map((a) => ({
      id: a.attachmentId,
      name: shownFileName(a.attachmentName) ?? 'lampiran',
    })),
    allegedlyInvolved: (c.allegedlyinvolveds ?? []).map((p) => ({
      name: p.allegedlyInvolvedName ?? '',
      position: p.allegedlyInvolvedPosition ?? '',
      description: text(p.allegedlyInvolvedDescription),
    })),
    logs: audience.fullLogs ? logs : maskTrackerLogs(logs),
    noteHidden: !audience.fullLogs,
  };
}

/** Whether a presented detail carries who the reporter is (a name or contact details in clear). */
export function showsIdentity(detail: CaseDetail): boolean {
  const r = detail.reporter;
  return (
    r.name !== null || r.address !== null || (!r.contactMasked && (r.email !== null || r.phone !== null))
  );
}
