import {
  checkScryptCost,
  DialError,
  decodeShare,
  RECOVERY_OPRF_OUTPUT_LENGTH,
  RECOVERY_OPRF_SUITE,
  SCRYPT_COST,
  type ScryptCost,
} from '@dial/core';
import type { ProtectedRecoveryShare, RecoveryKdf, ScryptKdf } from '../api/types';
import { decryptRecoveryShare, encryptRecoveryShare, importAesKey, randomSalt } from './recoveryCipher';
import { runScrypt } from './runScrypt';

/** The message for scrypt parameters outside `SCRYPT_LIMITS` (`checkScryptCost`). */
const UNUSABLE_KDF =
  'Your recovery key is stored with settings this app does not accept, so it was not unlocked. Nothing was changed.';

/** Receives the KDF's progress, from 0 to 1. */
export type ProgressListener = (fraction: number) => void;

const OPRF_HKDF_INFO = new TextEncoder().encode('dial-recovery-share/password-oprf/1');

/** Whether the key of a stored record needs the server's OPRF evaluation of the password. */
export function needsOprf(kdf: RecoveryKdf): boolean {
  return kdf.name === 'scrypt' && kdf.oprf !== undefined;
}

/**
 * Derives the AES-256-GCM key of a recovery password. scrypt runs in a Web Worker (the page stays
 * responsive and `onProgress` can show how far it is); the password is NFKC-normalized, so the same
 * characters typed on another keyboard give the same key.
 *
 * A record with `oprf` (every one Dial writes now) is keyed by HKDF-SHA-256 over BOTH the OPRF output of
 * the password (from the server, see `hardenPassword`) and scrypt's output, salted with the record's salt:
 * the database alone (no OPRF key) or the server alone (no scrypt work for the right password) has
 * nothing to check a guess against. A record without it (written before the OPRF) is keyed by scrypt's
 * output alone, as it was written.
 *
 * Parameters outside `SCRYPT_LIMITS` (`checkScryptCost`) are refused before scrypt runs.
 *
 * @param oprfOutput - The OPRF output of this password; required when the record has `oprf`, ignored
 * otherwise. Not wiped here (the caller may use it again for the next record).
 * @throws {DialError} `invalid_data` for KDF parameters outside the limits, that this browser cannot run,
 * or an OPRF record without its output.
 */
export async function derivePasswordKey(
  password: string,
  kdf: ScryptKdf,
  oprfOutput: Uint8Array | null,
  onProgress?: ProgressListener,
): Promise<CryptoKey> {
  const refused = checkScryptCost(kdf);
  if (refused !== null) throw new DialError('invalid_data', { message: UNUSABLE_KDF, details: refused });
  if (kdf.oprf !== undefined && kdf.oprf !== RECOVERY_OPRF_SUITE) {
    throw new DialError('invalid_data', { message: UNUSABLE_KDF, details: `oprf ${String(kdf.oprf)}` });
  }
  if (kdf.oprf !== undefined && oprfOutput?.length !== RECOVERY_OPRF_OUTPUT_LENGTH) {
    throw new DialError('invalid_data', { details: 'the record needs the OPRF output of the password' });
  }
  let bytes: Uint8Array;
  try {
    bytes = await runScrypt(
      { password: password.normalize('NFKC'), salt: decodeShare(kdf.salt), N: kdf.N, r: kdf.r, p: kdf.p },
      onProgress,
    );
  } catch (error) {
    throw new DialError('invalid_data', { details: 'scrypt parameters not usable here', cause: error });
  }
  if (kdf.oprf === undefined || oprfOutput === null) return importAesKey(bytes);
  return hardenedAesKey(oprfOutput, bytes, decodeShare(kdf.salt));
}

/** HKDF-SHA-256 over OPRF output ‖ scrypt output into a non-extractable AES-256-GCM key; wipes the input. */
async function hardenedAesKey(
  oprfOutput: Uint8Array,
  scryptOutput: Uint8Array,
  salt: Uint8Array,
): Promise<CryptoKey> {
  const material = new Uint8Array(oprfOutput.length + scryptOutput.length);
  material.set(oprfOutput);
  material.set(scryptOutput, oprfOutput.length);
  scryptOutput.fill(0);
  try {
    const secret = await crypto.subtle.importKey('raw', material, 'HKDF', false, ['deriveKey']);
    return await crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(salt), info: OPRF_HKDF_INFO },
      secret,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
  } finally {
    material.fill(0);
  }
}

/**
 * Encrypts a recovery share under a password, with a new random salt and {@link SCRYPT_COST}, keyed by
 * scrypt and the password's OPRF output (`hardenPassword`); the record says so (`oprf`).
 */
export async function protectWithPassword(
  share: Uint8Array,
  address: string,
  password: string,
  oprfOutput: Uint8Array,
  onProgress?: ProgressListener,
  cost: ScryptCost = SCRYPT_COST,
): Promise<ProtectedRecoveryShare> {
  const kdf: ScryptKdf = { name: 'scrypt', ...cost, salt: randomSalt(16), oprf: RECOVERY_OPRF_SUITE };
  const key = await derivePasswordKey(password, kdf, oprfOutput, onProgress);
  return { method: 'password', kdf, ciphertext: await encryptRecoveryShare(share, key, 'password', address) };
}

/**
 * Decrypts a password-protected recovery share: with the password's OPRF output when the record needs it
 * ({@link needsOprf}), with scrypt alone for a record written before the OPRF.
 *
 * @throws {DialError} `wrong_recovery_password`, or `invalid_data` for a KDF Dial does not write (or an
 * OPRF record opened without the OPRF output).
 */
export async function openWithPassword(
  stored: ProtectedRecoveryShare,
  address: string,
  password: string,
  oprfOutput: Uint8Array | null,
  onProgress?: ProgressListener,
): Promise<Uint8Array> {
  if (stored.method !== 'password' || stored.kdf.name !== 'scrypt') {
    throw new DialError('invalid_data', { details: `cannot open ${stored.method}/${stored.kdf.name}` });
  }
  const key = await derivePasswordKey(password, stored.kdf, oprfOutput, onProgress);
  return decryptRecoveryShare(stored.ciphertext, key, 'password', address);
}
