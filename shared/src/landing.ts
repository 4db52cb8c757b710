/**
 * Where a user lands (spec section 2): after signing in, from the landing page's Laporkan button,
 * and while the sign-in waits for its second factor. Apart from the menus (navigation.ts) because
 * every public page needs these few lines and none of the menus.
 */
import { PRIVILEGED_ROLE, type UserTypeId } from './constants.ts';
import type { Subject } from './permissions.ts';

/**
 * The sign-in's second step (docs/product/second-factor.md): while a session waits for it, the app
 * shows the screen of its state and nothing else.
 */
export const SECOND_FACTOR_PATHS = {
  verify: '/auth/verifikasi',
  enrol: '/auth/aktifkan-verifikasi',
} as const;

export function targetAfterLogin(userTypeId: UserTypeId): string {
  if (userTypeId === 6) return '/admin/case';
  if (userTypeId === 1) return '/admin/partner';
  return '/admin/dashboard';
}

/** Where the landing page's Laporkan button leads. */
export function reportButtonTarget(subject: Subject): string {
  if (subject === null) return '/case/create';
  if (subject.userTypeId === 2 || subject.userTypeId === 3) return '/case/create';
  if ((subject.userTypeId === 4 || subject.userTypeId === 5) && subject.role === PRIVILEGED_ROLE) {
    return '/case/create';
  }
  return '/admin/dashboard';
}
