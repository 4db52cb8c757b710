/**
 * Reply shapes of the gateway contract as the web app reads them: the types of the shared valibot
 * schemas (the gateway serialises with the same ones), plus the list wrappers.
 */
import type { CaseListItem } from '@wbs/shared/api/cases';
import type { MessageReply, Option } from '@wbs/shared/api/common';
import type { CaseCategory, CaseStatus } from '@wbs/shared/api/reference';
import type { User as UserReply } from '@wbs/shared/api/session';
import type { UserTypeId } from '@wbs/shared/constants';
import type { Subject } from '@wbs/shared/permissions';

export type { CaseCategory, CaseListItem, CaseStatus, MessageReply, Option };

/** The session's user; its type is one of the six the permission matrix knows. */
export type User = Omit<UserReply, 'userTypeId'> & { userTypeId: UserTypeId };

export const subjectOf = (user: User | null | undefined): Subject =>
  user ? { userTypeId: user.userTypeId, role: user.role } : null;

export type Items<T> = { items: T[] };
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export type LoginReply = { user: User; deviceToken?: string } | { passwordChangeRequired: true };
