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

/** Receives the KDF's progress, from 0 to 1. */
export type ProgressListener = (fraction: number) => void;

/**
 * Derives the AES-256-GCM key of a recovery password with scrypt, in a Web Worker (the page stays
 * responsive and `onProgress` can show how far it is). The password is NFKC-normalized, so the same
 * characters typed on another keyboard give the same key.
 *
 * @throws {DialError} `invalid_data` for KDF parameters this browser cannot run (e.g. too much memory).
 */
export async function derivePasswordKey(
  password: string,
  kdf: ScryptKdf,
  onProgress?: ProgressListener,
): Promise<CryptoKey> {
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
