/**
 * TOTP (RFC 6238) through otplib: 20-byte secrets, 6 digits, 30-second steps, one step of clock drift
 * either way. The otpauth URI names the product and the username only (it ends up in the user's app).
 * The QR code is drawn here as SVG, so no third party ever sees the secret.
 */
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const ISSUER = 'WBS';
const PERIOD = 30;

export const newTotpSecret = (): string => generateSecret();

export function totpUri(secret: string, username: string): string {
  return generateURI({ issuer: ISSUER, label: username, secret, period: PERIOD });
}

export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The time step of `code` when it is valid now (±1 step) and later than `afterStep`; null otherwise.
 * The caller then takes the step in the store once (replays of the same code are refused there too).
 */
export async function totpStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now = Date.now(),
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now / 1000),
    epochTolerance: PERIOD,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
