/**
 * Passkeys (WebAuthn) through @simplewebauthn/server, as a second factor after the password: the
 * options list the account's own credentials, attestation is not asked for (no vendor list to keep),
 * user verification is preferred, not required (a security key without a PIN is still something the
 * user has). The relying party is PUBLIC_URL: its host is the RP ID, its origin the one origin accepted.
 * Challenges live in the key store (every replica sees them) for five minutes and are used once.
 */
import { createHash } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { KeyStore } from '../redis.ts';
import type { Account, NewPasskey, PasskeyRow } from './store.ts';

export type RelyingParty = { id: string; name: string; origin: string };

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: 'WBS', origin: url.origin };
}

const CHALLENGE_TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 120_000;

export type ChallengePurpose = 'register' | 'authenticate';

/** One challenge per session and purpose: a new one replaces the last. */
const challengeKey = (sessionId: string, purpose: ChallengePurpose) =>
  `second-factor:challenge:${purpose}:${sessionId}`;

async function keepChallenge(
  keys: KeyStore,
  sessionId: string,
  purpose: ChallengePurpose,
  challenge: string,
) {
  await keys.set(challengeKey(sessionId, purpose), challenge, CHALLENGE_TTL_MS);
}

/** The session's challenge, taken (deleted) so it answers once; null when none or used. */
export async function takeChallenge(
  keys: KeyStore,
  sessionId: string,
  purpose: ChallengePurpose,
): Promise<string | null> {
  const key = challengeKey(sessionId, purpose);
  const { value } = await keys.lookup(key);
  if (value === null) return null;
  return (await keys.del(key)) > 0 ? value : null;
}

/** A WebAuthn user handle that names nobody: a hash of the legacy user id under the product's label. */
const userHandle = (account: Account) =>
  new Uint8Array(createHash('sha256').update(`wbs-user|${account.userId}`).digest().subarray(0, 16));

export async function registrationOptions(
  rp: RelyingParty,
  keys: KeyStore,
  sessionId: string,
  account: Account,
  displayName: string,
  existing: PasskeyRow[],
) {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.username,
    userDisplayName: displayName,
    userID: userHandle(account),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await keepChallenge(keys, sessionId, 'register', options.challenge);
  return options;
}

/** The new credential, or null when the response does not answer the challenge for this origin. */
export async function verifyRegistration(
  rp: RelyingParty,
  challenge: string,
  response: unknown,
): Promise<Omit<NewPasskey, 'name'> | null> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 8),
    };
  } catch {
    // A malformed or foreign response is a failed attempt, never a 500.
    return null;
  }
}

export async function authenticationOptions(
  rp: RelyingParty,
  keys: KeyStore,
  sessionId: string,
  passkeys: PasskeyRow[],
) {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: TIMEOUT_MS,
    userVerification: 'preferred',
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
  });
  await keepChallenge(keys, sessionId, 'authenticate', options.challenge);
  return options;
}

/** The new signature counter when the assertion is good for this passkey; null otherwise. */
export async function verifyAuthentication(
  rp: RelyingParty,
  challenge: string,
  response: unknown,
  passkey: PasskeyRow,
): Promise<number | null> {
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
