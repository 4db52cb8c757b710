/**
 * The second factor of staff accounts (docs/product/second-factor.md): TOTP codes, passkeys and
 * single-use recovery codes, held by the gateway (the legacy knows only passwords).
 *
 * A session is in one of three states:
 * - `verify`: the password was right and the account has a factor: only the second-factor step
 *   (POST /session/second-factor, POST /session/second-factor/challenge), GET and DELETE /session reach
 *   the gateway; every other route answers 401 `second-factor-required`.
 * - `enrol`: the password was right, the user's type requires a factor and the account has none: only
 *   the enrolment routes (under /account/second-factors), GET and DELETE /session; 401
 *   `second-factor-required` elsewhere.
 * - `done`: a full session.
 * Step-up: revealing contacts, exports and attachments of an identified report need a factor used within
 * the last `STEP_UP_SECONDS`; otherwise 401 `step-up-required`: prompt, POST /session/second-factor,
 * then retry.
 */
import * as v from 'valibot';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { wibDateTime } from './common.ts';

/** How long a factor use counts for step-up. */
export const STEP_UP_SECONDS = 600;
export const RECOVERY_CODE_COUNT = 10;
export const PASSKEY_NAME_MAX = 60;

export const secondFactorMethod = v.picklist(['totp', 'passkey']);
export type SecondFactorMethod = v.InferOutput<typeof secondFactorMethod>;

export const secondFactorStatus = v.picklist(['verify', 'enrol', 'done']);
export type SecondFactorStatus = v.InferOutput<typeof secondFactorStatus>;

/** Where the signed-in user stands; in POST/GET /session and every reply that changes it. */
export const secondFactorState = v.object({
  status: secondFactorStatus,
  /** The user's type must have a factor (a setting per user type). */
  required: v.boolean(),
  /** Enrolled methods (empty: none). */
  methods: v.array(secondFactorMethod),
  recoveryCodesLeft: v.number(),
  /** Until when (WIB wall time) step-up actions need no new prompt; null: a prompt first. */
  stepUpUntil: v.nullable(wibDateTime),
});
export type SecondFactorState = v.InferOutput<typeof secondFactorState>;

const totpCode = v.pipe(
  v.string(),
  v.transform((s) => s.replace(/\s+/g, '')),
  v.regex(/^\d{6}$/, M.secondFactorCodeFormat),
);
const recoveryCode = v.pipe(
  v.string(),
  v.maxLength(64, M.recoveryCodeFormat),
  v.transform((s) =>
    s
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, ''),
  ),
  v.regex(/^[a-z2-7]{10}$/, M.recoveryCodeFormat),
);

/**
 * A WebAuthn response as @simplewebauthn/browser gives it (RegistrationResponseJSON or
 * AuthenticationResponseJSON); the gateway's WebAuthn library checks every field. Bounded in size.
 */
export const webAuthnResponse = v.pipe(
  v.looseObject({
    id: v.pipe(v.string(), v.maxLength(1024)),
    rawId: v.pipe(v.string(), v.maxLength(1024)),
    type: v.literal('public-key'),
    response: v.record(v.string(), v.unknown()),
  }),
  v.check((value) => JSON.stringify(value).length <= 64 * 1024, M.passkeyResponseInvalid),
);

/** POST /session/second-factor: one of a TOTP code, a recovery code or a passkey assertion. */
export const secondFactorVerifyRequest = v.variant('method', [
  v.object({ method: v.literal('totp'), code: totpCode }),
  v.object({ method: v.literal('recovery'), code: recoveryCode }),
  v.object({ method: v.literal('passkey'), response: webAuthnResponse }),
]);
export type SecondFactorVerifyRequest = v.InferOutput<typeof secondFactorVerifyRequest>;

export const secondFactorStateReply = v.object({ secondFactor: secondFactorState });

/** Options for navigator.credentials.get / .create (PublicKeyCredential*OptionsJSON), passed through. */
export const passkeyOptionsReply = v.object({ options: v.record(v.string(), v.unknown()) });

/** GET /account/second-factors: the user's own factors (never a secret). */
export const passkeyItem = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: wibDateTime,
  lastUsedAt: v.nullable(wibDateTime),
});
export type PasskeyItem = v.InferOutput<typeof passkeyItem>;

export const ownSecondFactorsReply = v.object({
  secondFactor: secondFactorState,
  totp: v.nullable(v.object({ createdAt: wibDateTime })),
  passkeys: v.array(passkeyItem),
});
export type OwnSecondFactorsReply = v.InferOutput<typeof ownSecondFactorsReply>;

/** POST /account/second-factors/totp: a new secret waiting for its first code (replaces an unconfirmed one). */
export const totpEnrolmentReply = v.object({
  /** Base32, for typing into an authenticator app. */
  secret: v.string(),
  otpauthUri: v.string(),
  /** The QR code of `otpauthUri` as an SVG document, drawn by the gateway (no third-party request). */
  qrSvg: v.string(),
});
export type TotpEnrolmentReply = v.InferOutput<typeof totpEnrolmentReply>;

export const totpConfirmRequest = v.object({ code: totpCode });

/** A factor was added: recovery codes come along when the account had none (shown once). */
export const factorAddedReply = v.object({
  secondFactor: secondFactorState,
  recoveryCodes: v.nullable(v.array(v.string())),
});
export type FactorAddedReply = v.InferOutput<typeof factorAddedReply>;

const passkeyName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, M.passkeyNameRequired),
  v.maxLength(PASSKEY_NAME_MAX, M.passkeyNameTooLong),
);

export const passkeyRegisterRequest = v.object({ name: passkeyName, response: webAuthnResponse });
export const passkeyRenameRequest = v.object({ name: passkeyName });
export const passkeyParams = v.object({ id: v.pipe(v.string(), v.uuid(M.passkeyNotFound)) });

export const recoveryCodesReply = v.object({
  secondFactor: secondFactorState,
  recoveryCodes: v.array(v.string()),
});
