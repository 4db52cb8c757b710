/**
 * Who reaches the bell, Notifikasi and Surel Gagal Terkirim. The menus and routes follow the
 * permission matrix for every user type and role (staff types 1–5: notices; type 1 alone: failed
 * mails), and the /admin guard sends everyone else to their own landing screen, a guest to sign-in.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import {
  ACCOUNT_SECURITY_PATH,
  ADMIN_ROUTES,
  can,
  INSIGHT_PATHS,
  NOTICE_PREFERENCES_PATH,
  RETENTION_PATHS,
  sideMenu,
  topBarMenu,
  USER_TYPE_IDS,
} from '@wbs/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { User } from '../api/types.ts';
import { fakeGateway, ok, type Reply } from '../test/fakeGateway.ts';
import { cleanUp, renderAt } from '../test/render.tsx';
import { userOfType } from '../test/users.ts';
import { notify } from '../ui/toaster.tsx';
import AdminArea from './AdminArea.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

const DEAD_LETTERS_PATH = '/admin/surel-gagal';

describe('menus and routes of notices and failed mails', () => {
  for (const userTypeId of USER_TYPE_IDS) {
    for (const role of [1, 2]) {
      const subject = { userTypeId, role };
      it(`type ${userTypeId}, role ${role}`, () => {
        const notices = can(subject, 'notices:read');
        const deadLetters = can(subject, 'mail-dead-letters:manage');
        expect(ADMIN_ROUTES[userTypeId].includes(NOTICE_PREFERENCES_PATH)).toBe(notices);
        expect(topBarMenu(userTypeId).some((item) => item.path === NOTICE_PREFERENCES_PATH)).toBe(notices);
        expect(ADMIN_ROUTES[userTypeId].includes(DEAD_LETTERS_PATH)).toBe(deadLetters);
        expect(sideMenu(userTypeId).some((item) => item.path === DEAD_LETTERS_PATH)).toBe(deadLetters);
        // The retention screens: the administrator's alone, each in its side menu and routes.
        const retention = can(subject, 'disposals:manage');
        expect(can(subject, 'retention:manage')).toBe(retention);
        expect(can(subject, 'processing-records:read')).toBe(retention);
        for (const path of Object.values(RETENTION_PATHS)) {
          expect(ADMIN_ROUTES[userTypeId].includes(path)).toBe(retention);
          expect(sideMenu(userTypeId).some((item) => item.path === path)).toBe(retention);
        }
        // Keamanan Akun: every signed-in user, from the top-bar menu.
        expect(ADMIN_ROUTES[userTypeId].includes(ACCOUNT_SECURITY_PATH)).toBe(true);
        expect(topBarMenu(userTypeId)).toContainEqual({
          label: 'Keamanan Akun',
          path: ACCOUNT_SECURITY_PATH,
        });
      });
    }
  }
});

let summary: Reply = { status: 200, body: { waiting: 0, overdue: 0 } };

/** A gateway with one signed-in user (or none) that knows the screens' first reads. */
function fakeAdminGateway(user: User | null) {
  return fakeGateway(
    {
      'GET /session': ok({ user, passwordChangeRequired: false }),
      'GET /notices': ok({ items: [], unread: 2, more: false }),
      'GET /mail/dead-letters': ok({ items: [] }),
      'GET /notice-preferences': ok({ items: [], hasEmail: true }),
      'GET /disposals/summary': () => summary,
      'GET /partners': ok({ items: [], total: 0, page: 1, pageSize: 10 }),
    },
    // Any query: the reads are told apart by their path alone.
    // Screens outside this test (dashboard, case list) get a refusal: they show their own failure.
    {
      query: false,
      otherwise: {
        status: 503,
        body: { type: 'x/busy', title: 'Layanan sedang sibuk', status: 503, detail: 'Coba lagi' },
      },
    },
  );
}

function renderAdmin(path: string) {
  return renderAt(
    path,
    <Route path="/admin" nest>
      <AdminArea />
    </Route>,
    // As the app: a failed load is a snackbar, unless the screen says otherwise.
    { swr: { onError: (error) => notify.problem(error) } },
  );
}

afterEach(cleanUp);

describe('the /admin guard', () => {
  it('the administrator opens Surel Gagal Terkirim from its menu entry, with the bell in the top bar', async () => {
    const calls = fakeAdminGateway(userOfType(1));
    renderAdmin(DEAD_LETTERS_PATH);
    await screen.findByRole('heading', { name: 'Surel Gagal Terkirim' });
    await screen.findByRole('button', { name: 'Notifikasi, 2 belum dibaca' });
    expect(screen.getByRole('link', { name: 'Surel Gagal Terkirim' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(calls.map((c) => c.path)).toContain('/mail/dead-letters');
  });

  it('a company admin reaches Notifikasi but not Surel Gagal Terkirim', async () => {
    fakeAdminGateway(userOfType(2));
    const location = renderAdmin(DEAD_LETTERS_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/dashboard'));
    cleanup();
    const second = renderAdmin(NOTICE_PREFERENCES_PATH);
    await screen.findByRole('form', { name: 'Notifikasi' });
    expect(second.history).toEqual([NOTICE_PREFERENCES_PATH]);
  });

  it('a reporter has no bell and is sent from Notifikasi to its cases', async () => {
    const calls = fakeAdminGateway(userOfType(6));
    const location = renderAdmin(NOTICE_PREFERENCES_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/case'));
    await screen.findByRole('heading', { name: 'Laporan' });
    expect(screen.queryByRole('button', { name: /^Notifikasi/ })).toBeNull();
    expect(calls.map((c) => c.path)).not.toContain('/notices');
    expect(calls.map((c) => c.path)).not.toContain('/notice-preferences');
  });

  it('Peta Laporan and Statistik open for the administrator, who still has no dashboard', async () => {
    fakeAdminGateway(userOfType(1));
    const maps = renderAdmin(INSIGHT_PATHS.maps);
    await screen.findByRole('heading', { level: 1, name: 'Peta Laporan' });
    expect(maps.history).toEqual([INSIGHT_PATHS.maps]);
    cleanup();
    renderAdmin(INSIGHT_PATHS.statistics);
    await screen.findByRole('heading', { level: 1, name: 'Statistik' });
    cleanup();
    const dashboard = renderAdmin('/admin/dashboard');
    await waitFor(() => expect(dashboard.history.at(-1)).toBe('/admin/partner'));
  });

  it('a company admin opens Peta Laporan; a reporter is sent from both screens to its cases', async () => {
    fakeAdminGateway(userOfType(2));
    renderAdmin(INSIGHT_PATHS.maps);
    await screen.findByRole('heading', { level: 1, name: 'Peta Laporan' });
    expect(screen.getByRole('link', { name: 'Peta Laporan' }).getAttribute('aria-current')).toBe('page');
    cleanup();
    fakeAdminGateway(userOfType(6));
    for (const path of Object.values(INSIGHT_PATHS)) {
      const location = renderAdmin(path);
      await waitFor(() => expect(location.history.at(-1)).toBe('/admin/case'));
      cleanup();
    }
  });

  it('a guest is sent to sign in', async () => {
    fakeAdminGateway(null);
    const location = renderAdmin(NOTICE_PREFERENCES_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'));
  });
});

describe("the administrator's landing warning of overdue disposals", () => {
  afterEach(() => {
    summary = { status: 200, body: { waiting: 0, overdue: 0 } };
  });

  it('shows the overdue count on the landing screen with a link to Register Pemusnahan', async () => {
    summary = { status: 200, body: { waiting: 4, overdue: 3 } };
    const calls = fakeAdminGateway(userOfType(1));
    const location = renderAdmin('/admin/partner');
    const warning = await screen.findByText('3 laporan melewati masa retensi dan belum ditandai dimusnahkan');
    expect(warning).toBeTruthy();
    screen.getByRole('link', { name: 'Buka Register Pemusnahan' }).click();
    await waitFor(() => expect(location.history.at(-1)).toBe(RETENTION_PATHS.register));
    await screen.findByRole('heading', { name: 'Register Pemusnahan' });
    // Only the landing screen warns.
    expect(screen.queryByText(/melewati masa retensi/)).toBeNull();
    expect(calls.filter((c) => c.path === '/disposals/summary')).toHaveLength(1);
  });

  it('no warning while nothing is overdue, nor when the count cannot be read (and no snackbar)', async () => {
    summary = { status: 200, body: { waiting: 2, overdue: 0 } };
    const calls = fakeAdminGateway(userOfType(1));
    renderAdmin('/admin/partner');
    await waitFor(() => expect(calls.some((c) => c.path === '/disposals/summary')).toBe(true));
    await screen.findByRole('heading', { name: 'Partner' });
    expect(screen.queryByText(/melewati masa retensi/)).toBeNull();
    cleanup();

    summary = { status: 503, body: { type: 'x/busy', title: 'Layanan sedang sibuk', status: 503 } };
    const failing = fakeAdminGateway(userOfType(1));
    renderAdmin('/admin/partner');
    await waitFor(() => expect(failing.some((c) => c.path === '/disposals/summary')).toBe(true));
    await screen.findByRole('heading', { name: 'Partner' });
    expect(screen.queryByText(/melewati masa retensi/)).toBeNull();
    expect(notify.problem).not.toHaveBeenCalled();
  });

  it('other types are never asked for it, and are sent away from the retention screens', async () => {
    summary = { status: 200, body: { waiting: 4, overdue: 3 } };
    const calls = fakeAdminGateway(userOfType(2));
    const location = renderAdmin(RETENTION_PATHS.register);
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/dashboard'));
    expect(calls.map((c) => c.path)).not.toContain('/disposals/summary');
    expect(calls.map((c) => c.path).some((p) => p.startsWith('/disposals'))).toBe(false);
    expect(screen.queryByText(/melewati masa retensi/)).toBeNull();
  });
});
