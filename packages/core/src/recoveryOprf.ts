import { ristretto255_oprf } from '@noble/curves/ed25519.js';
import { DialError } from './errors.js';

/**
 * The OPRF that hardens recovery passwords: RFC 9497's base mode (0x00) over ristretto255 with SHA-512.
 * A KDF record whose `oprf` field holds this name was encrypted under a key that needs the server's
 * evaluation of the password, besides scrypt.
 */
export const RECOVERY_OPRF_SUITE = 'ristretto255-sha512' as const;

/** The length of a serialized ristretto255 element (a blinded or an evaluated password), in bytes. */
export const RECOVERY_OPRF_ELEMENT_LENGTH = 32;

/** The length of the OPRF's output (SHA-512), in bytes. */
export const RECOVERY_OPRF_OUTPUT_LENGTH = 64;

const { oprf } = ristretto255_oprf;

/** What the browser keeps while the server evaluates: the blind (secret) and the element it sends. */
export interface BlindedPassword {
  /** The blinding scalar. Secret: with it the server's answer reveals the output. */
  blind: Uint8Array;
  /** The blinded element to send to the server; it says nothing about the password. */
  blindedElement: Uint8Array;
}

/** The OPRF's private input: the password, NFKC-normalized (as for scrypt), as UTF-8. */
function passwordInput(password: string): Uint8Array {
  return new TextEncoder().encode(password.normalize('NFKC'));
}

/**
 * Client, step 1 of RFC 9497's OPRF: blinds a recovery password. Send `blindedElement` to the server
 * (`POST /api/wallet/recovery/oprf`) and keep `blind` for {@link finalizeRecoveryPassword}.
 *
 * @param password - The recovery password as typed.
 * @returns A fresh random blind and the blinded element.
 *
 * @example
 * ```ts
 * const { blind, blindedElement } = blindRecoveryPassword('plum orchard lantern 42');
 * ```
 */
export function blindRecoveryPassword(password: string): BlindedPassword {
  const { blind, blinded } = oprf.blind(passwordInput(password));
  return { blind, blindedElement: blinded };
}

/**
 * Client, step 3: unblinds the server's evaluation and hashes it with the password into the OPRF output,
 * which only someone who can ask the server (holding its key) can compute for a guessed password.
 *
 * @param password - The same password that was blinded.
 * @param blind - The blind from {@link blindRecoveryPassword}.
 * @param evaluatedElement - The server's answer.
 * @returns The {@link RECOVERY_OPRF_OUTPUT_LENGTH}-byte output.
 * @throws {DialError} `invalid_data` when the answer is not a valid, non-identity ristretto255 element.
 *
 * @example
 * ```ts
 * const output = finalizeRecoveryPassword(password, blind, evaluatedElement);
 * ```
 */
export function finalizeRecoveryPassword(
  password: string,
  blind: Uint8Array,
  evaluatedElement: Uint8Array,
): Uint8Array {
  checkElementLength(evaluatedElement, 'evaluated element');
  try {
    return oprf.finalize(passwordInput(password), blind, evaluatedElement);
  } catch (error) {
    throw new DialError('invalid_data', {
      details: 'evaluated element is not a ristretto255 element',
      cause: error,
    });
  }
}

/**
 * Server: the OPRF key of one user, derived (RFC 9497 DeriveKeyPair) from the server's 32-byte seed with
 * the user id as key info. Each user gets their own key, so an evaluation for one account says nothing
 * about another's password, and nothing needs storing: the seed and the id give the key again.
 *
 * @param seed - 32 secret bytes (Dial derives them from `SHARE_ENCRYPTION_KEY`).
 * @param userId - The account's id.
 * @returns The secret scalar for {@link evaluateRecoveryOprf}.
 *
 * @example
 * ```ts
 * const key = deriveRecoveryOprfKey(seed, user.id);
 * ```
 */
export function deriveRecoveryOprfKey(seed: Uint8Array, userId: string): Uint8Array {
  return oprf.deriveKeyPair(seed, new TextEncoder().encode(`dial-recovery-oprf:${userId}`)).secretKey;
}

/**
 * Server, step 2: evaluates a blinded password under a user's OPRF key. The element is checked strictly:
 * exactly 32 bytes, a canonical ristretto255 encoding, not the identity.
 *
 * @param secretKey - From {@link deriveRecoveryOprfKey}.
 * @param blindedElement - What the browser sent.
 * @returns The evaluated element to send back.
 * @throws {DialError} `invalid_data` for anything that is not a valid, non-identity element.
 *
 * @example
 * ```ts
 * const evaluated = evaluateRecoveryOprf(key, blindedElement);
 * ```
 */
export function evaluateRecoveryOprf(secretKey: Uint8Array, blindedElement: Uint8Array): Uint8Array {
  checkElementLength(blindedElement, 'blinded element');
  try {
    return oprf.blindEvaluate(secretKey, blindedElement);
  } catch (error) {
    throw new DialError('invalid_data', {
      details: 'blinded element is not a ristretto255 element',
      cause: error,
    });
  }
}

function checkElementLength(element: Uint8Array, name: string): void {
  if (!(element instanceof Uint8Array) || element.length !== RECOVERY_OPRF_ELEMENT_LENGTH) {
    throw new DialError('invalid_data', { details: `${name} is not ${RECOVERY_OPRF_ELEMENT_LENGTH} bytes` });
  }
}
