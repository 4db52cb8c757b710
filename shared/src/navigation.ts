/** Menus and landing targets by user type (spec section 2); the web app renders these. */
import { PRIVILEGED_ROLE, type UserTypeId } from './constants.ts';
import type { Subject } from './permissions.ts';

export type MenuItem = { label: string; path: string };

const SIDE_MENU: Record<UserTypeId, MenuItem[]> = {
  1: [
    { label: 'Partner', path: '/admin/partner' },
    { label: 'Perusahaan', path: '/admin/company' },
    { label: 'Status Laporan', path: '/admin/statuscase' },
    // Spec §2 lists /admin/case among type 1's routes but not in its menu; a route without a link
    // would be unreachable (docs/product/roles-and-screens.md#administrator).
    { label: 'Laporan', path: '/admin/case' },
    // Each company's handling deadlines (set here; read by types 2 and 3).
    { label: 'Tenggat Penanganan', path: '/admin/deadlines' },
  ],
  2: [
    { label: 'Analis', path: '/admin/supportagent' },
    { label: 'Kategori Laporan', path: '/admin/categorycase' },
    { label: 'Laporan', path: '/admin/case' },
    { label: 'Tenggat Penanganan', path: '/admin/deadlines' },
  ],
  3: [
    { label: 'Analis', path: '/admin/partnerstaff' },
    { label: 'Laporan', path: '/admin/case' },
    { label: 'Tenggat Penanganan', path: '/admin/deadlines' },
  ],
  4: [{ label: 'Laporan', path: '/admin/case' }],
  5: [{ label: 'Laporan', path: '/admin/case' }],
  6: [{ label: 'Laporan', path: '/admin/case' }],
};

/** Dashboard link: every signed-in user except types 1 and 6 (type 6 is sent to its cases). */
export function sideMenu(userTypeId: UserTypeId): MenuItem[] {
  const items = SIDE_MENU[userTypeId];
  if (userTypeId === 1 || userTypeId === 6) return items;
  return [{ label: 'Dashboard', path: '/admin/dashboard' }, ...items];
}

/** Routes each user type may open under /admin (besides /admin/dashboard and /admin/maps). */
export const ADMIN_ROUTES: Record<UserTypeId, string[]> = {
  1: ['/admin/partner', '/admin/company', '/admin/statuscase', '/admin/case', '/admin/deadlines'],
  2: ['/admin/supportagent', '/admin/categorycase', '/admin/case', '/admin/profile', '/admin/deadlines'],
  3: ['/admin/partnerstaff', '/admin/case', '/admin/profile', '/admin/deadlines'],
  4: ['/admin/profile', '/admin/case'],
  5: ['/admin/case'],
  6: ['/admin/profile', '/admin/case'],
};

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

/** Top-bar menu entries: Profil (type 6), Ubah Password (types 2, 3, 4, 6), Keluar. */
export function topBarMenu(userTypeId: UserTypeId): MenuItem[] {
  const items: MenuItem[] = [];
  if (userTypeId === 6) items.push({ label: 'Profil', path: '/admin/profile' });
  if ([2, 3, 4, 6].includes(userTypeId)) items.push({ label: 'Ubah Password', path: '/user/changepassword' });
  items.push({ label: 'Keluar', path: '/auth/logout' });
  return items;
}
