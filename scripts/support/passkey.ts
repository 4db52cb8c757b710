/**
 * A software WebAuthn authenticator for the suites: one P-256 passkey per username, derived from a
 * fixed test seed, so every process (gateway unit tests, the Node suites, the browser journeys through
 * a Chromium virtual authenticator) rebuilds the same credential without sharing a file.
 *
 * It answers creation options with a `none` attestation and request options with an ES256 assertion,
 * the way a platform authenticator does after user verification (flags UP|UV).
 */
import { createECDH, createHash, createPrivateKey, type KeyObject, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** Test-only: anyone who reads this file can sign in as these passkeys. Never enrol one on a real system. */
const SEED = 'wbs-test-passkey';

/** The counter's zero: 2026-01-01T00:00Z. */
const COUNTER_EPOCH_MS = Date.UTC(2026, 0, 1);

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

/**
 * The last counter handed out per credential in this process. The gateway refuses a counter that does
 * not grow (a cloned authenticator), and the same credential signs from several processes and from
 * Chromium: the counter follows the clock (deciseconds since COUNTER_EPOCH_MS), and within a process
 * grows by at least one per use.
 */
const lastCounters = new Map<string, number>();

/** The sign counter the credential would use now, by the clock (also what Chromium starts from). */
export function clockCounter(): number {
  return Math.max(1, Math.floor((Date.now() - COUNTER_EPOCH_MS) / 100));
}

function nextCounter(credentialId: string): number {
  const counter = Math.max(clockCounter(), (lastCounters.get(credentialId) ?? 0) + 1);
  lastCounters.set(credentialId, counter);
  return counter;
}

/** What Chromium's DevTools `WebAuthn.addCredential` takes (binary fields as standard base64). */
export type CdpCredential = {
  credentialId: string;
  isResidentCredential: false;
  rpId: string;
  privateKey: string;
  signCount: number;
  userHandle?: string;
};

export type SoftwarePasskey = {
  username: string;
  /** The credential id, base64url (as the gateway lists it in allowCredentials). */
  id: string;
  /** The public key as COSE (what a verified registration stores). */
  cosePublicKey: Uint8Array;
  /** The user handle last registered (base64url), sent back with assertions when known. */
  userHandle: string | undefined;
  register(
    options: PublicKeyCredentialCreationOptionsJSON | Record<string, unknown>,
  ): RegistrationResponseJSON;
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON | Record<string, unknown>,
  ): AuthenticationResponseJSON;
  /** The same credential for a Chromium virtual authenticator (rpId: the origin's host unless given). */
  cdpCredential(rpId?: string): CdpCredential;
};

export type SoftwarePasskeyOptions = {
  /** The web origin the browser would report, e.g. `http://localhost:3000`. */
  origin: string;
  /** A user handle (base64url) to send with assertions, when known from an earlier registration. */
  userHandle?: string;
};

/** The deterministic test passkey of `username`, used from `origin`. */
export function softwarePasskey(
  username: string,
  { origin, userHandle }: SoftwarePasskeyOptions,
): SoftwarePasskey {
  const { privateKey, x, y } = derivedKey(username);
  const rawId = sha256(`${SEED}-credential-id:${username}`);
  const id = rawId.toString('base64url');
  const cosePublicKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, x],
      [-3, y],
    ]),
  );
  const fallbackRpId = new URL(origin).hostname;

  const passkey: SoftwarePasskey = {
    username,
    id,
    cosePublicKey,
    userHandle,

    register(raw) {
      const options = raw as PublicKeyCredentialCreationOptionsJSON;
      if (typeof options.challenge !== 'string') throw new Error('creation options without a challenge');
      if (!options.pubKeyCredParams?.some((p) => p.alg === -7))
        throw new Error('creation options do not accept ES256 (-7)');
      // A real authenticator refuses to create a second credential the RP already knows.
      if (options.excludeCredentials?.some((c) => c.id === id))
        throw new Error(`the passkey of ${username} is already registered (excludeCredentials)`);
      const rpId = options.rp?.id ?? fallbackRpId;
      const clientDataJSON = clientData('webauthn.create', options.challenge, origin);
      const attestedCredential = Buffer.concat([
        Buffer.alloc(16), // AAGUID: zeros (no attestation)
        u16(rawId.length),
        rawId,
        cosePublicKey,
      ]);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.of(FLAG_UP | FLAG_UV | FLAG_AT),
        u32(nextCounter(id)),
        attestedCredential,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData],
        ]),
      );
      if (options.user?.id) passkey.userHandle = options.user.id;
      return {
        id,
        rawId: id,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          attestationObject: Buffer.from(attestationObject).toString('base64url'),
          authenticatorData: authData.toString('base64url'),
          transports: ['internal'],
          publicKeyAlgorithm: -7,
        },
      };
    },

    authenticate(raw) {
      const options = raw as PublicKeyCredentialRequestOptionsJSON;
      if (typeof options.challenge !== 'string') throw new Error('request options without a challenge');
      // A real authenticator has nothing to offer when the RP asks for other credentials only.
      const allowed = options.allowCredentials;
      if (allowed && allowed.length > 0 && !allowed.some((c) => c.id === id))
        throw new Error(`the passkey of ${username} is not among the allowed credentials`);
      const rpId = options.rpId ?? fallbackRpId;
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const authData = Buffer.concat([sha256(rpId), Buffer.of(FLAG_UP | FLAG_UV), u32(nextCounter(id))]);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
        key: privateKey,
        dsaEncoding: 'der',
      });
      return {
        id,
        rawId: id,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          authenticatorData: authData.toString('base64url'),
          signature: signature.toString('base64url'),
          ...(passkey.userHandle ? { userHandle: passkey.userHandle } : {}),
        },
      };
    },

    cdpCredential(rpId = fallbackRpId) {
      const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
      return {
        credentialId: rawId.toString('base64'),
        isResidentCredential: false,
        rpId,
        privateKey: pkcs8.toString('base64'),
        signCount: nextCounter(id),
        ...(passkey.userHandle
          ? { userHandle: Buffer.from(passkey.userHandle, 'base64url').toString('base64') }
          : {}),
      };
    },
  };
  return passkey;
}

/** The P-256 key of `username`: the private scalar is a hash of the seed and the name. */
function derivedKey(username: string): { privateKey: KeyObject; x: Buffer; y: Buffer } {
  const ecdh = createECDH('prime256v1');
  // A hash at or above the curve order (odds about 2^-32) is refused by setPrivateKey: hash again.
  let d = sha256(`${SEED}:${username}`);
  for (;;) {
    try {
      ecdh.setPrivateKey(d);
      break;
    } catch {
      d = sha256(d);
    }
  }
  const point = ecdh.getPublicKey(); // 0x04 ‖ x ‖ y
  const x = point.subarray(1, 33);
  const y = point.subarray(33, 65);
  const privateKey = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: d.toString('base64url'),
      x: x.toString('base64url'),
      y: y.toString('base64url'),
    },
  });
  return { privateKey, x, y };
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
