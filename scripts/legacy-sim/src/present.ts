/** Records → legacy reply shapes (field names of spec section 3). */
import type { Ctx } from './context.ts';
import { formatWib } from './dates.ts';
import { CHANNELS, USER_ROLES, USER_TYPES } from './seed/constants.ts';
import type {
  Case,
  CaseCategory,
  CaseStatus,
  Company,
  CompanyStaff,
  Partner,
  PartnerStaff,
  User,
  Whistleblower,
} from './types.ts';

export function displayName(ctx: Ctx, user: User): string {
  const { store } = ctx;
  switch (user.wbsUserUserTypeId) {
    case 2:
      return store.companies.get(user.companyId)?.companyName ?? user.wbsUserName;
    case 3:
      return store.partners.get(user.partnerId)?.partnerName ?? user.wbsUserName;
    case 4:
      return store.companyStaff.get(user.companyStaffId)?.companyStaffFullName ?? user.wbsUserName;
    case 5:
      return store.partnerStaff.get(user.partnerStaffId)?.partnerStaffFullName ?? user.wbsUserName;
    case 6:
      return store.whistleblowers.get(user.whistleblowerId)?.whistleblowerFullName ?? user.wbsUserName;
    default:
      return 'Administrator';
  }
}

export function userRecord(ctx: Ctx, user: User) {
  const type = USER_TYPES.find((t) => t.userTypeId === user.wbsUserUserTypeId);
  const staff = ctx.store.companyStaff.get(user.companyStaffId);
  return {
    wbsUserId: user.wbsUserId,
    wbsUserName: user.wbsUserName,
    wbsUserEmail: user.wbsUserEmail,
    wbsUserFullName: displayName(ctx, user),
    wbsUserUserTypeId: user.wbsUserUserTypeId,
    wbsUserUserType: { userTypeId: user.wbsUserUserTypeId, userTypeName: type?.userTypeName ?? '' },
    wbsUserRole: user.wbsUserRole,
    wbsUserInitPassword: user.wbsUserInitPassword,
    partnerId: user.partnerId,
    partnerStaffPartnerId: user.partnerStaffPartnerId,
    companyId: user.companyId,
    companyStaffCompanyId: user.companyStaffCompanyId,
    companyStaffId: user.companyStaffId,
    partnerStaffId: user.partnerStaffId,
    companyStaffCaseLineId: staff?.companyStaffCaseLineId ?? null,
    whistleblowerId: user.whistleblowerId,
    whistleblowerCompanyId: user.whistleblowerCompanyId,
  };
}

/** The short user reference inside partner and company records. */
function userRef(user: User | undefined) {
  return user
    ? { wbsUserId: user.wbsUserId, wbsUserName: user.wbsUserName, wbsUserEmail: user.wbsUserEmail }
    : null;
}

/** The user reference inside staff records (with role text and the initial password while it is one). */
function staffUser(user: User | undefined) {
  if (!user) return null;
  return {
    wbsUserId: user.wbsUserId,
    wbsUserName: user.wbsUserName,
    wbsUserEmail: user.wbsUserEmail,
    wbsUserRole: user.wbsUserRole,
    wbsUserRoleText: USER_ROLES.find((r) => r.id === user.wbsUserRole)?.text ?? '',
    wbsUserPassword: user.wbsUserInitPassword === 1 ? user.initialPassword : null,
    wbsUserInitPassword: user.wbsUserInitPassword,
  };
}

export function partner(ctx: Ctx, p: Partner) {
  return {
    partnerId: p.partnerId,
    partnerCode: p.partnerCode,
    partnerName: p.partnerName,
    partnerPhone: p.partnerPhone,
    partnerAddress: p.partnerAddress,
    partnerProvinceId: p.partnerProvinceId,
    partnerCityId: p.partnerCityId,
    partnerProvince: {
      provinceName: ctx.regions.provinceById.get(p.partnerProvinceId)?.provinceName ?? null,
    },
    partnerCity: { cityName: ctx.regions.cityById.get(p.partnerCityId)?.cityName ?? null },
    partnerWbsUser: userRef(ctx.store.users.get(p.wbsUserId)),
  };
}

export function company(ctx: Ctx, c: Company) {
  const owner = ctx.store.partners.get(c.companyPartnerId);
  return {
    companyId: c.companyId,
    companyCode: c.companyCode,
    companyName: c.companyName,
    companyPhone: c.companyPhone,
    companyAddress: c.companyAddress,
    companyProvinceId: c.companyProvinceId,
    companyCityId: c.companyCityId,
    companyProvince: {
      provinceName: ctx.regions.provinceById.get(c.companyProvinceId)?.provinceName ?? null,
    },
    companyCity: { cityName: ctx.regions.cityById.get(c.companyCityId)?.cityName ?? null },
    companyPartnerId: c.companyPartnerId,
    companyPartner: owner ? { partnerId: owner.partnerId, partnerName: owner.partnerName } : null,
    companyWbsUser: userRef(ctx.store.users.get(c.wbsUserId)),
  };
}

export function partnerStaff(ctx: Ctx, s: PartnerStaff) {
  return {
    partnerStaffId: s.partnerStaffId,
    partnerStaffPartnerId: s.partnerStaffPartnerId,
    partnerStaffFullName: s.partnerStaffFullName,
    partnerStaffWbsUser: staffUser(ctx.store.users.get(s.wbsUserId)),
  };
}

export function companyStaff(ctx: Ctx, s: CompanyStaff) {
  const line = ctx.store.caseLines.get(s.companyStaffCaseLineId);
  return {
    companyStaffId: s.companyStaffId,
    companyStaffCompanyId: s.companyStaffCompanyId,
    companyStaffFullName: s.companyStaffFullName,
    companyStaffCaseLineId: s.companyStaffCaseLineId,
    companyStaffCaseLine: line ? { caseLineId: line.caseLineId, caseLineName: line.caseLineName } : null,
    companyStaffWbsUser: staffUser(ctx.store.users.get(s.wbsUserId)),
  };
}

export function status(s: CaseStatus) {
  return {
    caseStatusId: s.caseStatusId,
    caseStatusName: s.caseStatusName,
    caseStatusOrder: s.caseStatusOrder,
  };
}

export function category(ctx: Ctx, c: CaseCategory) {
  const group = ctx.store.caseCategoryGroups.get(c.caseCategoryGroupId);
  const nested = group
    ? { caseCategoryGroupId: group.caseCategoryGroupId, caseCategoryGroupName: group.caseCategoryGroupName }
    : null;
  return {
    caseCategoryId: c.caseCategoryId,
    caseCategoryName: c.caseCategoryName,
    caseCategoryCompanyId: c.companyId,
    caseCategoryCaseCategoryGroupId: c.caseCategoryGroupId,
    caseCategoryGroup: nested,
    caseCategoryCaseCategoryGroup: nested,
  };
}

export function whistleblower(w: Whistleblower) {
  return {
    whistleblowerId: w.whistleblowerId,
    whistleblowerCompanyId: w.whistleblowerCompanyId,
    whistleblowerFullName: w.whistleblowerFullName,
    whistleblowerIsAnonymousBool: w.whistleblowerIsAnonymous,
  };
}

/** A case list row. */
export function caseRow(ctx: Ctx, c: Case) {
  const { store } = ctx;
  const s = store.caseStatuses.get(c.statusId);
  const line = store.caseLines.get(c.lineId);
  return {
    caseId: c.caseId,
    caseNumber: c.caseNumber,
    caseCreated: formatWib(c.created),
    caseCompanyId: c.companyId,
    caseCompany: { companyName: store.companies.get(c.companyId)?.companyName ?? 'Data tidak ditemukan' },
    caseCaseCategoryId: c.categoryId,
    caseCaseCategory: { caseCategoryName: store.caseCategories.get(c.categoryId)?.caseCategoryName ?? null },
    caseCaseLineId: c.lineId,
    caseCaseLine: line ? { caseLineName: line.caseLineName } : null,
    caseCaseStatusId: c.statusId,
    caseCaseStatus: s ? status(s) : null,
  };
}

/** The full case (detail and tracking): everything unmasked — the gateway masks. */
export function caseDetail(ctx: Ctx, c: Case) {
  const { store, regions } = ctx;
  const cat = store.caseCategories.get(c.categoryId);
  const s = store.caseStatuses.get(c.statusId);
  const line = store.caseLines.get(c.lineId);
  const channel = CHANNELS.find((ch) => ch.channelId === c.channelId);
  const wb = store.whistleblowers.get(c.whistleblowerId);
  const company = store.companies.get(c.companyId);
  const f = c.fields;
  const province = regions.provinceById.get(Number(f.caseWhistleblowerProvinceId));
  const city = regions.cityById.get(Number(f.caseWhistleblowerCityId));
  const district = regions.districtById.get(Number(f.caseWhistleblowerDistrictId));
  return {
    caseId: c.caseId,
    caseNumber: c.caseNumber,
    caseTitle: c.caseTitle,
    caseCreated: formatWib(c.created),
    caseCompanyId: c.companyId,
    caseCompany: company ? { companyId: company.companyId, companyName: company.companyName } : null,
    caseCaseCategoryId: c.categoryId,
    caseCaseCategory: cat ? category(ctx, cat) : null,
    caseCaseLineId: c.lineId,
    caseCaseLine: line ? { caseLineId: line.caseLineId, caseLineName: line.caseLineName } : null,
    caseChannelId: c.channelId,
    caseChannel: channel ? { ...channel } : null,
    caseCaseStatusId: c.statusId,
    caseCaseStatus: s ? status(s) : null,
    caseWhistleblowerId: c.whistleblowerId,
    caseWhistleblower: wb
      ? { whistleblowerId: wb.whistleblowerId, whistleblowerFullName: wb.whistleblowerFullName }
      : null,
    ...f,
    caseAnonym: f.caseWhistleblowerIsAnonym ?? 0,
    caseProvince: province ? { provinceId: province.provinceId, provinceName: province.provinceName } : null,
    caseCity: city ? { cityId: city.cityId, cityName: city.cityName } : null,
    caseDistrict: district ? { districtId: district.districtId, districtName: district.districtName } : null,
    attachments: c.attachments.map((a) => ({ attachmentId: a.attachmentId, attachmentName: a.name })),
    caselogs: c.logs.map((log) => ({
      caseLogId: log.caseLogId,
      caseLogCaseStatusId: log.caseStatusId,
      caseLogCaseStatus: { caseStatusName: store.caseStatuses.get(log.caseStatusId)?.caseStatusName ?? null },
      caseLogMessage: log.message,
      caseLogAttachmentName: log.file?.name ?? null,
      caseLogAttachmentFile: log.file ? log.file.name : null,
      caseLogCreated: formatWib(log.created),
      caseLogCreatedBy: log.createdBy,
    })),
    allegedlyinvolveds: c.allegedlyInvolveds.map((a) => ({ ...a })),
  };
}
