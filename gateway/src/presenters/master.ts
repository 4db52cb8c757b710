/** Legacy master-data records → our camelCase shapes (one object literal per shape). */
import type { Option } from '@wbs/shared/api/common';
import type { Company } from '@wbs/shared/api/companies';
import type { Partner } from '@wbs/shared/api/partners';
import type { Analyst, PartnerStaff } from '@wbs/shared/api/staff';
import type {
  LegacyCompany,
  LegacyCompanyStaff,
  LegacyPartner,
  LegacyPartnerStaff,
} from '../legacy/schemas.ts';

export function presentPartner(p: LegacyPartner): Partner {
  return {
    id: p.partnerId,
    code: p.partnerCode,
    name: p.partnerName,
    phone: p.partnerPhone,
    address: p.partnerAddress,
    provinceId: p.partnerProvinceId,
    provinceName: p.partnerProvince?.provinceName ?? null,
    cityId: p.partnerCityId,
    cityName: p.partnerCity?.cityName ?? null,
    username: p.partnerWbsUser?.wbsUserName ?? null,
    email: p.partnerWbsUser?.wbsUserEmail ?? null,
  };
}

export function presentCompany(c: LegacyCompany): Company {
  return {
    id: c.companyId,
    code: c.companyCode,
    name: c.companyName,
    phone: c.companyPhone,
    address: c.companyAddress,
    provinceId: c.companyProvinceId,
    provinceName: c.companyProvince?.provinceName ?? null,
    cityId: c.companyCityId,
    cityName: c.companyCity?.cityName ?? null,
    partnerId: c.companyPartnerId && c.companyPartnerId > 0 ? c.companyPartnerId : null,
    partnerName: c.companyPartner?.partnerName ?? null,
    username: c.companyWbsUser?.wbsUserName ?? null,
    email: c.companyWbsUser?.wbsUserEmail ?? null,
  };
}

export function presentPartnerStaff(s: LegacyPartnerStaff): PartnerStaff {
  const u = s.partnerStaffWbsUser;
  const initial = u?.wbsUserInitPassword === 1;
  return {
    id: s.partnerStaffId,
    fullName: s.partnerStaffFullName,
    username: u?.wbsUserName ?? null,
    email: u?.wbsUserEmail ?? null,
    roleId: u?.wbsUserRole ?? null,
    roleName: u?.wbsUserRoleText ?? null,
    initialPassword: initial,
    password: initial ? (u?.wbsUserPassword ?? null) : null,
  };
}

export function presentAnalyst(s: LegacyCompanyStaff): Analyst {
  const u = s.companyStaffWbsUser;
  const initial = u?.wbsUserInitPassword === 1;
  return {
    id: s.companyStaffId,
    fullName: s.companyStaffFullName,
    username: u?.wbsUserName ?? null,
    email: u?.wbsUserEmail ?? null,
    roleId: u?.wbsUserRole ?? null,
    roleName: u?.wbsUserRoleText ?? null,
    initialPassword: initial,
    password: initial ? (u?.wbsUserPassword ?? null) : null,
    caseLineId: s.companyStaffCaseLineId,
    caseLineName: s.companyStaffCaseLine?.caseLineName ?? null,
  };
}

export const presentOption = (id: number, name: string): Option => ({ id, name });
