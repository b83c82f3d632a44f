import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { ORIGIN } from './testApp.js';

/**
 * A software passkey authenticator for the tests: a P-256 key made with node:crypto, and the bytes a real
 * authenticator and browser would send (authenticator data, `clientDataJSON`, a `none` attestation in CBOR,
 * an ECDSA signature), built here by hand so `@simplewebauthn/server` verifies real signatures. Every field a
 * test may falsify (origin, RP ID, flags, counter, user handle, challenge) is an option of each ceremony.
 */
export interface SoftAuthenticator {
  /** base64url */
  credentialId: string;
  /** The user handle it was registered with (base64url), once registered. */
  userHandle: string | undefined;
  /** Its signature counter: each assertion adds one unless told otherwise. */
  counter: number;
  /** `RegistrationResponseJSON` for creation options `{ challenge, user: { id } }`. */
  register(options: { challenge: string; user: { id: string } }, tamper?: Tamper): Registration;
  /** `AuthenticationResponseJSON` over `challenge` (base64url). */
  assert(challenge: string, tamper?: Tamper): Assertion;
}

/** What a test may falsify in a ceremony. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  /** The user-verified flag (default true). */
  userVerified?: boolean;
  /** The counter to report (default: the last one plus 1, or 0 while `keepsNoCounter`). */
  counter?: number;
  /** The `type` of `clientDataJSON`. */
  type?: string;
  userHandle?: string;
}

export interface Registration {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: 'platform';
  clientExtensionResults: Record<string, never>;
}

export interface Assertion {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment: 'platform';
  clientExtensionResults: Record<string, never>;
}

const RP_ID = new URL(ORIGIN).hostname;
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** A new authenticator holding one passkey (`keepsNoCounter`: it reports 0 every time, as synced ones do). */
export function softAuthenticator(options: { keepsNoCounter?: boolean } = {}): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const authenticator: SoftAuthenticator = {
    credentialId: randomBytes(16).toString('base64url'),
    userHandle: undefined,
    counter: 0,
    register(creation, tamper = {}) {
      authenticator.userHandle = creation.user.id;
      const clientData = clientDataOf('webauthn.create', creation.challenge, tamper);
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x as string, 'base64url')],
          [-3, Buffer.from(jwk.y as string, 'base64url')],
        ]),
      );
      // The id as the test may have set it (a forger reusing someone's id), not the one it was made with.
      const credential = Buffer.from(authenticator.credentialId, 'base64url');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credential.length);
      const authData = Buffer.concat([
        authDataHead(tamper, FLAG_AT, tamper.counter ?? 0),
        Buffer.alloc(16), // AAGUID: none
        length,
        credential,
        cose,
      ]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: authenticator.credentialId,
        rawId: authenticator.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: clientData.toString('base64url'),
          attestationObject: attestationObject.toString('base64url'),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      };
    },
    assert(challenge, tamper = {}) {
      const counter = tamper.counter ?? (options.keepsNoCounter ? 0 : authenticator.counter + 1);
      if (tamper.counter === undefined) authenticator.counter = counter;
      const clientData = clientDataOf('webauthn.get', challenge, tamper);
      const authData = authDataHead(tamper, 0, counter);
      const signature = signOver(privateKey, authData, clientData);
      const userHandle = tamper.userHandle ?? authenticator.userHandle;
      return {
        id: authenticator.credentialId,
        rawId: authenticator.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: clientData.toString('base64url'),
          authenticatorData: authData.toString('base64url'),
          signature: signature.toString('base64url'),
          ...(userHandle === undefined ? {} : { userHandle }),
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      };
    },
  };
  return authenticator;
}

function clientDataOf(type: string, challenge: string, tamper: Tamper): Buffer {
  return Buffer.from(
    JSON.stringify({
      type: tamper.type ?? type,
      challenge,
      origin: tamper.origin ?? ORIGIN,
      crossOrigin: false,
    }),
  );
}

/** rpIdHash (32) | flags (1) | signCount (4, big-endian). */
function authDataHead(tamper: Tamper, extraFlags: number, counter: number): Buffer {
  const rpIdHash = createHash('sha256')
    .update(tamper.rpId ?? RP_ID)
    .digest();
  const flags = FLAG_UP | (tamper.userVerified === false ? 0 : FLAG_UV) | extraFlags;
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([rpIdHash, Buffer.from([flags]), count]);
}

/** ECDSA P-256 with SHA-256 (DER) over authenticatorData ‖ SHA-256(clientDataJSON), as WebAuthn signs. */
function signOver(privateKey: KeyObject, authData: Buffer, clientData: Buffer): Buffer {
  const clientDataHash = createHash('sha256').update(clientData).digest();
  return sign('sha256', Buffer.concat([authData, clientDataHash]), privateKey);
}

/** A minimal CBOR encoder: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) {
      const bytes = Buffer.alloc(3);
      bytes[0] = (major << 5) | 25;
      bytes.writeUInt16BE(length, 1);
      return bytes;
    }
    throw new Error('too long for this encoder');
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [key, item] of value) parts.push(cbor(key), cbor(item));
    return Buffer.concat(parts);
  }
  throw new Error(`cannot encode ${typeof value}`);
}
