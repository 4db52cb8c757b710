/** Signed-in users for the web's tests: one of each user type, as the session reply gives them. */
import { USER_TYPE_NAMES } from '@wbs/shared';
import type { UserTypeId } from '@wbs/shared/constants';
import type { User } from '../api/types.ts';

/**
 * A user of `userTypeId` (role 1, privileged, unless given): company users of company 1, an analyst
 * of line 1, the pelapor with its whistleblower record.
 */
export const userOfType = (userTypeId: UserTypeId, role = 1): User => ({
  id: 9,
  username: `user.${userTypeId}`,
  email: null,
  displayName: `Pengguna ${userTypeId}`,
  userTypeId,
  userTypeName: USER_TYPE_NAMES[userTypeId],
  role,
  partnerId: null,
  companyId: userTypeId === 2 || userTypeId === 4 ? 1 : null,
  caseLineId: userTypeId === 4 ? 1 : null,
  whistleblowerId: userTypeId === 6 ? 5 : null,
  staffId: null,
});
