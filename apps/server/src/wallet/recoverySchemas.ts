import { RECOVERY_OPRF_SUITE, SCRYPT_LIMITS } from '@dial/core';
import { type Static, Type } from 'typebox';

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

/** KDF parameters that passed {@link KdfSchema}. */
export type RecoveryKdf = Static<typeof KdfSchema>;

export const RecoveryMethodSchema = Type.Enum(['password', 'passkey']);

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
