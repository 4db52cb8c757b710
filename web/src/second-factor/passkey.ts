/**
 * The browser's side of a passkey through @simplewebauthn/browser, loaded on first use (it is not
 * needed before a passkey is asked for, and the first page's script budget is small).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import type { PasskeyOptions, PasskeyResponse } from './calls.ts';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

const library = () => retryImport(() => import('@simplewebauthn/browser'));

/** Whether this browser can use passkeys at all (no library load needed to know). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** A passkey failure the user can act on, in Indonesian (the browser's own text is English). */
export class PasskeyError extends Error {
  override name = 'PasskeyError';
}

function explain(error: unknown, registering: boolean): PasskeyError {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return new PasskeyError(registering ? T.passkeyAlreadyRegistered : T.passkeyFailed);
  }
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return new PasskeyError(T.passkeyCancelled);
  }
  return new PasskeyError(T.passkeyFailed);
}

/** The library's response as the document types it (the same JSON; checked by the gateway). */
const asResponse = (result: AuthenticationResponseJSON | RegistrationResponseJSON): PasskeyResponse => ({
  ...result,
  response: { ...result.response },
});

/**
 * Signs the gateway's challenge with a passkey of this account (the second step, a step-up). The
 * options are the gateway's PublicKeyCredentialRequestOptionsJSON, passed through untouched.
 */
export async function passkeyAssertion(options: PasskeyOptions): Promise<PasskeyResponse> {
  if (!passkeysSupported()) throw new PasskeyError(T.passkeyUnsupported);
  const { startAuthentication } = await library();
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
    return asResponse(await startAuthentication({ optionsJSON }));
  } catch (error) {
    throw explain(error, false);
  }
}

/** Creates a passkey for this account with the gateway's creation options. */
export async function passkeyRegistration(options: PasskeyOptions): Promise<PasskeyResponse> {
  if (!passkeysSupported()) throw new PasskeyError(T.passkeyUnsupported);
  const { startRegistration } = await library();
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
    return asResponse(await startRegistration({ optionsJSON }));
  } catch (error) {
    throw explain(error, true);
  }
}
