/**
 * Valibot schemas of the legacy case shapes (spec sections 3 and 7, legacy-sim README "Cases"): the
 * case-table row and the full case of the detail and tracking calls. As in schemas.ts only the fields
 * the gateway reads are listed (`v.object` drops the rest) and the schemas are loose where the legacy
 * is loose (numbers as strings, flags as 0/1, "1", true, missing objects as null).
 */
import * as v from 'valibot';
import { num, optNum, optStr } from './schemas.ts';

/** A 0/1 flag the legacy may send as a number, a numeric string or a boolean; null when absent. */
export const legacyFlag = v.pipe(
  v.optional(v.nullable(v.union([v.boolean(), v.number(), v.string()])), null),
  v.transform((value): boolean | null => {
    if (value === null) return null;
    if (typeof value === 'boolean') return value;
    const text = String(value).trim().toLowerCase();
    if (text === '') return null;
    return text === '1' || text === 'true';
  }),
);

/** '0,2' (or a number, or a list) → [0, 2]; unknown entries are dropped. */
export const legacyIdList = v.pipe(
  v.optional(v.nullable(v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))])), null),
  v.transform((value): number[] => {
    if (value === null) return [];
    const parts = Array.isArray(value) ? value : String(value).split(',');
    const ids = parts.map((p) => String(p).trim()).filter((p) => /^\d{1,3}$/.test(p));
    return [...new Set(ids.map(Number))];
  }),
);

const nested = <K extends string>(key: K) =>
  v.optional(v.nullable(v.object({ [key]: optStr } as Record<K, typeof optStr>)), null);

const legacyStatus = v.optional(
  v.nullable(
    v.object({
      caseStatusId: optNum,
      caseStatusName: optStr,
      caseStatusOrder: optNum,
    }),
  ),
  null,
);

/** A row of the case tables (`POST /WBSCase/company/admin/{id}` and the other three). */
export const caseRowSchema = v.object({
  caseId: num,
  caseNumber: v.string(),
  caseCreated: v.string(),
  caseCompanyId: num,
  caseCompany: nested('companyName'),
  caseCaseCategoryId: optNum,
  caseCaseCategory: nested('caseCategoryName'),
  caseCaseLineId: optNum,
  caseCaseLine: nested('caseLineName'),
  caseCaseStatusId: optNum,
  caseCaseStatus: legacyStatus,
});
export type LegacyCaseRow = v.InferOutput<typeof caseRowSchema>;

export const caseAttachmentSchema = v.object({
  attachmentId: num,
  attachmentName: optStr,
});

export const caseLogSchema = v.object({
  caseLogId: num,
  caseLogCaseStatusId: optNum,
  caseLogCaseStatus: nested('caseStatusName'),
  caseLogMessage: optStr,
  caseLogAttachmentName: optStr,
  caseLogAttachmentFile: optStr,
  caseLogCreated: optStr,
  caseLogCreatedBy: optStr,
});
export type LegacyCaseLog = v.InferOutput<typeof caseLogSchema>;

export const allegedlyInvolvedSchema = v.object({
  allegedlyInvolvedId: optNum,
  allegedlyInvolvedName: optStr,
  allegedlyInvolvedPosition: optStr,
  allegedlyInvolvedDescription: optStr,
});

const listOf = <T extends v.GenericSchema>(item: T) => v.optional(v.nullable(v.array(item)), null);

/**
 * The full case (the table row's fields and the whole report): `GET /WBSCase/company/{companyId}/{caseId}`, `GET /WBSCase/partner/{caseId}` and
 * `POST /WBSCase/Whistleblower/byNumber`. Nothing in it is masked by the legacy.
 */
export const legacyCaseSchema = v.object({
  ...caseRowSchema.entries,
  caseTitle: optStr,
  caseChannelId: optNum,
  caseChannel: nested('channelName'),
  caseWhistleblowerId: optNum,
  caseWhistleblower: nested('whistleblowerFullName'),
  caseWhistleblowerName: optStr,
  caseWhistleblowerType: optNum,
  caseWhistleblowerEmail: optStr,
  caseWhistleblowerDept: optStr,
  caseWhistleblowerContactNum: optStr,
  caseWhistleblowerAddress: optStr,
  caseWhistleblowerIsAnonym: legacyFlag,
  caseAnonym: legacyFlag,
  caseWhistleblowerCommunicationType: legacyIdList,
  caseWhistleblowerCommunicationTime: optStr,
  // The spec promises the names only; a legacy that also sends the ids saves the name look-up
  // (case-index/location.ts).
  caseProvince: v.optional(v.nullable(v.object({ provinceId: optNum, provinceName: optStr })), null),
  caseCity: v.optional(v.nullable(v.object({ cityId: optNum, cityName: optStr })), null),
  caseDistrict: nested('districtName'),
  caseWhat: optStr,
  caseWhere: optStr,
  caseWhen: optStr,
  caseWhoPerpetratorAndPosition: optStr,
  caseWhatDirectorate: optStr,
  caseWhatDivision: optStr,
  caseWhoInvolvedAndPosition: optStr,
  caseHow: optStr,
  caseWhatFinancialLoss: optStr,
  caseWhenOccuredBefore: optStr,
  caseWhoEverReportedToAndDetails: optStr,
  caseWhatPerpetratorTalkAndReponse: optStr,
  caseWhatRepeatableCaseReason: optStr,
  caseWhatReasonReporterIdentification: optStr,
  caseIsReporterNeedProtection: legacyFlag,
  caseWhatReasonForProtection: optStr,
  caseEvidenceLink: optStr,
  attachments: listOf(caseAttachmentSchema),
  caselogs: listOf(caseLogSchema),
  allegedlyinvolveds: listOf(allegedlyInvolvedSchema),
});
export type LegacyCase = v.InferOutput<typeof legacyCaseSchema>;
