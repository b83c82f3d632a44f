import { DialError, decodeShare } from '@dial/core';
import {
  decryptRecoveryShare,
  encryptRecoveryShare,
  importAesKey,
  type ProtectedRecoveryShare,
  randomSalt,
  type ScryptKdf,
} from './recoveryCipher';
import { runScrypt } from './runScrypt';

/**
 * scrypt's cost for new recovery passwords: N = 2^17, r = 8, p = 1 (128 MiB, about a second or two in a
 * browser). It is the only thing slowing down someone who guesses passwords against a stolen ciphertext.
 */
export const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * The scrypt parameters this app agrees to run: the server (or whoever tampered with its answer) chooses
 * them for a stored recovery share, and an N of 2^30 or a huge r or p would freeze the tab or exhaust its
 * memory. N from 2^15 to 2^20 (32 MiB to 1 GiB with r = 8), r up to 16, p up to 4.
 */
export const SCRYPT_LIMITS = { minN: 2 ** 15, maxN: 2 ** 20, maxR: 16, maxP: 4 } as const;

/** Why scrypt parameters are refused, or null when they are within {@link SCRYPT_LIMITS}. */
export function checkScryptCost(cost: { N: number; r: number; p: number }): string | null {
  const { N, r, p } = cost;
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || N < SCRYPT_LIMITS.minN || N > SCRYPT_LIMITS.maxN) return `scrypt N ${N} out of range`;
  if (!Number.isInteger(r) || r < 1 || r > SCRYPT_LIMITS.maxR) return `scrypt r ${r} out of range`;
  if (!Number.isInteger(p) || p < 1 || p > SCRYPT_LIMITS.maxP) return `scrypt p ${p} out of range`;
  return null;
}

/** The message for scrypt parameters outside {@link SCRYPT_LIMITS}. */
const UNUSABLE_KDF =
  'Your recovery key is stored with settings this app does not accept, so it was not unlocked. Nothing was changed.';

/** Receives the KDF's progress, from 0 to 1. */
export type ProgressListener = (fraction: number) => void;

/**
 * Derives the AES-256-GCM key of a recovery password with scrypt, in a Web Worker (the page stays
 * responsive and `onProgress` can show how far it is). The password is NFKC-normalized, so the same
 * characters typed on another keyboard give the same key.
 *
 * Parameters outside {@link SCRYPT_LIMITS} are refused before scrypt runs.
 *
 * @throws {DialError} `invalid_data` for KDF parameters outside the limits or that this browser cannot run.
 */
export async function derivePasswordKey(
  password: string,
  kdf: ScryptKdf,
  onProgress?: ProgressListener,
): Promise<CryptoKey> {
  const refused = checkScryptCost(kdf);
  if (refused !== null) throw new DialError('invalid_data', { message: UNUSABLE_KDF, details: refused });
  let bytes: Uint8Array;
  try {
    bytes = await runScrypt(
      { password: password.normalize('NFKC'), salt: decodeShare(kdf.salt), N: kdf.N, r: kdf.r, p: kdf.p },
      onProgress,
    );
  } catch (error) {
    throw new DialError('invalid_data', { details: 'scrypt parameters not usable here', cause: error });
  }
  return importAesKey(bytes);
}

/** Encrypts a recovery share under a password, with a new random salt and {@link SCRYPT_COST}. */
export async function protectWithPassword(
  share: Uint8Array,
  address: string,
  password: string,
  onProgress?: ProgressListener,
  cost: { N: number; r: number; p: number } = SCRYPT_COST,
): Promise<ProtectedRecoveryShare> {
  const kdf: ScryptKdf = { name: 'scrypt', ...cost, salt: randomSalt(16) };
  const key = await derivePasswordKey(password, kdf, onProgress);
  return { method: 'password', kdf, ciphertext: await encryptRecoveryShare(share, key, 'password', address) };
}

/**
 * Decrypts a password-protected recovery share.
 *
 * @throws {DialError} `wrong_recovery_password`, or `invalid_data` for a KDF Dial does not write.
 */
export async function openWithPassword(
  stored: ProtectedRecoveryShare,
  address: string,
  password: string,
  onProgress?: ProgressListener,
): Promise<Uint8Array> {
  if (stored.method !== 'password' || stored.kdf.name !== 'scrypt') {
    throw new DialError('invalid_data', { details: `cannot open ${stored.method}/${stored.kdf.name}` });
  }
  const key = await derivePasswordKey(password, stored.kdf, onProgress);
  return decryptRecoveryShare(stored.ciphertext, key, 'password', address);
}
