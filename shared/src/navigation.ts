/** Menus and landing targets by user type (spec section 2); the web app renders these. */
import type { UserTypeId } from './constants.ts';

// Where a user lands is its own module: the public pages need it without the menus below.
export { reportButtonTarget, SECOND_FACTOR_PATHS, targetAfterLogin } from './landing.ts';

export type MenuItem = { label: string; path: string };

/** Notifikasi: how each kind of notice is mailed (staff types 1–5, from the top-bar menu and the bell). */
export const NOTICE_PREFERENCES_PATH = '/admin/notifikasi';

/**
 * Retention and disposal (docs/product/retention.md): the administrator, who is also the data
 * protection officer, sets each company's retention period, keeps the disposal register and reads
 * the records of processing.
 */
export const RETENTION_PATHS = {
  periods: '/admin/retensi',
  register: '/admin/pemusnahan',
  records: '/admin/catatan-pemrosesan',
} as const;

/**
 * Peta Laporan and Statistik (docs/product/insights.md): every staff type (1–5). The dashboard's
 * Statistik tab is its own route, so the administrator, who has no dashboard, opens it too.
 */
export const INSIGHT_PATHS = { maps: '/admin/maps', statistics: '/admin/statistik' } as const;

/** Keamanan Akun: the user's own second factors (every signed-in type, from the top-bar menu). */
export const ACCOUNT_SECURITY_PATH = '/admin/keamanan';

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
    // Mails of every user that failed all retries: only the administrator may look and send again.
    { label: 'Surel Gagal Terkirim', path: '/admin/surel-gagal' },
    { label: 'Retensi Data', path: RETENTION_PATHS.periods },
    { label: 'Register Pemusnahan', path: RETENTION_PATHS.register },
    { label: 'Catatan Pemrosesan Data', path: RETENTION_PATHS.records },
    { label: 'Peta Laporan', path: INSIGHT_PATHS.maps },
    { label: 'Statistik', path: INSIGHT_PATHS.statistics },
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
  // Statistik is a tab of the dashboard for these types (the administrator's is a menu entry).
  return [
    { label: 'Dashboard', path: '/admin/dashboard' },
    { label: 'Peta Laporan', path: INSIGHT_PATHS.maps },
    ...items,
  ];
}

/** Routes each user type may open under /admin (besides /admin/dashboard and /admin/maps). */
export const ADMIN_ROUTES: Record<UserTypeId, string[]> = {
  1: [
    '/admin/partner',
    '/admin/company',
    '/admin/statuscase',
    '/admin/case',
    '/admin/deadlines',
    NOTICE_PREFERENCES_PATH,
    '/admin/surel-gagal',
    RETENTION_PATHS.periods,
    RETENTION_PATHS.register,
    RETENTION_PATHS.records,
    INSIGHT_PATHS.statistics,
    ACCOUNT_SECURITY_PATH,
  ],
  2: [
    '/admin/supportagent',
    '/admin/categorycase',
    '/admin/case',
    '/admin/profile',
    '/admin/deadlines',
    INSIGHT_PATHS.statistics,
    NOTICE_PREFERENCES_PATH,
    ACCOUNT_SECURITY_PATH,
  ],
  3: [
    '/admin/partnerstaff',
    '/admin/case',
    '/admin/profile',
    '/admin/deadlines',
    INSIGHT_PATHS.statistics,
    NOTICE_PREFERENCES_PATH,
    ACCOUNT_SECURITY_PATH,
  ],
  4: [
    '/admin/profile',
    '/admin/case',
    INSIGHT_PATHS.statistics,
    NOTICE_PREFERENCES_PATH,
    ACCOUNT_SECURITY_PATH,
  ],
  5: ['/admin/case', INSIGHT_PATHS.statistics, NOTICE_PREFERENCES_PATH, ACCOUNT_SECURITY_PATH],
  // Reporters handle no case: they get no notices (the bell and its preferences are staff-only).
  6: ['/admin/profile', '/admin/case', ACCOUNT_SECURITY_PATH],
};

/**
 * Top-bar menu entries: Profil (type 6), Ubah Password (types 2, 3, 4, 6), Notifikasi (1–5), Keamanan
 * Akun (everyone), Keluar.
 */
export function topBarMenu(userTypeId: UserTypeId): MenuItem[] {
  const items: MenuItem[] = [];
  if (userTypeId === 6) items.push({ label: 'Profil', path: '/admin/profile' });
  if ([2, 3, 4, 6].includes(userTypeId)) items.push({ label: 'Ubah Password', path: '/user/changepassword' });
  if (userTypeId !== 6) items.push({ label: 'Notifikasi', path: NOTICE_PREFERENCES_PATH });
  items.push({ label: 'Keamanan Akun', path: ACCOUNT_SECURITY_PATH });
  items.push({ label: 'Keluar', path: '/auth/logout' });
  return items;
}
