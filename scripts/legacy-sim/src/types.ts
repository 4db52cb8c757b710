/** The sim's stored records. Persisted as JSON arrays in store.json; indexed in memory as Maps. */

export type User = {
  wbsUserId: number;
  wbsUserName: string;
  wbsUserEmail: string;
  wbsUserUserTypeId: number;
  /** 1 privileged, 2 normal. */
  wbsUserRole: number;
  wbsUserInitPassword: 0 | 1;
  passwordHash: string;
  /** The plain initial password, kept only while wbsUserInitPassword is 1 (legacy behaviour). */
  initialPassword: string | null;
  partnerId: number | null;
  partnerStaffId: number | null;
  partnerStaffPartnerId: number | null;
  companyId: number | null;
  companyStaffId: number | null;
  companyStaffCompanyId: number | null;
  whistleblowerId: number | null;
  whistleblowerCompanyId: number | null;
};

export type Partner = {
  partnerId: number;
  partnerCode: string;
  partnerName: string;
  partnerPhone: string;
  partnerAddress: string;
  partnerProvinceId: number;
  partnerCityId: number;
  wbsUserId: number | null;
};

export type Company = {
  companyId: number;
  companyCode: string;
  companyName: string;
  companyPhone: string;
  companyAddress: string;
  companyProvinceId: number;
  companyCityId: number;
  /** 0 = no partner. */
  companyPartnerId: number;
  wbsUserId: number | null;
};

export type PartnerStaff = {
  partnerStaffId: number;
  partnerStaffPartnerId: number;
  partnerStaffFullName: string;
  wbsUserId: number;
};

export type CompanyStaff = {
  companyStaffId: number;
  companyStaffCompanyId: number;
  companyStaffFullName: string;
  companyStaffCaseLineId: number;
  wbsUserId: number;
};

export type Whistleblower = {
  whistleblowerId: number;
  whistleblowerCompanyId: number;
  whistleblowerFullName: string;
  whistleblowerIsAnonymous: boolean;
  wbsUserId: number | null;
};

export type CaseStatus = {
  caseStatusId: number;
  caseStatusName: string;
  caseStatusOrder: number;
  final: boolean;
};
export type CaseLine = { caseLineId: number; caseLineName: string };
export type CaseCategoryGroup = {
  caseCategoryGroupId: number;
  caseCategoryGroupName: string;
  companyId: number;
};
export type CaseCategory = {
  caseCategoryId: number;
  caseCategoryName: string;
  caseCategoryGroupId: number | null;
  companyId: number;
};

export type StoredFile = { key: string; name: string; contentType: string; size: number };

export type Attachment = StoredFile & { attachmentId: number };

export type CaseLog = {
  caseLogId: number;
  caseStatusId: number;
  message: string;
  file: StoredFile | null;
  created: number;
  createdBy: string;
  createdByUserId: number | null;
};

export type AllegedlyInvolved = {
  allegedlyInvolvedId: number;
  allegedlyInvolvedName: string;
  allegedlyInvolvedPosition: string;
  allegedlyInvolvedDescription: string;
};

/** Free-text and reporter fields of a case, stored under their legacy names. */
export type CaseFields = Record<string, string | number | null>;

export type Case = {
  caseId: number;
  caseNumber: string;
  caseTitle: string;
  created: number;
  companyId: number;
  categoryId: number;
  lineId: number | null;
  channelId: number;
  statusId: number;
  whistleblowerId: number | null;
  passwordHash: string | null;
  createdByUserId: number | null;
  fields: CaseFields;
  attachments: Attachment[];
  logs: CaseLog[];
  allegedlyInvolveds: AllegedlyInvolved[];
};

export type Counters = Record<
  | 'user'
  | 'partner'
  | 'company'
  | 'partnerStaff'
  | 'companyStaff'
  | 'whistleblower'
  | 'caseStatus'
  | 'caseLine'
  | 'caseCategoryGroup'
  | 'caseCategory'
  | 'case'
  | 'attachment'
  | 'caseLog'
  | 'allegedlyInvolved',
  number
>;

/**
 * Shape version of a persisted store. 2: the status table of docs/product/handling.md#case-workflow (handling steps
 * have ids 11–21); a store of an earlier version holds the old ids and is reseeded.
 */
export const STORE_VERSION = 2;

/** The persisted document. */
export type Db = {
  version: typeof STORE_VERSION;
  seededAt: string;
  counters: Counters;
  users: User[];
  partners: Partner[];
  companies: Company[];
  partnerStaff: PartnerStaff[];
  companyStaff: CompanyStaff[];
  whistleblowers: Whistleblower[];
  caseStatuses: CaseStatus[];
  caseLines: CaseLine[];
  caseCategoryGroups: CaseCategoryGroup[];
  caseCategories: CaseCategory[];
  cases: Case[];
};
