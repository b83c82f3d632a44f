import { DialError, decodeShare, encodeShare } from '@dial/core';
import type { RecoveryMethod } from '../api/types';

const IV_LENGTH = 12;

/**
 * The additional data every recovery ciphertext is bound to: purpose, format version, method and the
 * wallet's address. A ciphertext moved to another wallet (or read as the other method) fails to decrypt
 * instead of yielding a share of some other key.
 */
export function recoveryAdditionalData(method: RecoveryMethod, address: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(['dial-recovery-share', 1, method, address.toLowerCase()]));
}

/** Encrypts `share` with an AES-256-GCM key under a fresh random IV; the result is base64(iv ‖ ciphertext). */
export async function encryptRecoveryShare(
  share: Uint8Array,
  key: CryptoKey,
  method: RecoveryMethod,
  address: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const plain = new Uint8Array(share);
  try {
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: recoveryAdditionalData(method, address) },
      key,
      plain,
    );
    const out = new Uint8Array(IV_LENGTH + sealed.byteLength);
    out.set(iv);
    out.set(new Uint8Array(sealed), IV_LENGTH);
    return encodeShare(out);
  } finally {
    plain.fill(0);
  }
}

/**
 * Decrypts a recovery ciphertext. A wrong key (wrong password or passkey), a tampered ciphertext and a
 * ciphertext of another wallet all fail the same way: AES-GCM cannot tell them apart, and neither can we.
 *
 * @throws {DialError} `wrong_recovery_password`.
 */
export async function decryptRecoveryShare(
  ciphertext: string,
  key: CryptoKey,
  method: RecoveryMethod,
  address: string,
): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = decodeShare(ciphertext);
  } catch (error) {
    throw new DialError('wrong_recovery_password', { details: 'ciphertext is not base64', cause: error });
  }
  if (bytes.length <= IV_LENGTH + 16) {
    throw new DialError('wrong_recovery_password', { details: 'ciphertext too short' });
  }
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: bytes.slice(0, IV_LENGTH),
        additionalData: recoveryAdditionalData(method, address),
      },
      key,
      bytes.slice(IV_LENGTH),
    );
    return new Uint8Array(plain);
  } catch (error) {
    throw new DialError('wrong_recovery_password', { details: 'decryption failed', cause: error });
  }
}

/** Imports 32 derived bytes as a non-extractable AES-256-GCM key, and wipes them. */
export async function importAesKey(bytes: Uint8Array): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(bytes), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
  } finally {
    bytes.fill(0);
  }
}

/** `count` random bytes, base64. */
export function randomSalt(count = 16): string {
  return encodeShare(crypto.getRandomValues(new Uint8Array(count)));
}
