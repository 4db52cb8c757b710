/**
 * Steps the master-screen journeys share (Partner, Perusahaan, Analis, Staff, Kategori Laporan): the
 * form of a mode, View being read-only, Ubah opening Edit without a dialog, the initial password shown
 * once after a creation, and a new account's first sign-in through the forced password change.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signIn, snackbar } from './support.ts';

/** The form of a master screen, by its title (Partner Baru, Lihat Staff, Edit Analis…). */
export function masterForm(page: Page, title: string): Locator {
  return page.getByRole('form', { name: title, exact: true });
}

/** The table row showing `text`. */
export function row(page: Page, text: string): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

/** Opens the confirm dialog's action (Simpan, Hapus, Oke) after checking its title and message. */
export async function confirmDialog(page: Page, title: string, message: string, action: string) {
  // By its title: the dialog that follows a creation (the initial password) is an alertdialog too.
  const dialog = page.getByRole('alertdialog').filter({ hasText: message });
  await dialog.getByText(title, { exact: true }).waitFor();
  await dialog.getByText(message, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Nothing in a View form can change: every input read-only, every select disabled, no Simpan. */
export async function expectReadOnly(form: Locator): Promise<void> {
  const inputs = form.locator('fieldset input');
  const selects = form.locator('fieldset select');
  expect(await inputs.count()).toBeGreaterThan(0);
  for (const input of await inputs.all()) expect(await input.isEditable()).toBe(false);
  for (const select of await selects.all()) {
    expect(await select.isDisabled()).toBe(true);
    const before = await select.inputValue();
    // A forced change must not get through either.
    await select.selectOption({ index: 0 }, { force: true, timeout: 1_000 }).catch(() => undefined);
    expect(await select.inputValue()).toBe(before);
  }
  expect(await form.getByRole('button', { name: 'Simpan', exact: true }).count()).toBe(0);
}

/** The fields fixed after creation are read-only in Edit; the others can be edited. */
export async function expectLocked(form: Locator, locked: string[], editable: string[]) {
  for (const label of locked) expect(await form.getByLabel(label, { exact: true }).isEditable()).toBe(false);
  for (const label of editable) expect(await form.getByLabel(label, { exact: true }).isEditable()).toBe(true);
}

/**
 * Ubah on a View form, by mouse, Enter or Space, opens the Edit form and nothing else: no save
 * confirmation (it used to open at once), nothing saved.
 */
export async function pressUbah(
  page: Page,
  view: Locator,
  how: 'mouse' | 'Enter' | 'Space',
  editTitle: string,
) {
  const ubah = view.getByRole('button', { name: 'Ubah', exact: true });
  if (how === 'mouse') await ubah.click();
  else {
    await ubah.focus();
    await page.keyboard.press(how);
  }
  await masterForm(page, editTitle).waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  return masterForm(page, editTitle);
}

/** Fills text fields by label. */
export async function fill(form: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values))
    await form.getByLabel(label, { exact: true }).fill(value);
}

/**
 * After a creation: the dialog with the account's initial password, copied with Salin; returns it.
 * Closing it leaves the list.
 */
export async function takeInitialPassword(page: Page, username: string): Promise<string> {
  const dialog = page.getByRole('alertdialog').filter({ hasText: 'Akun Berhasil Dibuat' });
  await dialog.waitFor();
  await dialog.getByText(username, { exact: true }).waitFor();
  const password = await dialog.getByLabel('Password awal').inputValue();
  expect(password.length).toBeGreaterThanOrEqual(8);
  await dialog.getByRole('button', { name: 'Salin', exact: true }).click();
  await snackbar(page, 'Password berhasil disalin').first().waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await dialog.getByRole('button', { name: 'Tutup', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return password;
}

/**
 * A new account's first sign-in: the initial password leads to /user/changepassword, the change signs
 * it in (spec section 4) and the session is open.
 */
export async function firstSignIn(
  page: Page,
  username: string,
  initialPassword: string,
  newPassword: string,
) {
  await signIn(page, username, initialPassword);
  await page.waitForURL('**/user/changepassword');
  // No session yet: only the single-use change ticket (a signed-out probe is 200 naming nobody).
  const probe = await page.request.get('/api/v1/session');
  expect(probe.status()).toBe(200);
  expect((await probe.json()).user).toBeNull();
  const main = page.getByRole('main');
  await main.getByLabel('Kata sandi lama').fill(initialPassword);
  await main.getByLabel('Kata sandi baru', { exact: true }).fill(newPassword);
  await main.getByLabel('Konfirmasi kata sandi baru').fill(newPassword);
  await main.getByRole('button', { name: 'Simpan' }).click();
  await page.waitForURL((url) => url.pathname !== '/user/changepassword');
  const session = await page.request.get('/api/v1/session');
  expect(session.status()).toBe(200);
  expect((await session.json()).user.username).toBe(username);
}

/** Opens a menu entry of the side menu. */
export async function openMenu(page: Page, label: string, path: string) {
  await page
    .getByRole('navigation', { name: 'Menu samping' })
    .getByRole('link', { name: label, exact: true })
    .click();
  await page.waitForURL(`**${path}`);
}

export type StaffScreen = {
  /** Side-menu entry and path. */
  menu: string;
  path: string;
  add: string;
  titles: { add: string; view: string; edit: string };
  saved: string;
  changed: string;
  removed: string;
  remove: { title: string; message: string };
  /** Analysts: a Jalur Otorisasi to pick. */
  line?: string;
  /** Fields locked in Edit besides Username and Alamat Email (partner staff: Nama Lengkap). */
  lockedInEdit: string[];
  /** Where Reset Password is offered once the initial password was changed. */
  resetIn: 'view' | 'edit';
};

/**
 * A staff screen (Analis of a company admin, Analis/Staff of a partner) end to end: Tambah with the
 * initial password shown once, Lihat read-only with Ubah by mouse / Enter / Space, Edit with its locked
 * fields and Akses Level, the new account's first sign-in, Reset Password, Hapus.
 */
export async function walkStaffScreen(
  page: Page,
  screen: StaffScreen,
  person: { fullName: string; username: string },
  openSecondActor: (name: string) => Promise<{ page: Page; expectClean: () => void }>,
) {
  await openMenu(page, screen.menu, screen.path);
  await page.getByRole('button', { name: screen.add, exact: true }).click();
  const add = masterForm(page, screen.titles.add);
  await add.getByRole('button', { name: 'Simpan', exact: true }).click();
  await add.getByText('Nama Lengkap wajib diisi', { exact: true }).waitFor();
  await add.getByText('Email wajib diisi', { exact: true }).waitFor();
  await fill(add, {
    'Nama Lengkap': person.fullName,
    'Alamat Email': `${person.username}@wbs.example.id`,
    Username: person.username,
  });
  expect(await add.getByLabel('Akses Level', { exact: true }).inputValue()).toBe('2');
  if (screen.line)
    await add.getByLabel('Jalur Otorisasi', { exact: true }).selectOption({ label: screen.line });
  await add.getByRole('button', { name: 'Simpan', exact: true }).click();
  await confirmDialog(page, 'Simpan Staff', 'Anda yakin ingin menyimpan staff ini ?', 'Simpan');
  await snackbar(page, screen.saved).first().waitFor();
  const password = await takeInitialPassword(page, person.username);

  // Lihat: read-only, with the initial password while it is unchanged (copyable).
  await row(page, person.fullName).getByRole('button', { name: 'Lihat', exact: true }).click();
  const view = masterForm(page, screen.titles.view);
  await view.waitFor();
  await expectReadOnly(view);
  expect(await view.getByLabel('Password', { exact: true }).inputValue()).toBe(password);
  for (const how of ['mouse', 'Enter', 'Space'] as const) {
    const edit = await pressUbah(page, masterForm(page, screen.titles.view), how, screen.titles.edit);
    const locked = ['Username', 'Alamat Email', ...screen.lockedInEdit];
    const editable = ['Nama Lengkap'].filter((label) => !locked.includes(label));
    await expectLocked(edit, locked, editable);
    await edit.getByRole('button', { name: 'Kembali', exact: true }).click();
    await row(page, person.fullName).getByRole('button', { name: 'Lihat', exact: true }).click();
    await masterForm(page, screen.titles.view).waitFor();
  }
  await masterForm(page, screen.titles.view).getByRole('button', { name: 'Kembali', exact: true }).click();

  // Edit: Akses Level Supervisor, saved through the confirmation.
  await row(page, person.fullName).getByRole('button', { name: 'Ubah', exact: true }).click();
  const edit = masterForm(page, screen.titles.edit);
  await edit.getByLabel('Akses Level', { exact: true }).selectOption({ label: 'Supervisor' });
  await edit.getByRole('button', { name: 'Simpan', exact: true }).click();
  await confirmDialog(page, 'Simpan Staff', 'Anda yakin ingin menyimpan staff ini ?', 'Simpan');
  await snackbar(page, screen.changed).first().waitFor();

  // The new account signs in with the password shown at creation.
  const owner = await openSecondActor(person.username);
  await firstSignIn(owner.page, person.username, password, `Staff#${person.username}9`);
  owner.expectClean();

  // Reset Password, now that the initial password was changed: the detail shows a new one.
  await page.reload();
  await row(page, person.fullName)
    .getByRole('button', { name: screen.resetIn === 'view' ? 'Lihat' : 'Ubah', exact: true })
    .click();
  const form = masterForm(page, screen.resetIn === 'view' ? screen.titles.view : screen.titles.edit);
  await form.waitFor();
  expect(await form.getByLabel('Password', { exact: true }).count()).toBe(0);
  await form.getByRole('button', { name: 'Reset Password', exact: true }).click();
  await confirmDialog(page, 'Reset Password', 'Anda yakin ingin mereset password pengguna ini ?', 'Oke');
  await snackbar(page, 'Kata sandi berhasil direset').first().waitFor();
  const reset = await form.getByLabel('Password', { exact: true }).inputValue();
  expect(reset.length).toBeGreaterThanOrEqual(8);
  expect(reset).not.toBe(password);
  await form.getByRole('button', { name: 'Kembali', exact: true }).click();

  await row(page, person.fullName).getByRole('button', { name: 'Hapus', exact: true }).click();
  await confirmDialog(page, screen.remove.title, screen.remove.message, 'Hapus');
  await snackbar(page, screen.removed).first().waitFor();
  await row(page, person.fullName).waitFor({ state: 'detached' });
}
