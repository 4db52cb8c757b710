import type { User } from '@wbs/shared/api/session';
import type { UserTypeId } from '@wbs/shared/constants';
import { USER_TYPE_NAMES } from '@wbs/shared/permissions';
import type { LegacyUser } from '../legacy/schemas.ts';

/** 0 and null both mean "none" in legacy user records. */
const id = (value: number | null): number | null => (value && value > 0 ? value : null);

export function presentUser(u: LegacyUser): User {
  const userTypeId = u.wbsUserUserTypeId as UserTypeId;
  return {
    id: u.wbsUserId,
    username: u.wbsUserName,
    email: u.wbsUserEmail,
    displayName:
      u.wbsUserFullName ??
      u.partnerStaffFullName ??
      u.companyStaffFullName ??
      u.whistleblowerFullName ??
      u.partnerName ??
      u.companyName ??
      u.wbsUserName,
    userTypeId,
    userTypeName: u.wbsUserUserType?.userTypeName ?? USER_TYPE_NAMES[userTypeId],
    role: u.wbsUserRole,
    partnerId: id(u.partnerId) ?? id(u.partnerStaffPartnerId),
    companyId: id(u.companyId) ?? id(u.companyStaffCompanyId) ?? id(u.whistleblowerCompanyId),
    caseLineId: id(u.companyStaffCaseLineId),
    whistleblowerId: id(u.whistleblowerId),
    staffId: id(u.partnerStaffId) ?? id(u.companyStaffId),
  };
}
