/**
 * The gateway's second-factor routes (docs/product/second-factor.md), one function each, so the
 * sign-in step, the step-up prompt, the enrolment and Keamanan Akun make them alike.
 */
import { type ApiBody, type ApiReply, api, read, withId } from '../api/client.ts';

export type SecondFactorState = ApiReply<'post', '/api/v1/session/second-factor'>['secondFactor'];
export type OwnSecondFactorsReply = ApiReply<'get', '/api/v1/account/second-factors'>;
export type PasskeyItem = OwnSecondFactorsReply['passkeys'][number];
export type TotpEnrolmentReply = ApiReply<'post', '/api/v1/account/second-factors/totp'>;
export type FactorAddedReply = ApiReply<'put', '/api/v1/account/second-factors/totp'>;

/** The WebAuthn options the gateway made, passed to @simplewebauthn/browser as they are. */
export type PasskeyOptions = ApiReply<'post', '/api/v1/session/second-factor/challenge'>['options'];
/** A WebAuthn response as @simplewebauthn/browser gives it, sent to the gateway as it is. */
export type PasskeyResponse = ApiBody<'post', '/api/v1/account/second-factors/passkeys'>['response'];

export type VerifyBody = ApiBody<'post', '/api/v1/session/second-factor'>;

/** The second step of a sign-in, or a step-up: a TOTP code, a recovery code or a passkey. */
export const verifySecondFactor = (body: VerifyBody) => api.POST('/api/v1/session/second-factor', { body });

/** A passkey challenge for the second step or a step-up. */
export const passkeyChallenge = () => api.POST('/api/v1/session/second-factor/challenge');

/** The user's own factors (Keamanan Akun). */
export const ownFactors = () => read('/api/v1/account/second-factors');

/** A new TOTP secret waiting for its first code (replaces one never confirmed). */
export const startTotp = () => api.POST('/api/v1/account/second-factors/totp');

export const confirmTotp = (code: string) =>
  api.PUT('/api/v1/account/second-factors/totp', { body: { code } });

export const removeTotp = () => api.DELETE('/api/v1/account/second-factors/totp');

export const passkeyRegistrationOptions = () => api.POST('/api/v1/account/second-factors/passkeys/options');

export const addPasskey = (name: string, response: PasskeyResponse) =>
  api.POST('/api/v1/account/second-factors/passkeys', { body: { name, response } });

const passkeyId = (id: string) => ({ params: { path: { id } } });

export const renamePasskey = (id: string, name: string) =>
  api.PATCH('/api/v1/account/second-factors/passkeys/{id}', { ...passkeyId(id), body: { name } });

export const removePasskey = (id: string) =>
  api.DELETE('/api/v1/account/second-factors/passkeys/{id}', passkeyId(id));

/** A new set of recovery codes (the old ones stop working). */
export const newRecoveryCodes = () => api.POST('/api/v1/account/second-factors/recovery-codes');

/** The accounts whose second factor their manager may reset (master data). */
export type ResettableAccount = 'partners' | 'companies' | 'analysts' | 'partner-staff';

/** Removes every factor of another account and ends its sessions: it enrols again at its next sign-in. */
export function resetSecondFactor(kind: ResettableAccount, id: number): Promise<{ message: string }> {
  switch (kind) {
    case 'partners':
      return api.POST('/api/v1/partners/{id}/second-factor-reset', withId(id));
    case 'companies':
      return api.POST('/api/v1/companies/{id}/second-factor-reset', withId(id));
    case 'analysts':
      return api.POST('/api/v1/analysts/{id}/second-factor-reset', withId(id));
    case 'partner-staff':
      return api.POST('/api/v1/partner-staff/{id}/second-factor-reset', withId(id));
  }
}
