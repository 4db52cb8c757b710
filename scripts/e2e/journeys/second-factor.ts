/**
 * The second factor in the browser journeys. Every staff account owes one after its password
 * (docs/product/second-factor.md): `completeSecondFactor` gives it with the account's deterministic
 * test passkey (scripts/support/passkey.ts), enrolling that passkey through Aktifkan Verifikasi Dua
 * Langkah the first time, so any journey, in any order and any worker, signs in the same way. Also the
 * steps the second-factor journeys share: TOTP codes computed from the secret the enrolment screen
 * shows (as an authenticator app does), the enrolment by authenticator app with its recovery codes,
 * and Chromium's virtual authenticator.
 */
import { readFileSync } from 'node:fs';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { generate } from 'otplib';
import type { CDPSession, Page } from 'playwright-core';
import { expect } from 'vitest';
import { softwarePasskey } from '../../support/passkey.ts';

export const VERIFY_PATH = '/auth/verifikasi';
export const ENROL_PATH = '/auth/aktifkan-verifikasi';

/** The code an authenticator app shows for `secret`, `offsetSeconds` from now. */
export const totpCode = (secret: string, offsetSeconds = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Six digits no authenticator shows for `secret` within the gateway's window (a step either way). */
export async function wrongTotpCode(secret: string): Promise<string> {
  const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((s) => totpCode(secret, s))));
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 111111) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/**
 * Kode Pemulihan, shown once after the first factor: reads the codes, saves them with Unduh (the
 * file must hold them), ticks "Saya sudah menyimpan kode pemulihan" and goes on with Lanjutkan.
 */
export async function keepRecoveryCodes(
  page: Page,
  options: { done?: string; onShown?: () => Promise<void> } = {},
): Promise<string[]> {
  const done = options.done ?? 'Lanjutkan';
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: 'Kode Pemulihan' }).waitFor();
  await options.onShown?.();
  const codes = await main
    .getByRole('list', { name: 'Daftar kode pemulihan' })
    .getByRole('listitem')
    .allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    main.getByRole('button', { name: 'Unduh', exact: true }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('kode-pemulihan-wbs.txt');
  const text = readFileSync(await file.path(), 'utf8');
  for (const code of codes) expect(text).toContain(code);
  const next = main.getByRole('button', { name: done, exact: true });
  expect(await next.isDisabled()).toBe(true);
  await main.getByText('Saya sudah menyimpan kode pemulihan', { exact: true }).click();
  await next.click();
  return codes;
}

/**
 * Aktifkan Verifikasi Dua Langkah with an authenticator app: the QR code (a data: image, no request
 * leaves), the key as text, a code computed from it; then the recovery codes. Returns both.
 */
export async function enrolTotp(
  page: Page,
  /** Called on each screen of the way (the QR code, the recovery codes): an accessibility scan. */
  onScreen?: (screen: string) => Promise<void>,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: 'Aktifkan Verifikasi Dua Langkah' }).waitFor();
  await main.getByRole('button', { name: 'Aplikasi autentikator' }).click();
  const qr = main.getByRole('img', { name: 'Kode QR untuk aplikasi autentikator' });
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  const secret = await main.getByLabel('Kunci rahasia').inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await onScreen?.('Aplikasi autentikator');
  await main.getByLabel('Kode autentikator').fill(await totpCode(secret));
  await main.getByRole('button', { name: 'Aktifkan', exact: true }).click();
  const recoveryCodes = await keepRecoveryCodes(page, {
    onShown: () => onScreen?.('Kode Pemulihan') ?? Promise.resolve(),
  });
  return { secret, recoveryCodes };
}

/**
 * Chromium's virtual authenticator in the page's context: a platform passkey provider that verifies
 * the user and answers at once (DevTools WebAuthn domain).
 */
export async function virtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

// ---- The staff accounts' test passkey ---------------------------------------------------------------

/** One virtual authenticator per page, holding the passkey of whoever signs in there. */
const authenticators = new WeakMap<Page, Promise<{ cdp: CDPSession; authenticatorId: string }>>();

function authenticatorOf(page: Page) {
  let found = authenticators.get(page);
  if (!found) {
    found = virtualAuthenticator(page);
    authenticators.set(page, found);
  }
  return found;
}

/** The name the test passkey is enrolled under (Keamanan Akun lists it). */
const TEST_PASSKEY_NAME = 'Passkey uji otomatis';

/**
 * After the password: gives the second factor the screen asks for, with the account's test passkey.
 * - Verifikasi Dua Langkah: the passkey goes into the page's virtual authenticator, then
 *   "Gunakan passkey".
 * - Aktifkan Verifikasi Dua Langkah: Passkey, a name, "Daftarkan passkey"; the browser's
 *   authenticator is answered by the test passkey itself (a virtual authenticator would make a key of
 *   its own), then the recovery codes are kept and Lanjutkan goes on.
 * Any other screen (a type without a factor, the forced password change): nothing to do.
 */
export async function completeSecondFactor(page: Page, username: string): Promise<void> {
  const url = new URL(page.url());
  if (url.pathname !== VERIFY_PATH && url.pathname !== ENROL_PATH) return;
  const main = page.getByRole('main');
  if (url.pathname === ENROL_PATH) {
    await main.getByRole('button', { name: 'Passkey', exact: true }).click();
    await main.getByLabel('Nama passkey').fill(TEST_PASSKEY_NAME);
    await answerCreateWith(page, username);
    await main.getByRole('button', { name: 'Daftarkan passkey' }).click();
    await keepRecoveryCodes(page);
  } else {
    await addTestPasskey(page, username);
    await main.getByRole('button', { name: 'Gunakan passkey' }).click();
  }
  await page.waitForURL((next) => next.pathname !== VERIFY_PATH && next.pathname !== ENROL_PATH);
}

/**
 * Puts the test passkey of `username` into the page's virtual authenticator (instead of whatever it
 * held), with a counter that follows the clock: every context and process that used it before stays
 * behind. "Gunakan passkey" then signs with it, in the sign-in step or a Verifikasi Ulang prompt.
 */
export async function addTestPasskey(page: Page, username: string): Promise<void> {
  const passkey = softwarePasskey(username, { origin: new URL(page.url()).origin });
  const { cdp, authenticatorId } = await authenticatorOf(page);
  await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
  await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: passkey.cdpCredential() });
}

/** The binding through which the page's next `navigator.credentials.create` reaches the test passkey. */
const CREATE_BINDING = '__wbsTestPasskeyCreate';
const bound = new WeakSet<object>();

/**
 * Answers the page's next `navigator.credentials.create` with the test passkey's registration (made in
 * Node from the options the page passes), as a platform authenticator would; later calls go to the
 * browser again.
 */
async function answerCreateWith(page: Page, username: string): Promise<void> {
  const context = page.context();
  if (!bound.has(context)) {
    bound.add(context);
    await context.exposeBinding(
      CREATE_BINDING,
      (source, account: string, options: Record<string, unknown>): RegistrationResponseJSON =>
        softwarePasskey(account, { origin: new URL(source.page.url()).origin }).register(options),
    );
  }
  await page.evaluate(
    ({ binding, account }) => {
      const toText = (data: BufferSource) => {
        const bytes =
          data instanceof ArrayBuffer
            ? new Uint8Array(data)
            : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      };
      const toBytes = (text: string) => {
        const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
        const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
        return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
      };
      const browserCreate = navigator.credentials.create.bind(navigator.credentials);
      navigator.credentials.create = async (options?: CredentialCreationOptions) => {
        navigator.credentials.create = browserCreate;
        const publicKey = options?.publicKey;
        if (!publicKey) return browserCreate(options);
        const call = (window as unknown as Record<string, (a: string, o: unknown) => Promise<Registration>>)[
          binding
        ];
        type Registration = {
          id: string;
          rawId: string;
          type: string;
          authenticatorAttachment: string;
          response: {
            clientDataJSON: string;
            attestationObject: string;
            authenticatorData: string;
            transports: string[];
            publicKeyAlgorithm: number;
          };
        };
        const made = await call?.(account, {
          ...publicKey,
          challenge: toText(publicKey.challenge),
          user: { ...publicKey.user, id: toText(publicKey.user.id) },
          excludeCredentials: (publicKey.excludeCredentials ?? []).map((c) => ({ ...c, id: toText(c.id) })),
        });
        if (!made) throw new DOMException('no test passkey', 'NotAllowedError');
        return {
          id: made.id,
          rawId: toBytes(made.rawId),
          type: made.type,
          authenticatorAttachment: made.authenticatorAttachment,
          getClientExtensionResults: () => ({}),
          response: {
            clientDataJSON: toBytes(made.response.clientDataJSON),
            attestationObject: toBytes(made.response.attestationObject),
            getTransports: () => made.response.transports,
            getPublicKeyAlgorithm: () => made.response.publicKeyAlgorithm,
            getAuthenticatorData: () => toBytes(made.response.authenticatorData),
            getPublicKey: () => null,
          },
        } as unknown as Credential;
      };
    },
    { binding: CREATE_BINDING, account: username },
  );
}
