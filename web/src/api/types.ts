/** Reply shapes of the gateway contract (docs/api-contract.md) as the web app reads them. */
import type { UserTypeId } from '@wbs/shared/constants';
import type { Subject } from '@wbs/shared/permissions';

export type User = {
  id: number;
  username: string;
  email: string | null;
  displayName: string | null;
  userTypeId: UserTypeId;
  userTypeName: string | null;
  role: number | null;
  partnerId: number | null;
  companyId: number | null;
  caseLineId: number | null;
  whistleblowerId: number | null;
  staffId: number | null;
};

export const subjectOf = (user: User | null | undefined): Subject =>
  user ? { userTypeId: user.userTypeId, role: user.role } : null;

export type Option = { id: number; name: string };
export type Items<T> = { items: T[] };
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };
export type CaseCategory = { id: number; name: string; groupId: number | null; groupName: string | null };
export type CaseStatus = { id: number; name: string; order: number };

export type LoginReply = { user: User } | { passwordChangeRequired: true };
export type MessageReply = { message: string };

export type CaseListItem = {
  id: number;
  number: string;
  createdAt: string;
  companyId: number | null;
  companyName: string | null;
  categoryId: number | null;
  categoryName: string | null;
  caseLineId: number | null;
  caseLineName: string | null;
  status: CaseStatus | null;
};
