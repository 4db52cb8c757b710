/** The signed-in user as the screens read it, from the session reply of the API document. */
import { USER_TYPES, type UserTypeId } from '@wbs/shared/constants';
import type { Subject } from '@wbs/shared/permissions';
import type { ApiReply } from './client.ts';

type SessionUser = NonNullable<ApiReply<'get', '/api/v1/session'>['user']>;

/** The session's user; its type is one of the six the permission matrix knows. */
export type User = Omit<SessionUser, 'userTypeId'> & { userTypeId: UserTypeId };

/**
 * The user of a session, sign-in or password-change reply. The document types `userTypeId` as a
 * plain integer; the gateway only signs in the six user types of shared/src/permissions.ts.
 */
export const asUser = (user: SessionUser): User => user as User;

/** Partner (3) and partner staff (5): they act for one company of their partner at a time. */
export const isPartnerUser = (user: User): boolean =>
  user.userTypeId === USER_TYPES.PARTNER || user.userTypeId === USER_TYPES.PARTNER_STAFF;

export const subjectOf = (user: User | null | undefined): Subject =>
  user ? { userTypeId: user.userTypeId, role: user.role } : null;
