import { createPrivateKey, sign } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { verifySignature } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import { clockCounter, softwarePasskey } from './passkey.ts';

const origin = 'http://localhost:3000';
const rpID = 'localhost';

/** Registers `username`'s passkey through @simplewebauthn/server, as the gateway does. */
async function registered(username: string): Promise<WebAuthnCredential> {
  const options = await generateRegistrationOptions({
    rpName: 'WBS',
    rpID,
    userName: username,
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
  });
  const passkey = softwarePasskey(username, { origin });
  const result = await verifyRegistrationResponse({
    response: passkey.register(options),
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  });
  expect(result.verified).toBe(true);
  if (!result.verified) throw new Error('not verified');
  expect(result.registrationInfo.fmt).toBe('none');
  expect(result.registrationInfo.aaguid).toBe('00000000-0000-0000-0000-000000000000');
  expect(result.registrationInfo.userVerified).toBe(true);
  return result.registrationInfo.credential;
}

describe('softwarePasskey', () => {
  it('registers through @simplewebauthn/server with its own id and public key', async () => {
    const credential = await registered('alice');
    const passkey = softwarePasskey('alice', { origin });
    expect(credential.id).toBe(passkey.id);
    expect(Buffer.from(credential.publicKey).equals(Buffer.from(passkey.cosePublicKey))).toBe(true);
    expect(credential.counter).toBeGreaterThan(0);
  });

  it('is the same credential in every instance, and another for another name', () => {
    const a = softwarePasskey('alice', { origin });
    const again = softwarePasskey('alice', { origin: 'http://localhost:4000' });
    const b = softwarePasskey('bob', { origin });
    expect(again.id).toBe(a.id);
    expect(Buffer.from(again.cosePublicKey).equals(Buffer.from(a.cosePublicKey))).toBe(true);
    expect(b.id).not.toBe(a.id);
    expect(Buffer.from(b.cosePublicKey).equals(Buffer.from(a.cosePublicKey))).toBe(false);
  });

  it('signs in twice in a row with a growing counter, and a replayed assertion is refused', async () => {
    const credential = await registered('carol');
    const passkey = softwarePasskey('carol', { origin });
    const counters: number[] = [];
    let last: Awaited<ReturnType<typeof passkey.authenticate>> | undefined;
    let lastChallenge = '';
    for (let round = 0; round < 2; round++) {
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: [{ id: credential.id }],
        userVerification: 'preferred',
      });
      last = passkey.authenticate(options);
      lastChallenge = options.challenge;
      const result = await verifyAuthenticationResponse({
        response: last,
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential,
        requireUserVerification: true,
      });
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.credentialID).toBe(passkey.id);
      expect(result.authenticationInfo.newCounter).toBeGreaterThan(credential.counter);
      counters.push(result.authenticationInfo.newCounter);
      credential.counter = result.authenticationInfo.newCounter;
    }
    expect(counters[1]).toBeGreaterThan(counters[0] ?? Number.POSITIVE_INFINITY);
    // The same assertion again: its counter no longer grows (the cloned-authenticator check).
    await expect(
      verifyAuthenticationResponse({
        response: last!,
        expectedChallenge: lastChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential,
      }),
    ).rejects.toThrow(/counter/i);
  });

  it('a counter that follows the clock: another process starts above this one’s past uses', () => {
    const passkey = softwarePasskey('dave', { origin });
    const before = clockCounter();
    const counters = [0, 1, 2].map(() => {
      const options = { challenge: Buffer.from('c').toString('base64url'), rpId: rpID };
      const authData = Buffer.from(passkey.authenticate(options).response.authenticatorData, 'base64url');
      return authData.readUInt32BE(33);
    });
    expect(counters[0]).toBeGreaterThanOrEqual(before);
    expect(counters[1]).toBeGreaterThan(counters[0]!);
    expect(counters[2]).toBeGreaterThan(counters[1]!);
    // Deciseconds since 2026-01-01: well below 2^32 for years.
    expect(before).toBeLessThan(2 ** 31);
  });

  it('is refused from another origin', async () => {
    const credential = await registered('erin');
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [{ id: credential.id }] });
    const elsewhere = softwarePasskey('erin', { origin: 'https://evil.example' });
    await expect(
      verifyAuthenticationResponse({
        response: elsewhere.authenticate({ ...options, rpId: rpID }),
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential,
      }),
    ).rejects.toThrow(/origin/i);
  });

  it('is refused for another RP id, and by another user’s credential', async () => {
    const credential = await registered('frank');
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [{ id: credential.id }] });
    const passkey = softwarePasskey('frank', { origin });
    await expect(
      verifyAuthenticationResponse({
        response: passkey.authenticate({ ...options, rpId: 'example.org' }),
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential,
      }),
    ).rejects.toThrow(/RP ID/i);
    // Another user's passkey offers nothing for frank's allowCredentials, and its signature does not
    // verify under frank's public key (the stored counter left at 0 so that the signature is what
    // decides, not the counter checked before it).
    const grace = softwarePasskey('grace', { origin });
    expect(() => grace.authenticate(options)).toThrow(/not among the allowed/);
    const forged = grace.authenticate({ challenge: options.challenge, rpId: rpID });
    const result = await verifyAuthenticationResponse({
      response: { ...forged, id: credential.id, rawId: credential.id },
      expectedChallenge: options.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { ...credential, counter: 0 },
    });
    expect(result.verified).toBe(false);
  });

  it('refuses to register twice for an RP that already knows it', async () => {
    const options = await generateRegistrationOptions({
      rpName: 'WBS',
      rpID,
      userName: 'heidi',
      excludeCredentials: [{ id: softwarePasskey('heidi', { origin }).id }],
    });
    expect(() => softwarePasskey('heidi', { origin }).register(options)).toThrow(/already registered/);
  });

  it('gives Chromium the same key: a PKCS#8 key whose signatures verify under the registered key', async () => {
    const credential = await registered('ivan');
    const cdp = softwarePasskey('ivan', { origin }).cdpCredential();
    expect(cdp.rpId).toBe('localhost');
    expect(cdp.isResidentCredential).toBe(false);
    expect(Buffer.from(cdp.credentialId, 'base64').toString('base64url')).toBe(credential.id);
    expect(cdp.signCount).toBeGreaterThanOrEqual(credential.counter);
    const key = createPrivateKey({
      key: Buffer.from(cdp.privateKey, 'base64'),
      format: 'der',
      type: 'pkcs8',
    });
    const data = Buffer.from('signed in Chromium');
    const signature = sign('sha256', data, { key, dsaEncoding: 'der' });
    expect(await verifySignature({ signature, data, credentialPublicKey: credential.publicKey })).toBe(true);
  });

  it('sends the user handle of its registration with assertions, for Chromium too', async () => {
    const options = await generateRegistrationOptions({ rpName: 'WBS', rpID, userName: 'judy' });
    const passkey = softwarePasskey('judy', { origin });
    passkey.register(options);
    expect(passkey.userHandle).toBe(options.user.id);
    const assertion = passkey.authenticate({ challenge: 'AAAA', rpId: rpID });
    expect(assertion.response.userHandle).toBe(options.user.id);
    expect(Buffer.from(passkey.cdpCredential().userHandle ?? '', 'base64').toString('base64url')).toBe(
      options.user.id,
    );
  });
});
