/**
 * The second factor in the whole app over a fake gateway: a session waiting for its factor sees only
 * Verifikasi Dua Langkah (a wrong code refused beside the field, too many tries with the wait, the
 * right one back to the page it interrupted), a passkey or a recovery code instead, Batal signs out;
 * a session that must enrol adds an authenticator app or a passkey and keeps its recovery codes
 * before going on; a 401 `step-up-required` of any call opens Verifikasi Ulang and the call goes on,
 * or fails quietly when declined; a 401 `second-factor-required` shows the pending step; a step
 * closed after too many wrong codes says so and leads to a new sign-in.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { memoryLocation } from 'wouter/memory-location';
import { App } from '../App.tsx';
import { ApiError, api } from '../api/client.ts';
import { fakeGateway as fakeGatewayOf, type Reply, type Routes } from '../test/fakeGateway.ts';
import { cleanUp, findPage, renderAt } from '../test/render.tsx';
import { ConfirmProvider } from '../ui/ConfirmDialog.tsx';
import { LoadingProvider } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { info: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn(), warning: vi.fn() },
  Toaster: () => null,
}));
const saved: { blob: Blob; name: string }[] = [];
vi.mock('../ui/saveFile.ts', () => ({
  saveFile: (blob: Blob, name: string) => saved.push({ blob, name }),
}));
const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const ADMIN = {
  id: 1,
  username: 'admin.wbs',
  email: null,
  displayName: 'Administrator',
  userTypeId: 1,
  userTypeName: 'Administrator',
  role: 1,
  partnerId: null,
  companyId: null,
  caseLineId: null,
  whistleblowerId: null,
  staffId: null,
};

type Status = 'verify' | 'enrol' | 'done';
type Method = 'totp' | 'passkey';
const stateOf = (status: Status, methods: Method[], stepUpUntil: string | null = null) => ({
  status,
  required: true,
  methods,
  recoveryCodesLeft: methods.length ? 10 : 0,
  stepUpUntil,
});

const CODES = [
  'abcde-fghij',
  'bcdef-ghijk',
  'cdefg-hijkl',
  'defgh-ijklm',
  'efghi-jklmn',
  'fghij-klmno',
  'ghijk-lmnop',
  'hijkl-mnopq',
  'ijklm-nopqr',
  'jklmn-opqrs',
];

const problem = (status: number, type: string, detail: string): Reply => ({
  status,
  body: { type: `https://wbs.example/problems/${type}`, title: detail, status, detail },
});

/** A gateway with one session (its state changes as the routes say) and the screens' first reads. */
function fakeGateway(session: { status: Status | null; methods: Method[] }, routes: Routes) {
  return fakeGatewayOf(routes, {
    otherwise: (key) => {
      if (key === 'GET /session') {
        return {
          status: 200,
          body: session.status
            ? {
                user: ADMIN,
                passwordChangeRequired: false,
                secondFactor: stateOf(session.status, session.methods),
              }
            : { user: null, passwordChangeRequired: false, secondFactor: null },
        };
      }
      if (key === 'DELETE /session') {
        session.status = null;
        return { status: 204 };
      }
      if (/^GET \/(partners|companies)\?/.test(key)) {
        return { status: 200, body: { items: [], total: 0, page: 1, pageSize: 10 } };
      }
      return problem(404, 'not-found', 'Data Tidak Ditemukan');
    },
  });
}

type Parts = {
  App: typeof App;
  LoadingProvider: typeof LoadingProvider;
  ConfirmProvider: typeof ConfirmProvider;
};

function renderApp(path: string, parts: Parts = { App, LoadingProvider, ConfirmProvider }) {
  return renderAt(path, <parts.App />, { loading: parts.LoadingProvider, confirm: parts.ConfirmProvider });
}

const here = (location: ReturnType<typeof memoryLocation>) => location.history?.at(-1);

beforeEach(() => {
  sessionStorage.clear();
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});

afterEach(() => {
  cleanUp();
  saved.length = 0;
});

describe('Verifikasi Dua Langkah', () => {
  it('is the only screen of a session at the verify step; a refused code is told beside the field', async () => {
    const session = { status: 'verify' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'POST /session/second-factor': (body: { code: string }) => {
        if (body.code === '000000')
          return problem(400, 'second-factor-failed', 'Kode atau passkey tidak valid');
        if (body.code === '111111') return problem(429, 'rate-limited', 'Coba lagi dalam 30 detik');
        session.status = 'done';
        return { status: 200, body: { secondFactor: stateOf('done', ['totp'], '2026-11-26T20:10:00') } };
      },
    });
    const location = renderApp('/admin/company');
    await findPage('Verifikasi Dua Langkah');
    expect(here(location)).toBe('/auth/verifikasi');
    // No passkey on this account: no passkey button.
    expect(screen.queryByRole('button', { name: 'Gunakan passkey' })).toBeNull();
    const field = screen.getByLabelText('Kode autentikator') as HTMLInputElement;
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');

    fireEvent.change(field, { target: { value: '12ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect(await screen.findByText('Kode terdiri dari 6 angka')).toBeTruthy();
    expect(calls.some((c) => c.path === '/session/second-factor')).toBe(false);

    fireEvent.change(field, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect(await screen.findByText('Kode atau passkey tidak valid')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Kode autentikator'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect(await screen.findByText('Coba lagi dalam 30 detik')).toBeTruthy();
    expect(notify.problem).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Kode autentikator'), { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    // Back to the page the step interrupted.
    await findPage('Perusahaan');
    expect(here(location)).toBe('/admin/company');
    expect(calls.filter((c) => c.path === '/session/second-factor').at(-1)?.body).toEqual({
      method: 'totp',
      code: '123456',
    });
    expect(notify.success).toHaveBeenCalledWith('Login berhasil');
  });

  it('a passkey instead of a code, for an account with one', async () => {
    const session = { status: 'verify' as Status | null, methods: ['passkey'] as Method[] };
    const assertion = {
      id: 'cred-1',
      rawId: 'cred-1',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
      clientExtensionResults: {},
    };
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const calls = fakeGateway(session, {
      'POST /session/second-factor/challenge': () => ({
        status: 200,
        body: { options: { challenge: 'c2FsdA', rpId: 'localhost' } },
      }),
      'POST /session/second-factor': () => {
        session.status = 'done';
        return { status: 200, body: { secondFactor: stateOf('done', ['passkey']) } };
      },
    });
    const location = renderApp('/auth/login');
    await findPage('Verifikasi Dua Langkah');
    // A passkey-only account is not asked for an authenticator code.
    expect(screen.queryByLabelText('Kode autentikator')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Gunakan passkey' }));
    await findPage('Partner');
    expect(here(location)).toBe('/admin/partner');
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'c2FsdA', rpId: 'localhost' },
    });
    expect(calls.find((c) => c.path === '/session/second-factor')?.body).toEqual({
      method: 'passkey',
      response: assertion,
    });
  });

  it('a cancelled passkey says so and leaves the codes', async () => {
    const session = { status: 'verify' as Status | null, methods: ['totp', 'passkey'] as Method[] };
    webauthn.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    fakeGateway(session, {
      'POST /session/second-factor/challenge': () => ({ status: 200, body: { options: { challenge: 'x' } } }),
    });
    renderApp('/auth/verifikasi');
    fireEvent.click(await screen.findByRole('button', { name: 'Gunakan passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Passkey dibatalkan atau waktu habis. Silakan coba lagi.',
    );
    expect(screen.getByLabelText('Kode autentikator')).toBeTruthy();
  });

  it('a recovery code instead, and Batal signs out', async () => {
    const session = { status: 'verify' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'POST /session/second-factor': () =>
        problem(400, 'second-factor-failed', 'Kode atau passkey tidak valid'),
    });
    const location = renderApp('/auth/verifikasi');
    fireEvent.click(await screen.findByRole('button', { name: 'Gunakan kode pemulihan' }));
    const field = await screen.findByLabelText('Kode pemulihan');
    expect(screen.queryByLabelText('Kode autentikator')).toBeNull();
    fireEvent.change(field, { target: { value: ' ABCDE-fghij ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect(await screen.findByText('Kode atau passkey tidak valid')).toBeTruthy();
    expect(calls.find((c) => c.path === '/session/second-factor')?.body).toEqual({
      method: 'recovery',
      code: 'abcdefghij',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Gunakan kode autentikator' }));
    await screen.findByLabelText('Kode autentikator');

    fireEvent.click(screen.getByRole('button', { name: 'Batal' }));
    await findPage('Masuk');
    expect(here(location)).toBe('/auth/login');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/session')).toBe(true);
  });
});

describe('a step closed after too many wrong codes', () => {
  const LOCKED =
    'Terlalu banyak kode yang salah. Demi keamanan akun Anda, masuk lagi dengan kata sandi Anda, lalu gunakan kode pemulihan atau passkey';

  it('says so on Verifikasi Dua Langkah and offers to sign in again', async () => {
    const session = { status: 'verify' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'POST /session/second-factor': () => {
        session.status = null; // the gateway ended the session
        return problem(401, 'second-factor-locked', LOCKED);
      },
    });
    const location = renderApp('/auth/verifikasi');
    fireEvent.change(await screen.findByLabelText('Kode autentikator'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verifikasi' }));
    expect((await screen.findByRole('alert')).textContent).toBe(LOCKED);
    // Still this page, not signed out behind the user's back.
    expect(here(location)).toBe('/auth/verifikasi');
    expect(screen.queryByLabelText('Kode autentikator')).toBeNull();
    expect(notify.error).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Masuk Lagi' }));
    await findPage('Masuk');
    expect(here(location)).toBe('/auth/login');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/session')).toBe(true);
  });

  it('says so in Verifikasi Ulang; the action waiting for it fails quietly', async () => {
    const session = { status: 'done' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'POST /cases/5/contact-reveal': () =>
        problem(401, 'step-up-required', 'Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda'),
      'POST /session/second-factor': () => {
        session.status = null;
        return problem(401, 'second-factor-locked', LOCKED);
      },
    });
    const location = renderApp('/admin/partner');
    await findPage('Partner');
    const failure = api
      .POST('/api/v1/cases/{id}/contact-reveal', {
        params: { path: { id: '5' } },
        body: { reason: 'Perlu menghubungi pelapor untuk klarifikasi' },
      })
      .catch((e: unknown) => e);
    const dialog = await screen.findByRole('alertdialog', { name: 'Verifikasi Ulang' });
    fireEvent.change(within(dialog).getByLabelText('Kode autentikator'), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verifikasi' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(LOCKED);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Masuk Lagi' }));
    const error = (await act(() => failure)) as ApiError;
    expect(error.handled).toBe(true);
    await waitFor(() => expect(here(location)).toBe('/auth/login'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.filter((c) => c.path === '/cases/5/contact-reveal')).toHaveLength(1);
  });
});

describe('Aktifkan Verifikasi Dua Langkah', () => {
  it('an authenticator app: QR code and key, a code to confirm, then the recovery codes once', async () => {
    const session = { status: 'enrol' as Status | null, methods: [] as Method[] };
    const calls = fakeGateway(session, {
      'POST /account/second-factors/totp': () => ({
        status: 200,
        body: {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/WBS:admin.wbs?secret=JBSWY3DPEHPK3PXP',
          qrSvg:
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
        },
      }),
      'PUT /account/second-factors/totp': (body: { code: string }) => {
        if (body.code !== '123456')
          return problem(400, 'second-factor-failed', 'Kode atau passkey tidak valid');
        session.status = 'done';
        session.methods = ['totp'];
        return { status: 200, body: { secondFactor: stateOf('done', ['totp']), recoveryCodes: CODES } };
      },
    });
    const location = renderApp('/');
    await findPage('Aktifkan Verifikasi Dua Langkah');
    expect(here(location)).toBe('/auth/aktifkan-verifikasi');
    expect(screen.getByText(/dapat melihat data pelapor/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Aplikasi autentikator' }));
    const qr = (await screen.findByRole('img', {
      name: 'Kode QR untuk aplikasi autentikator',
    })) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(atob(qr.src.split(',')[1] ?? '')).toContain('<svg');
    expect((screen.getByLabelText('Kunci rahasia') as HTMLInputElement).value).toBe('JBSWY3DPEHPK3PXP');
    expect(calls.filter((c) => c.path === '/account/second-factors/totp')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Kode autentikator'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aktifkan' }));
    expect(await screen.findByText('Kode atau passkey tidak valid')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Kode autentikator'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aktifkan' }));

    await findPage('Kode Pemulihan');
    const list = screen.getByRole('list', { name: 'Daftar kode pemulihan' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    fireEvent.click(screen.getByRole('button', { name: 'Unduh' }));
    expect(saved[0]?.name).toBe('kode-pemulihan-wbs.txt');
    expect(await saved[0]?.blob.text()).toContain(CODES.join('\r\n'));
    const next = screen.getByRole('button', { name: 'Lanjutkan' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Saya sudah menyimpan kode pemulihan' }));
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    await findPage('Partner');
    expect(here(location)).toBe('/admin/partner');
  });

  it('a passkey: a name first, then the browser creates it', async () => {
    const session = { status: 'enrol' as Status | null, methods: [] as Method[] };
    const created = {
      id: 'cred-2',
      rawId: 'cred-2',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['internal'] },
      clientExtensionResults: {},
    };
    webauthn.startRegistration.mockResolvedValue(created);
    const calls = fakeGateway(session, {
      'POST /account/second-factors/passkeys/options': () => ({
        status: 200,
        body: { options: { challenge: 'y' } },
      }),
      'POST /account/second-factors/passkeys': () => {
        session.status = 'done';
        return { status: 201, body: { secondFactor: stateOf('done', ['passkey']), recoveryCodes: CODES } };
      },
    });
    renderApp('/auth/aktifkan-verifikasi');
    fireEvent.click(await screen.findByRole('button', { name: 'Passkey' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Daftarkan passkey' }));
    expect(await screen.findByText('Nama passkey harus diisi')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nama passkey'), { target: { value: ' Laptop kantor ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Daftarkan passkey' }));
    await findPage('Kode Pemulihan');
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'y' } });
    expect(calls.find((c) => c.path === '/account/second-factors/passkeys')?.body).toEqual({
      name: 'Laptop kantor',
      response: created,
    });
  });
});

describe('after a forced password change', () => {
  it('the new session adds its factor first, then goes to / as the change promises', async () => {
    const session = { status: null as Status | null, methods: [] as Method[] };
    sessionStorage.setItem('wbs.pwchange', '1');
    fakeGateway(session, {
      'GET /session': () => ({
        status: 200,
        body: session.status
          ? {
              user: ADMIN,
              passwordChangeRequired: false,
              secondFactor: stateOf(session.status, session.methods),
            }
          : { user: null, passwordChangeRequired: true, secondFactor: null },
      }),
      'PUT /password': () => {
        session.status = 'enrol';
        return {
          status: 200,
          body: { message: 'Kata sandi berhasil diubah', user: ADMIN, secondFactor: stateOf('enrol', []) },
        };
      },
      'POST /account/second-factors/totp': () => ({
        status: 200,
        body: { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/x', qrSvg: '<svg/>' },
      }),
      'PUT /account/second-factors/totp': () => {
        session.status = 'done';
        session.methods = ['totp'];
        return { status: 200, body: { secondFactor: stateOf('done', ['totp']), recoveryCodes: CODES } };
      },
    });
    // A fresh app: the one above remembers the user it showed last, and a signed-out start would read
    // as that session having ended. The change screen and its password rules load before the clock runs.
    vi.resetModules();
    const [fresh, loading, confirm] = await Promise.all([
      import('../App.tsx'),
      import('../ui/LoadingOverlay.tsx'),
      import('../ui/ConfirmDialog.tsx'),
      import('../pages/ChangePasswordPage.tsx'),
    ]);
    const location = renderApp('/user/changepassword', {
      App: fresh.App,
      LoadingProvider: loading.LoadingProvider,
      ConfirmProvider: confirm.ConfirmProvider,
    });
    await findPage('Ubah Kata Sandi');
    fireEvent.change(screen.getByLabelText('Kata sandi lama'), { target: { value: 'Awal#2026!' } });
    fireEvent.change(screen.getByLabelText('Kata sandi baru'), { target: { value: 'Analis#Baru2026' } });
    fireEvent.change(screen.getByLabelText('Konfirmasi kata sandi baru'), {
      target: { value: 'Analis#Baru2026' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Simpan' }));
    await findPage('Aktifkan Verifikasi Dua Langkah');
    expect(here(location)).toBe('/auth/aktifkan-verifikasi');
    fireEvent.click(screen.getByRole('button', { name: 'Aplikasi autentikator' }));
    fireEvent.change(await screen.findByLabelText('Kode autentikator'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aktifkan' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Saya sudah menyimpan kode pemulihan' }));
    const next = screen.getByRole('button', { name: 'Lanjutkan' }) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    await waitFor(() => expect(here(location)).toBe('/'));
  }, 20_000);
});

describe('step-up and the pending step from any call', () => {
  const reveal = () =>
    api.POST('/api/v1/cases/{id}/contact-reveal', {
      params: { path: { id: '5' } },
      body: { reason: 'Perlu menghubungi pelapor untuk klarifikasi' },
    });

  it('Verifikasi Ulang on a 401 step-up-required; the call then goes on as if nothing happened', async () => {
    const session = { status: 'done' as Status | null, methods: ['totp'] as Method[] };
    let recent = false;
    const calls = fakeGateway(session, {
      'POST /cases/5/contact-reveal': () =>
        recent
          ? { status: 200, body: { email: 'pelapor@example.com', phone: null } }
          : problem(401, 'step-up-required', 'Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda'),
      'POST /session/second-factor': () => {
        recent = true;
        return { status: 200, body: { secondFactor: stateOf('done', ['totp'], '2026-11-26T20:10:00') } };
      },
    });
    renderApp('/admin/partner');
    await findPage('Partner');
    let result: unknown;
    const pending = reveal().then((reply) => {
      result = reply;
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Verifikasi Ulang' });
    fireEvent.change(within(dialog).getByLabelText('Kode autentikator'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verifikasi' }));
    await act(() => pending);
    expect(result).toEqual({ email: 'pelapor@example.com', phone: null });
    expect(calls.filter((c) => c.path === '/cases/5/contact-reveal')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(notify.problem).not.toHaveBeenCalled();
  });

  it('Batal declines: the call fails quietly and is not sent again', async () => {
    const session = { status: 'done' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'POST /cases/5/contact-reveal': () =>
        problem(401, 'step-up-required', 'Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda'),
    });
    renderApp('/admin/partner');
    await findPage('Partner');
    const failure = reveal().catch((e: unknown) => e);
    const dialog = await screen.findByRole('alertdialog', { name: 'Verifikasi Ulang' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Batal' }));
    const error = (await act(() => failure)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.handled).toBe(true);
    expect(calls.filter((c) => c.path === '/cases/5/contact-reveal')).toHaveLength(1);
    // The session lives on.
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('a 401 second-factor-required shows the pending step instead of signing out', async () => {
    const session = { status: 'done' as Status | null, methods: ['totp'] as Method[] };
    const calls = fakeGateway(session, {
      'GET /case-statuses': () => {
        session.status = 'verify';
        return problem(401, 'second-factor-required', 'Selesaikan verifikasi dua langkah terlebih dahulu');
      },
    });
    const location = renderApp('/admin/company');
    await findPage('Perusahaan');
    await act(() => api.GET('/api/v1/case-statuses').catch(() => undefined));
    await findPage('Verifikasi Dua Langkah');
    expect(here(location)).toBe('/auth/verifikasi');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(notify.error).not.toHaveBeenCalled();
  });
});
