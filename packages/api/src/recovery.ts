// The recovery share: its KDF records, fetching it, reporting a wrong password, and the OPRF that hardens
// recovery passwords.
import { RECOVERY_OPRF_SUITE, SCRYPT_LIMITS } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ADDRESS_PATTERN, GenerationSchema, HexString } from './shapes.js';

/** Standard base64 with its padding. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

const SaltSchema = Type.String({
  pattern: BASE64_PATTERN,
  minLength: 16,
  maxLength: 256,
  description: 'Random salt, base64 (at least 12 bytes).',
});

/**
 * The KDF parameters a browser may store with a password-protected recovery share. The floors keep a weak
 * setting from being stored: scrypt's cost is what an attacker who also holds the server's key (a stolen
 * `SHARE_ENCRYPTION_KEY` with the database) still pays per guess, and all that protects records written
 * before the OPRF (`oprf` absent).
 */
export const ScryptKdfSchema = Type.Object(
  {
    name: Type.Literal('scrypt'),
    // The web app's limits: it refuses to run scrypt outside them (a tampered record must not freeze the
    // tab), so a record it could never open is refused here already. N's power of two: `checkScryptCost`.
    N: Type.Integer({
      minimum: SCRYPT_LIMITS.minN,
      maximum: SCRYPT_LIMITS.maxN,
      description: `A power of two, 2^${Math.log2(SCRYPT_LIMITS.minN)} to 2^${Math.log2(SCRYPT_LIMITS.maxN)}.`,
    }),
    r: Type.Integer({ minimum: 1, maximum: SCRYPT_LIMITS.maxR }),
    p: Type.Integer({ minimum: 1, maximum: SCRYPT_LIMITS.maxP }),
    salt: SaltSchema,
    oprf: Type.Optional(
      Type.Literal(RECOVERY_OPRF_SUITE, {
        description:
          "Present when the key also needs the OPRF output of the password under the user's server-held key " +
          '(`POST /api/wallet/recovery/oprf`): the key is HKDF over both, so scrypt alone does not open it. ' +
          'Absent on records stored before Dial hardened passwords; they still open and are re-wrapped.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Older or other clients may have stored PBKDF2; Dial itself writes scrypt. */
export const Pbkdf2KdfSchema = Type.Object(
  {
    name: Type.Literal('pbkdf2'),
    hash: Type.Enum(['SHA-256', 'SHA-512']),
    iterations: Type.Integer({ minimum: 600_000, maximum: 100_000_000 }),
    salt: SaltSchema,
  },
  { additionalProperties: false },
);

/** A passkey's WebAuthn PRF output, expanded with HKDF under this salt. */
export const PasskeyKdfSchema = Type.Object(
  {
    name: Type.Literal('webauthn-prf'),
    credentialId: Type.String({
      pattern: '^[A-Za-z0-9_-]+$',
      minLength: 1,
      maxLength: 1366,
      description: 'The passkey credential id, base64url.',
    }),
    salt: SaltSchema,
  },
  { additionalProperties: false },
);

export const KdfSchema = Type.Union([ScryptKdfSchema, Pbkdf2KdfSchema, PasskeyKdfSchema], {
  description:
    'The KDF parameters the browser encrypted the recovery share with: `scrypt` or `pbkdf2` for ' +
    '`password`, `webauthn-prf` for `passkey`. Stored as given, returned with the ciphertext.',
});

export type ScryptKdf = Static<typeof ScryptKdfSchema>;
export type Pbkdf2Kdf = Static<typeof Pbkdf2KdfSchema>;
export type PasskeyKdf = Static<typeof PasskeyKdfSchema>;
/** KDF parameters that passed {@link KdfSchema}. */
export type RecoveryKdf = Static<typeof KdfSchema>;

export const RecoveryMethodSchema = Type.Enum(['password', 'passkey']);

/** How the recovery share is protected: a password (scrypt) or a passkey (WebAuthn PRF). */
export type RecoveryMethod = Static<typeof RecoveryMethodSchema>;

export const RecoveryCiphertextSchema = Type.String({
  pattern: BASE64_PATTERN,
  minLength: 4,
  maxLength: 4096,
  description: 'The recovery share as the browser encrypted it, base64. The server cannot read it.',
});

export const RecoveryInputSchema = Type.Object(
  { method: RecoveryMethodSchema, ciphertext: RecoveryCiphertextSchema, kdf: KdfSchema },
  { additionalProperties: false },
);

/** The encrypted recovery share as the server stores it (`recovery` of `PUT /api/wallet/shares`). */
export type ProtectedRecoveryShare = Static<typeof RecoveryInputSchema>;

export const getRecoveryRoute = defineRoute({
  ...ENDPOINTS.getRecovery,
  tags: ['wallet'],
  summary:
    "The signed-in user's encrypted recovery share, its KDF parameters and the recovery pair's auth share, " +
    'which together with the decrypted recovery share rebuilds the key (not counted as a recovery try: ' +
    'checking a password against it needs an OPRF evaluation, which is).',
  session: true,
  response: {
    200: Type.Object({
      generation: GenerationSchema,
      method: RecoveryMethodSchema,
      ciphertext: RecoveryCiphertextSchema,
      kdf: KdfSchema,
      address: HexString({ pattern: ADDRESS_PATTERN, description: 'The wallet, EIP-55.' }),
      authShare: Type.String({
        description:
          "Base64 of the recovery pair's auth share: the other half of the split whose first half is the recovery share.",
      }),
    }),
  },
  errors: ['recovery_not_set_up'],
});

/** `GET /api/wallet/recovery`: the stored recovery share with the generation of its split. */
export type StoredRecoveryShare = Static<(typeof getRecoveryRoute.schema.response)[200]>;

export const recoveryFailedRoute = defineRoute({
  ...ENDPOINTS.recoveryFailed,
  tags: ['wallet'],
  summary:
    'Reports a wrong recovery password of a record without the OPRF, or a wrong passkey (decryption failed in the browser); counts against the recovery limit.',
  session: true,
  response: { 204: Type.Null({ description: 'Counted.' }) },
  errors: [...RATE_LIMIT_ERRORS],
});

/** Base64 of one ristretto255 element: 32 bytes are 44 characters, one `=`. */
const ElementSchema = Type.String({
  pattern: '^[A-Za-z0-9+/]{43}=$',
  description: 'A ristretto255 element (32 bytes), standard base64.',
});

export const recoveryOprfRoute = defineRoute({
  ...ENDPOINTS.recoveryOprf,
  tags: ['wallet'],
  summary: `Evaluates a blinded recovery password under the signed-in user's OPRF key (${RECOVERY_OPRF_SUITE}, rate-limited).`,
  session: true,
  body: Type.Object({ blindedElement: ElementSchema }, { additionalProperties: false }),
  response: {
    200: Type.Object({
      evaluatedElement: ElementSchema,
      triesLeft: Type.Integer({
        minimum: 0,
        description:
          "The user's recovery tries left this hour after this one (evaluations and reported failures " +
          'count, one each; per user, whatever the session): 0 means the next is refused with ' +
          '`429 too_many_requests` until the hour ends.',
      }),
      retryAfterSeconds: Type.Optional(
        Type.Integer({
          minimum: 1,
          description:
            'Present when `triesLeft` is 0: the seconds until the next try is allowed, as the next ' +
            "try's 429 would say in `Retry-After`.",
        }),
      ),
    }),
  },
  errors: [...RATE_LIMIT_ERRORS],
});

export type RecoveryOprfRequest = Static<typeof recoveryOprfRoute.schema.body>;
export type RecoveryOprfAnswer = Static<(typeof recoveryOprfRoute.schema.response)[200]>;
