/**
 * Journey: the app shell per user type (spec §2, §4, §8). Every type signs in (success message
 * 'Login berhasil'), lands on its target, reaches each screen of its side menu, is sent back from a
 * route of another type, and sees "Buat Laporan" only where the Laporkan rule leads to the wizard.
 * A session that ends under a signed-in user (signed out elsewhere) shows 'Proses Logout' and the
 * message once. A signed-out visit logs no failed request (the session probe answers 200).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, signIn, snackbar, useJourney } from './support.ts';

const journey = useJourney('shell-routes');

type Case = {
  username: string;
  password: string;
  type: number;
  target: string;
  menu: { label: string; path: string }[];
  forbidden: string;
  canFile: boolean;
};

const REPORTS = { label: 'Laporan', path: '/admin/case' };
const DASHBOARD = { label: 'Dashboard', path: '/admin/dashboard' };

const CASES: Case[] = [
  {
    username: 'admin',
    password: 'Admin#2026!',
    type: 1,
    target: '/admin/partner',
    menu: [
      { label: 'Partner', path: '/admin/partner' },
      { label: 'Perusahaan', path: '/admin/company' },
      { label: 'Status Laporan', path: '/admin/statuscase' },
    ],
    forbidden: '/admin/supportagent',
    canFile: false,
  },
  {
    username: 'admin.kahuripan',
    password: 'Perusahaan#2026!',
    type: 2,
    target: '/admin/dashboard',
    menu: [
      DASHBOARD,
      { label: 'Analis', path: '/admin/supportagent' },
      { label: 'Kategori Laporan', path: '/admin/categorycase' },
      REPORTS,
    ],
    forbidden: '/admin/partner',
    canFile: true,
  },
  {
    username: 'holding',
    password: 'Partner#2026!',
    type: 3,
    target: '/admin/dashboard',
    menu: [DASHBOARD, { label: 'Analis', path: '/admin/partnerstaff' }, REPORTS],
    forbidden: '/admin/categorycase',
    canFile: true,
  },
  {
    username: 'analis.direksi',
    password: 'Analis#2026!',
    type: 4,
    target: '/admin/dashboard',
    menu: [DASHBOARD, REPORTS],
    forbidden: '/admin/partnerstaff',
    canFile: true, // role 1
  },
  {
    username: 'analis.spi',
    password: 'Analis#2026!',
    type: 4,
    target: '/admin/dashboard',
    menu: [DASHBOARD, REPORTS],
    forbidden: '/admin/company',
    canFile: false, // role 2
  },
  {
    username: 'staff.holding',
    password: 'Staff#2026!',
    type: 5,
    target: '/admin/dashboard',
    menu: [DASHBOARD, REPORTS],
    forbidden: '/admin/profile',
    canFile: true, // role 1
  },
  {
    username: 'pelapor',
    password: 'Pelapor#2026!',
    type: 6,
    target: '/admin/case',
    menu: [REPORTS],
    forbidden: '/admin/dashboard',
    canFile: false,
  },
];

const path = (page: Page) => new URL(page.url()).pathname;
const header = (page: Page) => page.getByRole('navigation', { name: 'Navigasi utama' });
const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Menu samping' });

describe('the shell per user type', () => {
  it('a guest sees Buat Laporan leading to the wizard, and the page load logs no failed request', async () => {
    const guest = await journey.actor('guest');
    const { page } = guest;
    await page.goto('/');
    const probe = await page.request.get('/api/v1/session');
    expect(probe.status()).toBe(200);
    expect(await probe.json()).toEqual({ user: null, passwordChangeRequired: false, secondFactor: null });
    const file = header(page).getByRole('link', { name: 'Buat Laporan', exact: true });
    await file.waitFor();
    await file.click();
    await page.waitForURL('**/case/create');
    // A guest opening /admin goes to the sign-in screen.
    await page.goto('/admin/case');
    await page.waitForURL('**/auth/login');
    guest.expectClean();
  });

  for (const c of CASES) {
    it(`type ${c.type} (${c.username}): success message, target, menu screens, guards, Buat Laporan`, async () => {
      const actor = await journey.actor(c.username);
      const { page } = actor;
      await signIn(page, c.username, c.password);
      await snackbar(page, 'Login berhasil').waitFor();
      await page.waitForURL((url) => url.pathname === c.target);

      for (const item of c.menu) {
        await sideMenu(page).getByRole('link', { name: item.label, exact: true }).click();
        await page.waitForURL((url) => url.pathname === item.path);
        await page.getByRole('main').getByRole('heading').first().waitFor();
        expect(path(page)).toBe(item.path);
      }

      // A route of another user type sends the user back to its own target.
      await page.goto(c.forbidden);
      await page.waitForURL((url) => url.pathname === c.target);

      await page.goto('/');
      await header(page).getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
      const file = header(page).getByRole('link', { name: 'Buat Laporan', exact: true });
      expect(await file.count()).toBe(c.canFile ? 1 : 0);
      if (c.canFile) {
        await file.click();
        await page.waitForURL('**/case/create');
      }
      actor.expectClean();
    });
  }
});

describe('the top bar after a profile save', () => {
  it('reads the name from the session data: a revalidation shows the new name without signing in again', async () => {
    const actor = await journey.actor('pelapor-profile');
    const { page } = actor;
    await signIn(page, 'pelapor', 'Pelapor#2026!');
    await page.waitForURL('**/admin/case');
    await page.goto('/admin/profile');
    const main = page.getByRole('main');
    const name = main.getByLabel('Nama Pengguna');
    await name.waitFor();
    const original = await name.inputValue();
    const renamed = 'Pelapor Berganti Nama';
    await name.fill(renamed);
    await main.getByRole('button', { name: 'Simpan', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Simpan Profil' })
      .getByRole('button', { name: 'Simpan', exact: true })
      .click();
    await snackbar(page, /berhasil/i)
      .first()
      .waitFor();
    // A revalidation of the session (here: a reload, as any GET /session) carries the new name.
    await page.reload();
    await page.getByRole('banner').getByText(renamed, { exact: true }).waitFor();
    // Put the seed name back for the other journeys.
    await name.fill(original);
    await main.getByRole('button', { name: 'Simpan', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Simpan Profil' })
      .getByRole('button', { name: 'Simpan', exact: true })
      .click();
    await snackbar(page, /berhasil/i)
      .first()
      .waitFor();
    await page.reload();
    await page.getByRole('banner').getByText(original, { exact: true }).waitFor();
    actor.expectClean();
  });
});

describe('a session that ends under the user', () => {
  it("shows 'Proses Logout' while signing out and 'Sesi Anda telah berakhir' once", async () => {
    const actor = await journey.actor('ended-session');
    const { page } = actor;
    // The calls refused after the session ended are expected 401s.
    actor.allowHttpError(401, /^\/api\/v1\//, 'calls made after the session ended elsewhere');
    await signIn(page, 'admin.pakuan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');

    await page.getByRole('main').getByRole('heading').first().waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { seenOverlay: boolean };
      w.seenOverlay = false;
      new MutationObserver(() => {
        if (document.body.textContent?.includes('Proses Logout')) w.seenOverlay = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // Signed out elsewhere (another tab): the gateway ends the session; this tab still shows the app.
    const out = await page.request.delete('/api/v1/session', { headers: { origin: baseUrl } });
    expect(out.status()).toBe(204);
    expect(out.headers()['clear-site-data']).toBe('"cache", "cookies"');
    // The user opens the case list: its calls are refused (or a revalidation of this screen was first).
    await sideMenu(page)
      .getByRole('link', { name: 'Laporan', exact: true })
      .click({ force: true, timeout: 3_000 })
      .catch(() => undefined);
    await snackbar(page, /Sesi Anda telah berakhir/)
      .first()
      .waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => (window as unknown as { seenOverlay: boolean }).seenOverlay)).toBe(true);
    // Every refused call of that screen together: one message, and no other error snackbar.
    await page.waitForTimeout(1_500);
    expect(await snackbar(page, /Sesi Anda telah berakhir/).count()).toBe(1);
    expect(await snackbar(page, /Unauthorized|Data yang dikirim/).count()).toBe(0);
    await header(page).getByRole('link', { name: 'Masuk', exact: true }).waitFor();
    actor.expectClean();
  });
});
