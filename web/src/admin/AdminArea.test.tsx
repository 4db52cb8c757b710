/**
 * Who reaches the bell, Notifikasi and Surel Gagal Terkirim. The menus and routes follow the
 * permission matrix for every user type and role (staff types 1–5: notices; type 1 alone: failed
 * mails), and the /admin guard sends everyone else to their own landing screen, a guest to sign-in.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import {
  ADMIN_ROUTES,
  can,
  NOTICE_PREFERENCES_PATH,
  sideMenu,
  topBarMenu,
  USER_TYPE_IDS,
  USER_TYPE_NAMES,
} from '@wbs/shared';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { User } from '../api/types.ts';
import { system } from '../theme.ts';
import { ConfirmProvider } from '../ui/ConfirmDialog.tsx';
import { LoadingProvider } from '../ui/LoadingOverlay.tsx';
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
function fakeGateway(user: User | null) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      paths.push(url.pathname);
      const json = (body: unknown) => Response.json(body);
      if (url.pathname === '/api/v1/session') return json({ user, passwordChangeRequired: false });
      if (url.pathname === '/api/v1/notices') return json({ items: [], unread: 2, more: false });
      if (url.pathname === '/api/v1/mail/dead-letters') return json({ items: [] });
      if (url.pathname === '/api/v1/notice-preferences') return json({ items: [], hasEmail: true });
      // Screens outside this test (dashboard, case list) get a refusal: they show their own failure.
      return Response.json(
        { type: 'x/busy', title: 'Layanan sedang sibuk', status: 503, detail: 'Coba lagi' },
        { status: 503, headers: { 'content-type': 'application/problem+json' } },
      );
    }),
  );
  return paths;
}

function renderAdmin(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <LoadingProvider>
          <ConfirmProvider>
            <Router hook={location.hook}>
              <Route path="/admin" nest>
                <AdminArea />
              </Route>
            </Router>
          </ConfirmProvider>
        </LoadingProvider>
      </SWRConfig>
    </ChakraProvider>,
  );
  return location;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the /admin guard', () => {
  it('the administrator opens Surel Gagal Terkirim from its menu entry, with the bell in the top bar', async () => {
    const paths = fakeGateway(userOfType(1));
    renderAdmin(DEAD_LETTERS_PATH);
    await screen.findByRole('heading', { name: 'Surel Gagal Terkirim' });
    await screen.findByRole('button', { name: 'Notifikasi, 2 belum dibaca' });
    expect(screen.getByRole('link', { name: 'Surel Gagal Terkirim' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(paths).toContain('/api/v1/mail/dead-letters');
  });

  it('a company admin reaches Notifikasi but not Surel Gagal Terkirim', async () => {
    fakeGateway(userOfType(2));
    const location = renderAdmin(DEAD_LETTERS_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/dashboard'));
    cleanup();
    const second = renderAdmin(NOTICE_PREFERENCES_PATH);
    await screen.findByRole('form', { name: 'Notifikasi' });
    expect(second.history).toEqual([NOTICE_PREFERENCES_PATH]);
  });

  it('a reporter has no bell and is sent from Notifikasi to its cases', async () => {
    const paths = fakeGateway(userOfType(6));
    const location = renderAdmin(NOTICE_PREFERENCES_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/admin/case'));
    await screen.findByRole('heading', { name: 'Laporan' });
    expect(screen.queryByRole('button', { name: /^Notifikasi/ })).toBeNull();
    expect(paths).not.toContain('/api/v1/notices');
    expect(paths).not.toContain('/api/v1/notice-preferences');
  });

  it('a guest is sent to sign in', async () => {
    fakeGateway(null);
    const location = renderAdmin(NOTICE_PREFERENCES_PATH);
    await waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'));
  });
});
