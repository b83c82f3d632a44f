import { randomBytes } from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
} from '@dial/api';
import { DialError } from '@dial/core';
import {
  type AuthenticatorTransport,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { AppConfig } from '../../config/index.js';
import type { Database, PasskeysTable } from '../../db/database.js';
import { describeUserAgent } from '../describeUserAgent.js';
import { WEBAUTHN_CHALLENGE_TTL_SECONDS } from './webauthnChallenges.js';

/** COSE algorithms offered: ES256 (every platform authenticator), EdDSA, RS256 (Windows Hello). */
const ALGORITHMS = [-7, -8, -257];
/** The AAGUIDs of the common passkey providers, to name a passkey its owner did not name. */
const PROVIDERS: Readonly<Record<string, string>> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
};

/** A passkey whose attestation held: what is stored of it. */
export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  userHandle: string;
  aaguid: string;
  backedUp: boolean;
  /** Its owner's name for it, else its provider's (by AAGUID), else the browser's. */
  name: string;
}

/** A stored passkey, as an assertion is checked against it. */
export type StoredPasskey = Pick<
  Selectable<PasskeysTable>,
  'identity_id' | 'credential_id' | 'public_key' | 'counter' | 'transports' | 'user_handle'
>;

/** What the passkey routes and the step-up check build and verify alike. */
export interface PasskeyChecks {
  /** A new user handle: 32 random bytes, base64url (never the account id). */
  newUserHandle(): string;
  /** `navigator.credentials.create()`'s options, for the origin the request comes from when it is ours. */
  creationOptions(
    request: FastifyRequest,
    fields: { challenge: string; userHandle: string; userName: string; exclude: readonly string[] },
  ): PasskeyCreationOptions;
  /** `navigator.credentials.get()`'s options. */
  requestOptions(request: FastifyRequest, challenge: string): PasskeyRequestOptions;
  /**
   * Verifies a new passkey's attestation (format `none` or any the library knows): the challenge, the origin
   * (`PUBLIC_URL`'s, and its loopback aliases in development) with its own host as RP ID, user presence and
   * user verification.
   *
   * @throws {DialError} `passkey_invalid`.
   */
  verifyRegistration(
    request: FastifyRequest,
    credential: PasskeyRegistration,
    expected: { challenge: string; userHandle: string; name: string | undefined },
  ): Promise<NewPasskey>;
  /**
   * Verifies an assertion against a stored passkey: the challenge, the origin and its RP ID, user presence
   * and verification, the signature, and the user handle when the authenticator returns one; then moves its
   * signature counter forward in one conditional update, so a counter that did not increase (a cloned
   * authenticator, or the same assertion twice at once) is refused; 0 and 0 (an authenticator that keeps no
   * counter) passes. Marks it used.
   *
   * @throws {DialError} `passkey_invalid`.
   */
  verifyAssertion(
    db: Kysely<Database>,
    credential: PasskeyAssertion,
    expectedChallenge: string,
    stored: StoredPasskey,
    now: Date,
  ): Promise<void>;
}

/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`. The RP ID is the host of the origin the browser is on:
 * `PUBLIC_URL`'s, or in development one of its loopback aliases (`config.allowedOrigins`, as Sign-In with
 * Ethereum takes them); an assertion is accepted only when its origin is one of those and its RP ID is that
 * very origin's host, so a passkey of another site, or an origin borrowing another's RP ID, is refused.
 */
export function createPasskeyChecks(config: Pick<AppConfig, 'allowedOrigins' | 'publicUrl'>): PasskeyChecks {
  const origins = [...config.allowedOrigins];
  const rpIds = [...new Set(origins.map((origin) => new URL(origin).hostname))];

  const rpIdFor = (request: FastifyRequest): string => {
    const origin = request.headers.origin;
    return new URL(origin !== undefined && origins.includes(origin) ? origin : config.publicUrl).hostname;
  };

  /** The origin and RP ID an accepted ceremony reported must belong together. */
  const checkPair = (origin: string, rpId: string) => {
    if (new URL(origin).hostname !== rpId) {
      throw new DialError('passkey_invalid', { details: `origin ${origin} with RP ID ${rpId}` });
    }
  };

  return {
    newUserHandle: () => randomBytes(32).toString('base64url'),

    creationOptions(request, fields) {
      return {
        rp: { id: rpIdFor(request), name: 'Dial' },
        user: { id: fields.userHandle, name: fields.userName, displayName: fields.userName },
        challenge: fields.challenge,
        pubKeyCredParams: ALGORITHMS.map((alg) => ({ type: 'public-key' as const, alg })),
        timeout: WEBAUTHN_CHALLENGE_TTL_SECONDS * 1000,
        attestation: 'none',
        excludeCredentials: fields.exclude.map((id) => ({ id, type: 'public-key' as const })),
        authenticatorSelection: {
          residentKey: 'required',
          requireResidentKey: true,
          userVerification: 'required',
        },
      };
    },

    requestOptions(request, challenge) {
      return {
        challenge,
        rpId: rpIdFor(request),
        timeout: WEBAUTHN_CHALLENGE_TTL_SECONDS * 1000,
        userVerification: 'required',
        allowCredentials: [],
      };
    },

    async verifyRegistration(request, credential, expected) {
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: credential,
          expectedChallenge: expected.challenge,
          expectedOrigin: origins,
          expectedRPID: rpIds,
          requireUserPresence: true,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch (error) {
        throw new DialError('passkey_invalid', { details: (error as Error).message, cause: error });
      }
      const info = verified.registrationInfo;
      if (!verified.verified || info === undefined) throw new DialError('passkey_invalid');
      checkPair(info.origin, info.rpID ?? '');
      const aaguid = info.aaguid;
      return {
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: credential.response.transports ?? [],
        userHandle: expected.userHandle,
        aaguid,
        backedUp: info.credentialBackedUp,
        name:
          expected.name?.trim() ||
          PROVIDERS[aaguid] ||
          `Passkey on ${describeUserAgent(request.headers['user-agent'] ?? null)}`,
      };
    },

    async verifyAssertion(db, credential, expectedChallenge, stored, now) {
      if (credential.id !== stored.credential_id) throw new DialError('passkey_invalid');
      const handle = credential.response.userHandle;
      if (handle !== undefined && handle !== stored.user_handle) {
        throw new DialError('passkey_invalid', { details: 'another user handle' });
      }
      const storedCounter = Number(stored.counter);
      let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        verified = await verifyAuthenticationResponse({
          response: credential,
          expectedChallenge,
          expectedOrigin: origins,
          expectedRPID: rpIds,
          credential: {
            id: stored.credential_id,
            publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
            counter: storedCounter,
            transports: JSON.parse(stored.transports) as AuthenticatorTransport[],
          },
          requireUserVerification: true,
        });
      } catch (error) {
        throw new DialError('passkey_invalid', { details: (error as Error).message, cause: error });
      }
      const info = verified.authenticationInfo;
      if (!verified.verified || !info.userVerified) throw new DialError('passkey_invalid');
      checkPair(info.origin, info.rpID);
      const next = info.newCounter;
      if ((next !== 0 || storedCounter !== 0) && next <= storedCounter) {
        throw new DialError('passkey_invalid', { details: 'the signature counter did not increase' });
      }
      // Conditional on the counter read: of two assertions with one counter, one moves it and the other fails.
      const moved = await db
        .updateTable('passkeys')
        .set({ counter: next, last_used_at: now.toISOString() })
        .where('identity_id', '=', stored.identity_id)
        .where('counter', '=', storedCounter)
        .executeTakeFirst();
      if (moved.numUpdatedRows !== 1n) {
        throw new DialError('passkey_invalid', { details: 'the signature counter moved meanwhile' });
      }
    },
  };
}
