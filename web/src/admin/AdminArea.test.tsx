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
  NOTICE_PREFERENCES_PATH,
  sideMenu,
  topBarMenu,
  USER_TYPE_IDS,
  USER_TYPE_NAMES,
} from '@wbs/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { User } from '../api/types.ts';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderAt } from '../test/render.tsx';
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

const userOfType = (userTypeId: 1 | 2 | 6): User => ({
  id: 9,
  username: `user.${userTypeId}`,
  email: null,
  displayName: `Pengguna ${userTypeId}`,
  userTypeId,
  userTypeName: USER_TYPE_NAMES[userTypeId],
  role: 1,
  partnerId: null,
  companyId: userTypeId === 2 ? 1 : null,
  caseLineId: null,
  whistleblowerId: userTypeId === 6 ? 5 : null,
  staffId: null,
});

/** A gateway with one signed-in user (or none) that knows the screens' first reads. */
function fakeAdminGateway(user: User | null) {
  return fakeGateway(
    {
      'GET /session': ok({ user, passwordChangeRequired: false }),
      'GET /notices': ok({ items: [], unread: 2, more: false }),
      'GET /mail/dead-letters': ok({ items: [] }),
      'GET /notice-preferences': ok({ items: [], hasEmail: true }),
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

  it('a guest is sent to sign in', async () => {
    fakeAdminGateway(null);
    const location = renderAdmin(NOTICE_PREFERENCES_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'));
  });
});
